import type { Locator } from 'playwright-core';
import { BackOffice } from './back-office.ts';
import { ReviewPage } from './review-page.ts';

/** What the create form asks, by the English labels. */
export type NewProduct = {
  name: string;
  type?: 'Fund' | 'VIP';
  asset?: 'USDT' | 'USDC' | 'BTC' | 'ETH';
  income?: 'Static' | 'Dynamic';
  /** Lock days; omitted: flexible. */
  termDays?: string;
  annualRate?: string;
  basket?: string;
  min: string;
  max: string;
  capacity: string;
  penalty?: string;
};

/** Earn products (/admin/earn/products), the create form and a product's page with its reserve. */
export class EarnProductsPage extends BackOffice {
  readonly table = this.page.getByTestId('earn-products');
  readonly reserve = this.page.getByTestId('earn-reserve');
  readonly fundForm = this.page.getByRole('form', { name: 'Fund the reserve' });

  async goto(): Promise<void> {
    await this.page.goto('/admin/earn/products');
    await this.heading('Earn products', 2).waitFor();
  }

  row(name: string): Locator {
    return this.table.locator('tbody tr').filter({ hasText: name });
  }

  /** Creates a product through the form and waits for its page. */
  async create(p: NewProduct): Promise<void> {
    await this.page.getByRole('link', { name: 'New product' }).click();
    const form = this.page.getByRole('form', { name: 'New earn product' });
    await form.waitFor();
    if (p.type) await form.getByLabel('Type', { exact: true }).selectOption({ label: p.type });
    await form.getByLabel('Name', { exact: true }).fill(p.name);
    if (p.asset) await form.getByLabel('Asset', { exact: true }).selectOption(p.asset);
    if (p.income) await form.getByLabel('Income', { exact: true }).selectOption({ label: p.income });
    if (p.termDays === undefined) await form.getByLabel(/^Flexible/).check();
    else await form.getByLabel('Lock days').fill(p.termDays);
    if (p.annualRate !== undefined) await form.getByLabel('Annual rate (%)').fill(p.annualRate);
    if (p.basket !== undefined) await form.getByLabel('Basket (instrument codes)').fill(p.basket);
    if (p.penalty !== undefined) await form.getByLabel('Early-exit penalty (% of principal)').fill(p.penalty);
    await form.getByLabel(/^Minimum per investment/).fill(p.min);
    await form.getByLabel(/^Maximum per investment/).fill(p.max);
    await form.getByLabel(/^Capacity/).fill(p.capacity);
    await form.getByRole('button', { name: 'Create product' }).click();
    await this.heading(new RegExp(`^${p.name} \\(product \\d+\\)$`), 2).waitFor();
  }

  /** A book's row of the reserve table on a product's page ('Demo' or 'Live'). */
  reserveRow(book: 'Demo' | 'Live'): Locator {
    return this.reserve.locator('tbody tr').filter({ hasText: book });
  }

  /** Types a funding (without sending it): the coverage preview follows the amount. */
  async typeFunding(book: 'Demo' | 'Live', amount: string, reason: string): Promise<void> {
    await this.fundForm.getByLabel('Book').selectOption({ label: book });
    await this.fundForm.getByLabel(/^Amount/).fill(amount);
    await this.fundForm.getByLabel(/^Reason/).fill(reason);
  }

  /** The reserve free after the typed amount, as the coverage preview shows it. */
  freeAfter(): Locator {
    return this.fundForm.getByTestId('free-after');
  }

  async fund(): Promise<void> {
    await this.fundForm.getByRole('button', { name: 'Fund reserve' }).click();
    await this.page
      .getByText(/ added to the Live book's reserve\.| added to the Demo book's reserve\./)
      .waitFor();
  }
}

/** The fund payment proof queue (/admin/earn/proofs) and one proof's review page. */
export class EarnProofReviewPage extends ReviewPage {
  readonly proof = this.page.locator('.photos .thumb img');
  readonly facts = this.page.getByTestId('earn-proof-facts');

  async gotoQueue(): Promise<void> {
    await this.page.goto('/admin/earn/proofs');
    await this.heading('Fund payment proofs', 2).waitFor();
  }

  /** Opens the review of a customer's proof from the queue. */
  async review(customer: string): Promise<void> {
    await this.page.getByRole('link', { name: new RegExp(`^Review ${customer} `) }).click();
    await this.heading(/^Fund payment \d+$/).waitFor();
  }
}
