import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** The figures of a quote or redemption list (`[data-figure]` rows): each row's exact value and its text. */
async function figuresOf(list: Locator): Promise<Record<string, { value: string; text: string }>> {
  return list.evaluate((root) => {
    const rows: Record<string, { value: string; text: string }> = {};
    for (const row of root.querySelectorAll<HTMLElement>('[data-figure]'))
      rows[row.dataset.figure ?? ''] = { value: row.dataset.value ?? '', text: row.innerText };
    return rows;
  });
}

/** /financial/cryptoInvest and /financial/vipInvest: products as cards. */
export class EarnListPage extends PageModel {
  readonly cards = this.page.locator('.earn-card');

  card(name: string): Locator {
    return this.cards.filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  /** Opens a product's page from its card. */
  async open(name: string): Promise<void> {
    await this.card(name).locator('a.button').click();
  }
}

/** A product's page (/financial/cryptoInvestDetail?id=N, /financial/vipInvestDetail/N) and its purchase. */
export class EarnProductPage extends PageModel {
  readonly purchase = this.page.getByTestId('earn-purchase');
  readonly amount = this.purchase.locator('input[name="amount"]');
  readonly quote = this.page.getByTestId('quote-figures');
  readonly redemption = this.page.getByTestId('redemption-table');
  readonly confirm = this.page.getByTestId('earn-confirm');
  readonly confirmFigures = this.page.getByTestId('confirm-figures');

  readonly payInAddress = this.page.getByTestId('pay-in-address');
  /** What the product can still take now, its state when it cannot be bought, and its rate in words. */
  readonly investable = this.page.locator('.earn-product [data-testid="investable"]');
  readonly soldOut = this.page.locator('.earn-product [data-testid="sold-out"]');
  readonly rateLabel = this.page.locator('.earn-product [data-testid="rate-label"]');
  readonly explain = this.page.getByTestId('earn-explain');

  /** Chooses to pay by a transfer: the proof image (uploaded at once) and the transaction hash. */
  async payByProof(image: Buffer, txHash: string): Promise<void> {
    await this.purchase.locator('input[name="payWith"][value="proof"]').check();
    const proof = this.page.getByTestId('earn-proof');
    await proof
      .locator('input[type="file"]')
      .setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: image });
    await proof.getByText('Uploaded and checked.').waitFor();
    await proof.locator('input[name="txHash"]').fill(txHash);
  }

  /** Types an amount and waits for its quote. */
  async enter(amount: string): Promise<void> {
    await this.amount.fill(amount);
    await this.quote.locator('[data-figure="amount"]').waitFor();
  }

  quoteFigures(): Promise<Record<string, { value: string; text: string }>> {
    return figuresOf(this.quote);
  }

  /** Opens the confirm step; answers its figures (and what it says it takes from the balance). */
  async review(): Promise<Record<string, { value: string; text: string }>> {
    await this.page.getByTestId('earn-review').click();
    await this.confirmFigures.waitFor();
    return figuresOf(this.confirm);
  }

  async confirmPurchase(): Promise<void> {
    await this.confirm.locator('.button.primary').click();
  }
}

/** My investments (/financial/myInvest/:type): the summary, the cards, the detail and the redemption. */
export class MyInvestPage extends PageModel {
  readonly summary = this.page.getByTestId('earn-summary');
  readonly cards = this.page.locator('.earn-investment');
  readonly redeemDialog = this.page.getByTestId('redeem-confirm');
  readonly detail = this.page.getByTestId('investment-detail');

  card(id: number): Locator {
    return this.page.locator(`.earn-investment[data-investment="${id}"]`);
  }

  /** The status of an investment, in words. */
  status(id: number): Locator {
    return this.card(id).getByTestId('earn-status');
  }

  /** Why an investment earns nothing now (its product's reserve is short), with what is owed. */
  paused(id: number): Locator {
    return this.card(id).getByTestId('earn-paused');
  }

  /** Asks to redeem early; answers the dialog's figures. */
  async askRedeem(id: number): Promise<Record<string, { value: string; text: string }>> {
    await this.card(id).getByTestId('redeem').click();
    await this.redeemDialog.waitFor();
    return figuresOf(this.redeemDialog);
  }

  async confirmRedeem(): Promise<void> {
    await this.redeemDialog.locator('.button.primary').click();
  }

  async openDetail(id: number): Promise<void> {
    await this.card(id).getByRole('button', { name: 'Details' }).click();
    await this.detail.waitFor();
  }
}
