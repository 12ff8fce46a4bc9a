import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** An NFT's page (/nfts/:id): the spec's facts, the rules, the bid history, and bid or buy with its confirm step. */
export class NftPage extends PageModel {
  readonly facts: Locator = this.page.getByTestId('nft-facts');
  readonly rules: Locator = this.page.getByTestId('nft-rules');
  readonly bids: Locator = this.page.getByTestId('nft-bids');
  readonly confirm: Locator = this.page.locator('dialog[data-testid="nft-confirm"][open]');
  readonly countdown: Locator = this.page.getByTestId('nft-facts').getByTestId('nft-countdown');

  async goto(id: number | string): Promise<void> {
    await this.page.goto(`/nfts/${id}`);
    const shown = this.facts.or(this.page.locator('main .page-state.error'));
    await shown.first().waitFor();
    if (!(await this.facts.isVisible()))
      throw new Error(`the NFT page failed: ${await this.page.locator('main').innerText()}`);
  }

  /** A fact's exact value (`data-value`): contract, token, donation. */
  fact(name: string): Promise<string | null> {
    return this.facts.locator(`[data-fact="${name}"]`).getAttribute('data-value');
  }

  /** Types a bid and asks for its quote. */
  async askBid(amount: string): Promise<void> {
    await this.page.getByTestId('nft-bid-amount').fill(amount);
    await this.page.getByRole('button', { name: 'Review bid' }).click();
  }

  /** Types a bid, asks for its quote and waits for the confirm step. */
  async reviewBid(amount: string): Promise<void> {
    await this.askBid(amount);
    await this.confirm.waitFor();
  }

  /** The quote's figure by name (`amount`, `charity`, `fee`, `endsAt`). */
  figure(name: string): Promise<string | null> {
    return this.confirm.locator(`[data-figure="${name}"]`).getAttribute('data-value');
  }

  /**
   * Confirms the quote shown and waits for the dialog to close. A quote that ran out meanwhile (it
   * lasts 30 s; checks and screenshots on a busy machine take longer) is renewed first, as a person
   * would, with the dialog's "Get a new quote".
   */
  async confirmShown(): Promise<void> {
    const renew = this.confirm.getByRole('button', { name: 'Get a new quote' });
    if (await renew.isVisible()) {
      await renew.click();
      await this.confirm.getByTestId('quote-left').filter({ hasText: 'is valid for' }).waitFor();
    }
    try {
      await this.confirm.getByRole('button', { name: /^(Bid|Pay) / }).click();
      await this.confirm.waitFor({ state: 'detached' });
    } catch (error) {
      // Say what the dialog says when it stays (a refusal, a quote that ran out).
      const text = await this.confirm.innerText().catch(() => '(no dialog)');
      throw new Error(`the confirm dialog stayed: ${text}`, { cause: error });
    }
  }

  /** The history's row of the reader's own bid, by its state. */
  mineIn(state: string): Locator {
    return this.bids.locator(`li[data-mine][data-state="${state}"]`);
  }
}

/** My NFTs (/nfts/mine): what the customer owns, the send to an address, and their open bids. */
export class MyNftsPage extends PageModel {
  readonly owned: Locator = this.page.getByTestId('nft-mine');
  readonly sendDialog: Locator = this.page.locator('dialog[data-testid="nft-send"][open]');
  readonly sendConfirm: Locator = this.page.locator('dialog[data-testid="nft-send-confirm"][open]');

  async goto(): Promise<void> {
    await this.page.goto('/nfts/mine');
    await this.page.locator('main h1').waitFor();
  }

  holding(dropId: number | string): Locator {
    return this.owned
      .locator('li.nft-holding')
      .filter({ has: this.page.locator(`a[href="/nfts/${dropId}"]`) });
  }

  /**
   * Sends a held NFT to the address chosen, confirming with the code `code()` gives once it is
   * mailed; `review` sees the confirm step filled in, before the send.
   */
  async send(
    dropId: number | string,
    address: string,
    code: () => Promise<string>,
    review?: () => Promise<void>,
  ): Promise<void> {
    await this.holding(dropId).getByTestId('nft-send-open').click();
    await this.sendDialog.waitFor();
    await this.sendDialog.locator(`label[data-address="${address}"] input`).check();
    await this.sendDialog.getByRole('button', { name: 'Review the transfer' }).click();
    await this.sendConfirm.waitFor();
    await this.sendConfirm.getByRole('button', { name: 'Mail me a code' }).click();
    // The code is asked for once the page says it was mailed (not an older code of the inbox).
    await this.sendConfirm.getByText('A code was mailed to you.').waitFor();
    await this.sendConfirm.getByTestId('nft-send-code').fill(await code());
    await review?.();
    await this.sendConfirm.getByRole('button', { name: 'Send the NFT' }).click();
    try {
      await this.sendConfirm.waitFor({ state: 'detached' });
    } catch (error) {
      // Say what the dialog says when it stays open (a refusal, a chain that did not answer).
      const text = await this.sendConfirm.innerText().catch(() => '');
      throw new Error(`the send dialog stayed open: ${text}`, { cause: error });
    }
  }
}

/** The donation log (/nfts/log): signed heads, the buyer's inclusion check and the consistency check. */
export class DonationLogPage extends PageModel {
  readonly heads: Locator = this.page.getByTestId('nft-heads');
  readonly inclusion: Locator = this.page.getByTestId('nft-inclusion');
  readonly consistency: Locator = this.page.getByTestId('nft-consistency');

  async goto(dropId?: number | string): Promise<void> {
    await this.page.goto(dropId ? `/nfts/log?drop=${dropId}` : '/nfts/log');
    await this.heads.waitFor();
  }

  /** The drop of each leaf listed (empty for a payout), in the order shown. */
  async leafDrops(): Promise<string[]> {
    const rows = this.page.getByTestId('nft-leaves').locator('tr[data-leaf]');
    await rows.first().waitFor();
    return rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-drop') ?? ''));
  }

  /** Filters the leaves by a drop with the page's own form (by its position: the words are the reader's). */
  async filterByDrop(dropId: number | string): Promise<void> {
    const form = this.page.getByTestId('nft-leaves-filter');
    await form.locator('input').fill(String(dropId));
    await form.locator('button[type="submit"]').click();
    await this.page.waitForURL(`**/nfts/log?drop=${dropId}`);
  }

  /** Checks the donation chosen in this page and answers the verdict's words and whether it held. */
  async checkMine(): Promise<{ ok: string | null; text: string }> {
    await this.inclusion.getByRole('button', { name: 'Check in this page' }).click();
    const verdict = this.inclusion.getByTestId('nft-verdict');
    await verdict.waitFor();
    return { ok: await verdict.getAttribute('data-ok'), text: await verdict.innerText() };
  }
}

/** The back office's NFT drops: the new-drop form and the list a draft is minted from. */
export class NftDropsAdminPage extends PageModel {
  readonly form: Locator = this.page.getByTestId('nft-create');
  readonly list: Locator = this.page.getByTestId('nft-drops');

  async gotoNew(): Promise<void> {
    await this.page.goto('/admin/nft/new');
    await this.form.waitFor();
  }

  /** Fills the drop form (an auction), uploads the artwork, and makes the drop. */
  async create(drop: {
    name: string;
    creator: string;
    charity: string;
    artwork: { name: string; mimeType: string; buffer: Buffer };
    startPrice: string;
    durationMinutes: string;
  }): Promise<void> {
    const f = this.form;
    await f.getByLabel('Name', { exact: true }).fill(drop.name);
    await f.getByLabel('Creator', { exact: true }).fill(drop.creator);
    await f.getByTestId('nft-artwork').setInputFiles(drop.artwork);
    await f.getByText('Artwork stored.').waitFor();
    await f.getByLabel('Charity', { exact: true }).selectOption({ label: drop.charity });
    await f.getByLabel('Start price').fill(drop.startPrice);
    await f.getByLabel('Duration (minutes)').fill(drop.durationMinutes);
    await f.getByRole('button', { name: 'Make the drop' }).click();
    const refused = this.page.locator('main').getByRole('alert');
    await this.list.or(refused).first().waitFor();
    if (await refused.isVisible()) throw new Error(`the drop was refused: ${await refused.innerText()}`);
  }

  /** Mints the draft named and waits for the line that says so. */
  async mint(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Mint ${name}` }).click();
    await this.page.getByText(new RegExp(`${name} minted as token`)).waitFor();
  }
}
