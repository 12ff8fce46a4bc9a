import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/**
 * /profile/wallet and its screens: the self-custody wallet kept in this browser (create, check the
 * backup, restore, reveal the keys, add to the withdrawal addresses, forget). The intents find
 * controls by test ids and form roles, so they work in every language; the English texts are for
 * tests that read English.
 */
export class CustodyPage extends PageModel {
  readonly none = this.page.getByTestId('custody-none');
  readonly evmAddress = this.page.getByTestId('custody-address-evm');
  readonly btcAddress = this.page.getByTestId('custody-address-btc');
  readonly evmQr = this.page.getByTestId('custody-qr-evm');
  readonly backupState = this.page.getByTestId('backup-state');
  readonly chainBalance = this.page.getByTestId('chain-balance');
  readonly chainUnavailable = this.page.getByTestId('chain-unavailable');
  readonly wordList = this.page.getByTestId('mnemonic-words');
  readonly verifyForm = this.page.getByTestId('verify-words');
  readonly passphraseForm = this.page.getByTestId('new-passphrase');
  readonly unlockForm = this.page.getByTestId('unlock');
  readonly restoreForm = this.page.getByTestId('restore-words');
  readonly revealed = this.page.getByTestId('revealed');
  readonly added = this.page.getByTestId('address-added');
  readonly demoNotice = this.page.getByTestId('custody-demo');
  readonly forgetDialog = this.page.getByTestId('forget-dialog');

  async goto(path = ''): Promise<void> {
    await this.page.goto(`/profile/wallet${path}`);
  }

  /** The overview has loaded: a wallet's addresses or the "no wallet" card. */
  async ready(): Promise<void> {
    await this.evmAddress.or(this.none).first().waitFor();
  }

  /** Create: start, and the words shown once (read off the list, in order). */
  async generate(): Promise<string[]> {
    await this.goto('/create');
    await this.page.locator('main button.primary').click();
    await this.wordList.waitFor();
    return this.wordList.locator('.custody-word').allInnerTexts();
  }

  /** "I have written them down". */
  async written(): Promise<void> {
    await this.wordList.locator('xpath=following-sibling::button').click();
    await this.verifyForm.waitFor();
  }

  /** The positions (1-based) the backup check asks for. */
  async askedPositions(): Promise<number[]> {
    await this.verifyForm.waitFor();
    return ((await this.verifyForm.getAttribute('data-positions')) ?? '').split(',').map(Number);
  }

  /** Types words into the check's three fields and submits it. */
  async answer(words: readonly string[]): Promise<void> {
    const inputs = this.verifyForm.locator('input');
    for (const [i, word] of words.entries()) await inputs.nth(i).fill(word);
    await this.verifyForm.locator('button[type="submit"]').click();
  }

  /** Answers the check from the phrase itself. */
  async answerFrom(words: readonly string[]): Promise<void> {
    const positions = await this.askedPositions();
    await this.answer(positions.map((p) => words[p - 1] as string));
  }

  /** Passes the check while creating: the passphrase step follows. */
  async passCheck(words: readonly string[]): Promise<void> {
    await this.answerFrom(words);
    await this.passphraseForm.waitFor();
  }

  /** A new passphrase, twice, then save. */
  async choosePassphrase(passphrase: string, again = passphrase): Promise<void> {
    const inputs = this.passphraseForm.locator('input');
    await inputs.nth(0).fill(passphrase);
    await inputs.nth(1).fill(again);
    await this.passphraseForm.locator('button[type="submit"]').click();
  }

  /** Restore: the words, then a passphrase; back on the overview. */
  async restore(words: string, passphrase: string): Promise<void> {
    await this.goto('/restore');
    await this.restoreForm.locator('textarea').fill(words);
    await this.restoreForm.locator('button[type="submit"]').click();
    await this.passphraseForm.waitFor();
    await this.choosePassphrase(passphrase);
    await this.waitForPath('/profile/wallet');
    await this.evmAddress.waitFor();
  }

  /** Types the passphrase into the unlock form (reveal, add, verify later) and submits it. */
  async unlock(passphrase: string): Promise<void> {
    await this.unlockForm.locator('input[type="password"]').fill(passphrase);
    await this.unlockForm.locator('button[type="submit"]').click();
  }

  /** The error under a form's field (the first shown). */
  fieldError(form: Locator): Locator {
    return form.locator('.field-error').first();
  }

  /** The private keys shown on the reveal screen. */
  async keys(): Promise<{ evm: string; btc: string }> {
    await this.revealed.waitFor();
    return {
      evm: await this.page.getByTestId('key-evm').innerText(),
      btc: await this.page.getByTestId('key-btc').innerText(),
    };
  }

  /** Forget on this device, confirmed in the dialog. */
  async forget(): Promise<void> {
    await this.page.locator('main button.danger').click();
    await this.forgetDialog.locator('button.primary').click();
    await this.none.waitFor();
  }

  /** What the shell's one polite live region says now. */
  announced(): Promise<string> {
    return this.page.getByTestId('announcer').innerText();
  }

  /** Everything this origin keeps in IndexedDB, every database and store, as JSON. */
  indexedDb(): Promise<string> {
    return this.page.evaluate(async () => {
      const dump: Record<string, unknown> = {};
      for (const info of await indexedDB.databases()) {
        if (!info.name) continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open(info.name as string);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        for (const store of db.objectStoreNames) {
          dump[`${info.name}/${store}`] = await new Promise((resolve, reject) => {
            const request = db.transaction(store).objectStore(store).getAll();
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
        }
        db.close();
      }
      return JSON.stringify(dump);
    });
  }

  /** Local and session storage, as JSON. */
  webStorage(): Promise<string> {
    return this.page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }),
    );
  }
}
