import { ownershipMessage } from '@swx/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { type Hex, recoverMessageAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addressesOf, privateKeysOf } from '../../apps/web/src/features/custody/keys.ts';
import { newMnemonic } from '../../apps/web/src/features/custody/words.ts';
import { expectAccessible, type Layout, screenshotTo, settled } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { AddressesPage, CustodyPage, NoticeDialog, WalletPage } from '../support/pages/index.ts';

// The server runs without a chain (CHAIN=off): the overview says the balance cannot be read.
const app = useApp();

const PASSPHRASE = 'a long custody passphrase';

/**
 * Everything that leaves the page or stays in the browser while it runs: each request (URL,
 * headers, body), each websocket frame either way, the console; storage is read by the test.
 */
function recordTraffic(context: BrowserContext, page: Page) {
  const seen: string[] = [];
  const requests: { url: string; method: string; body: string | null }[] = [];
  context.on('request', (request) => {
    requests.push({ url: request.url(), method: request.method(), body: request.postData() });
    void request.allHeaders().then(
      (headers) =>
        seen.push(`REQUEST ${request.url()} ${JSON.stringify(headers)} ${request.postData() ?? ''}`),
      () => seen.push(`REQUEST ${request.url()} ${request.postData() ?? ''}`),
    );
  });
  page.on('websocket', (socket) => {
    seen.push(`WS ${socket.url()}`);
    socket.on('framesent', (frame) => seen.push(`SENT ${String(frame.payload)}`));
    socket.on('framereceived', (frame) => seen.push(`RECEIVED ${String(frame.payload)}`));
  });
  page.on('console', (message) => seen.push(`CONSOLE ${message.type()} ${message.text()}`));
  return { seen, requests };
}

/** The ways a secret could be written: the phrase, any 3 of its words in a row, each key with and without 0x, WIF. */
function secretsOf(phrase: string): string[] {
  const words = phrase.split(' ');
  const keys = privateKeysOf(phrase);
  const runs = words.slice(0, -2).map((_, i) => words.slice(i, i + 3).join(' '));
  return [
    phrase,
    ...runs,
    ...runs.map((run) => run.replaceAll(' ', ',')),
    ...runs.map((run) => JSON.stringify(run.split(' ')).slice(1, -1)),
    keys.evm,
    keys.evm.slice(2),
    keys.btc,
  ];
}

function expectNoSecret(texts: readonly string[], phrases: readonly string[], where: string): void {
  const haystack = texts.join('\n').toLowerCase();
  for (const phrase of phrases)
    for (const secret of secretsOf(phrase))
      expect(haystack.includes(secret.toLowerCase()), `${where}: ${secret}`).toBe(false);
}

/** A signed-in customer in the live book (switched with the demo notice's switch). */
async function liveCustomer(layout: Layout, email: string, language?: string) {
  const opened = await app.signedIn(layout, email, language ? { language } : {});
  await opened.page.goto('/profile/deposit');
  await new WalletPage(opened.page).useLive();
  return opened;
}

describe('self-custody wallet', () => {
  it('creates, checks, restores, reveals and submits with no word or key leaving the device or staying in clear', async () => {
    const { page: p, context, session, errors } = await liveCustomer('desktop', 'custody.flow@example.com');
    const { seen, requests } = recordTraffic(context, p);
    const stored: string[] = [];
    const custody = new CustodyPage(p);
    const keep = async () => stored.push(await custody.indexedDb(), await custody.webStorage());

    // The profile lists the wallet; none on this device yet.
    await p.goto('/profile');
    await p.getByRole('link', { name: 'My self-custody wallet' }).click();
    await custody.waitForPath('/profile/wallet');
    await custody.none.waitFor();

    // Create: 12 words shown once, with the warning and no copy button.
    const words = await custody.generate();
    expect(words).toHaveLength(12);
    const phrase = words.join(' ');
    expect(await p.getByText('They are shown only this once.').count()).toBe(1);
    expect(await p.locator('main').getByRole('button', { name: /copy/i }).count()).toBe(0);
    await keep();
    await custody.written();

    // The check asks three positions; wrong words are refused by their number, each wrong field
    // flagged (aria-invalid, its message tied to it) and the alert naming them; the written ones pass.
    const positions = await custody.askedPositions();
    expect(new Set(positions).size).toBe(3);
    const wrongWord = (n: number) => (words[n - 1] === 'abandon' ? 'zoo' : 'abandon');
    const [a, b, c] = positions as [number, number, number];
    await custody.answer([wrongWord(a), wrongWord(b), wrongWord(c)]);
    const alert = custody.verifyForm.getByRole('alert');
    await expect
      .poll(() => alert.innerText())
      .toBe(`Words ${a}, ${b}, and ${c} do not match your written backup. Look at it and try again.`);
    await expect.poll(() => custody.verifyForm.locator('input[aria-invalid="true"]').count()).toBe(3);
    await custody.answer([words[a - 1] as string, wrongWord(b), words[c - 1] as string]);
    await expect
      .poll(() => alert.innerText())
      .toBe(`Word ${b} does not match your written backup. Look at it and try again.`);
    const flagged = custody.verifyForm.locator('input[aria-invalid="true"]');
    await expect.poll(() => flagged.count()).toBe(1);
    expect(await flagged.getAttribute('data-position')).toBe(String(b));
    const describedBy = (await flagged.getAttribute('aria-describedby')) ?? '';
    expect(await p.locator(`[id="${describedBy}"]`).innerText()).toBe(`Word ${b} does not match.`);
    // Focus went to the wrong word, to correct it.
    await expect.poll(() => flagged.evaluate((input) => input === document.activeElement)).toBe(true);
    await custody.passCheck(words);

    // A short passphrase, then two that differ, then the same one twice.
    await custody.choosePassphrase('short');
    await expect
      .poll(() => custody.fieldError(custody.passphraseForm).innerText())
      .toBe('Use at least 10 characters.');
    await custody.choosePassphrase(PASSPHRASE, `${PASSPHRASE}!`);
    await expect
      .poll(() => custody.fieldError(custody.passphraseForm).innerText())
      .toBe('The two passphrases differ.');
    await custody.choosePassphrase(PASSPHRASE);
    await custody.waitForPath('/profile/wallet');
    const expected = addressesOf(phrase);
    await expect.poll(() => custody.evmAddress.innerText()).toBe(expected.evm);
    expect(await custody.btcAddress.innerText()).toBe(expected.btc);
    expect(await custody.evmQr.getAttribute('data-text')).toBe(expected.evm);
    expect(await custody.backupState.getAttribute('data-verified')).toBe('true');
    expect(await custody.backupState.innerText()).toBe(
      'Verified: you re-entered words from your written backup.',
    );
    expect(await p.getByTestId('custody-intro').innerText()).toContain('Its words were made here');
    await custody.chainUnavailable.waitFor();
    await keep();
    // The vault is there, under this customer, with the addresses in clear and nothing else readable.
    const vault = JSON.parse(await custody.indexedDb())['swx-custody/vaults'];
    expect(vault).toHaveLength(1);
    expect(vault[0]).toMatchObject({
      customerId: session.userInfo.id,
      addresses: expected,
      backupVerified: true,
      origin: 'created',
    });
    expect(vault[0].kdf).toEqual({ name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 });

    // Reveal: a wrong passphrase is said so; the right one shows the keys until hidden.
    await custody.goto('/reveal');
    await custody.unlock('not the passphrase');
    await expect
      .poll(() => custody.fieldError(custody.unlockForm).innerText())
      .toBe('Wrong passphrase: it does not open the wallet kept on this device.');
    await custody.unlock(PASSPHRASE);
    expect(await custody.keys()).toEqual(privateKeysOf(phrase));
    await p.getByRole('button', { name: 'Hide the keys' }).click();
    await custody.unlockForm.waitFor();
    expect(await custody.revealed.count()).toBe(0);

    // Add to my withdrawal addresses: signed here, only the address and the signature sent.
    await custody.goto('/withdrawal');
    await custody.unlock(PASSPHRASE);
    await custody.added.waitFor();
    // The customer hears of the new address: a notice (and a mail with a lock link).
    expect(await new NoticeDialog(p).closeNext(15_000)).toMatch(
      /The withdrawal address 0x[0-9a-fA-F]{40} on /,
    );
    const usableFrom = Date.parse(
      (await p.getByTestId('usable-from').getAttribute('data-usable-from')) ?? '',
    );
    expect(usableFrom - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const submitted = requests.find(
      (r) => r.method === 'POST' && new URL(r.url).pathname === '/swx/customer/wallet/addresses',
    );
    const body = JSON.parse(submitted?.body ?? '{}') as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['address', 'label', 'network', 'signature']);
    expect(body.network).toBe('USDT-EVM');
    expect(body.address).toBe(expected.evm);
    expect(
      await recoverMessageAddress({
        message: ownershipMessage(expected.evm, session.userInfo.id),
        signature: body.signature as Hex,
      }),
    ).toBe(expected.evm);

    // The address book marks it, in words.
    const book = new AddressesPage(p);
    await book.goto();
    await book.row(expected.evm).waitFor();
    expect(await book.row(expected.evm).getByTestId('owned-mark').innerText()).toBe(
      'Your self-custody wallet',
    );

    // Restore a second phrase: it replaces the first on this device.
    const second = newMnemonic();
    await custody.goto('/restore');
    await custody.restoreForm.locator('textarea').fill(second.split(' ').slice(0, 11).join(' '));
    await custody.restoreForm.locator('button[type="submit"]').click();
    await expect
      .poll(() => custody.fieldError(custody.restoreForm).innerText())
      .toBe('Enter exactly 12 or 24 words.');
    await custody.restore(second, PASSPHRASE);
    await expect.poll(() => custody.evmAddress.innerText()).toBe(addressesOf(second).evm);
    // A restore says what happened: no written backup was checked, all the words were typed in.
    await expect
      .poll(() => custody.backupState.innerText())
      .toBe('Restored from your recovery words: you entered all of them on this device.');
    expect(await custody.backupState.getAttribute('data-state')).toBe('restored');
    expect(await p.getByTestId('custody-intro').innerText()).toContain(
      'Its words were typed in here from your backup',
    );
    expect(JSON.parse(await custody.indexedDb())['swx-custody/vaults'][0]).toMatchObject({
      backupVerified: true,
      origin: 'restored',
    });
    await custody.goto('/verify');
    await expect.poll(() => custody.backupState.getAttribute('data-state')).toBe('restored');
    await keep();
    await custody.goto('/reveal');
    await custody.unlock(PASSPHRASE);
    expect(await custody.keys()).toEqual(privateKeysOf(second));
    await keep();

    // Forget: the dialog names the consequence; the device holds nothing after.
    await custody.goto();
    await custody.ready();
    await p.locator('main button.danger').click();
    expect(await custody.forgetDialog.innerText()).toContain(
      'Only your written words can restore the wallet',
    );
    await custody.forgetDialog.locator('button.primary').click();
    await custody.none.waitFor();
    expect(JSON.parse(await custody.indexedDb())['swx-custody/vaults']).toEqual([]);
    await keep();

    // Nothing secret anywhere: requests, websocket frames, console, storage.
    await settled(p);
    expect(requests.length).toBeGreaterThan(10);
    expect(seen.some((line) => line.startsWith('SENT ') || line.startsWith('RECEIVED '))).toBe(true);
    expectNoSecret(seen, [phrase, second], 'network and console');
    expectNoSecret(stored, [phrase, second], 'storage');
    // The test can see a secret where one is (the check is not blind).
    expectNoSecret([], [phrase], 'empty');
    expect(() => expectNoSecret([`x ${words.slice(4, 7).join(' ')} y`], [phrase], 'probe')).toThrow();
    expect(errors).toEqual([]);
  });

  it('a wallet whose backup is not verified yet cannot be added until three words are re-entered', async () => {
    const { page: p, errors } = await liveCustomer('mobile', 'custody.later@example.com');
    const custody = new CustodyPage(p);
    const words = await custody.generate();
    await custody.written();
    await p.getByRole('button', { name: 'Verify later' }).click();
    await custody.choosePassphrase(PASSPHRASE);
    await custody.waitForPath('/profile/wallet');
    await custody.evmAddress.waitFor();
    expect(await custody.backupState.getAttribute('data-verified')).toBe('false');
    await custody.goto('/withdrawal');
    await p.getByTestId('needs-backup').waitFor();
    await p.getByTestId('needs-backup').getByRole('link', { name: 'Verify my backup' }).click();
    await custody.unlock(PASSPHRASE);
    await custody.answerFrom(words);
    await custody.waitForPath('/profile/wallet');
    await expect.poll(() => custody.backupState.getAttribute('data-verified')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('the demo book says plainly that withdrawal addresses are in the live account', async () => {
    const { page: p, errors } = await app.signedIn('desktop', 'custody.demo@example.com');
    const custody = new CustodyPage(p);
    await custody.restore(newMnemonic(), PASSPHRASE);
    await custody.goto('/withdrawal');
    await custody.demoNotice.waitFor();
    expect(await custody.demoNotice.innerText()).toContain('Switch to your live account to add this wallet.');
    expect(await custody.unlockForm.count()).toBe(0);
    await expectAccessible(p, 'desktop /profile/wallet/withdrawal demo');
    expect(errors).toEqual([]);
  });

  for (const layout of ['desktop', 'mobile'] as const)
    for (const language of ['en', 'ar'] as const)
      it(`every wallet screen is accessible: ${layout}, ${language}`, async () => {
        const { page: p, errors } = await liveCustomer(
          layout,
          `custody.axe.${layout}.${language}@example.com`,
          language,
        );
        const custody = new CustodyPage(p);
        const check = (label: string) => expectAccessible(p, `${layout} ${language} ${label}`);
        if (language === 'ar') expect(await custody.dir()).toBe('rtl');

        await custody.goto();
        await custody.none.waitFor();
        await check('overview, no wallet');
        const words = await custody.generate();
        await check('create: the words');
        await custody.written();
        await check('create: the check');
        // Wrong words: each field flagged with its message, the alert naming them, in the language.
        await custody.answer(['zzzz', 'zzzz', 'zzzz']);
        await expect.poll(() => custody.verifyForm.locator('input[aria-invalid="true"]').count()).toBe(3);
        await custody.verifyForm.getByRole('alert').waitFor();
        await check('create: the check, words wrong');
        await screenshotTo(p, `custody-verify-wrong-${layout}-${language}`);
        await custody.passCheck(words);
        await check('create: the passphrase');
        await custody.goto('/restore');
        await custody.restoreForm.waitFor();
        await check('restore');
        await custody.restore(words.join(' '), PASSPHRASE);
        await custody.chainUnavailable.waitFor();
        await check('overview');
        await screenshotTo(p, `custody-overview-restored-${layout}-${language}`);
        await p.locator('main button.danger').click();
        await custody.forgetDialog.locator('button.primary').waitFor();
        await check('forget dialog');
        await p.keyboard.press('Escape');
        await custody.goto('/reveal');
        await custody.unlockForm.waitFor();
        await check('reveal: passphrase');
        await custody.unlock(PASSPHRASE);
        await custody.revealed.waitFor();
        await check('reveal: keys');
        await custody.goto('/verify');
        await custody.backupState.waitFor();
        await check('verify: done');
        await custody.goto('/withdrawal');
        await custody.unlockForm.waitFor();
        await check('add to withdrawal addresses');
        await custody.unlock(PASSPHRASE);
        await custody.added.waitFor();
        await check('added');
        expect(errors).toEqual([]);
      });
});
