import type { Locator } from 'playwright-core';
import { BackOffice } from './back-office.ts';

/** What the smart-plan product form asks, by the English labels (the fee in percent). */
export type NewSmartProduct = {
  name: string;
  /** The strategy's English name, e.g. 'Moving-average trend'. */
  strategy?: string;
  instrument?: string;
  /** The timeframes in days as typed, e.g. "7, 30". */
  timeframes: string;
  min: string;
  max: string;
  capacity: string;
  /** % of a positive result. */
  feeShare: string;
};

/** Smart-plan products (/admin/smart/products), the create form and a product's page. */
export class SmartProductsPage extends BackOffice {
  readonly table = this.page.getByTestId('smart-products');
  readonly status = this.page.getByTestId('smart-status');
  readonly figures = this.page.getByTestId('smart-product-figures');
  readonly risk = this.page.getByTestId('smart-risk');
  /** The terms as facts (staff who may not change them). */
  readonly terms = this.page.getByTestId('smart-terms');

  async goto(): Promise<void> {
    await this.page.goto('/admin/smart/products');
    await this.heading('Smart-plan products', 2).waitFor();
  }

  row(name: string): Locator {
    return this.table.locator('tbody tr').filter({ hasText: name });
  }

  /** The create form (/admin/smart/products/new). */
  newForm(): Locator {
    return this.page.getByRole('form', { name: 'New smart-plan product' });
  }

  /** Fills a product form by its labels (without sending it). */
  async fill(form: Locator, p: Partial<NewSmartProduct>): Promise<void> {
    if (p.name !== undefined) await form.getByLabel('Name', { exact: true }).fill(p.name);
    if (p.strategy) await form.getByLabel('Strategy', { exact: true }).selectOption({ label: p.strategy });
    if (p.instrument) await form.getByLabel('Instrument', { exact: true }).selectOption(p.instrument);
    if (p.timeframes !== undefined) await form.getByLabel('Timeframes (days)').fill(p.timeframes);
    if (p.min !== undefined) await form.getByLabel(/^Minimum per plan/).fill(p.min);
    if (p.max !== undefined) await form.getByLabel(/^Maximum per plan/).fill(p.max);
    if (p.capacity !== undefined) await form.getByLabel(/^Capacity \(all plans together\)/).fill(p.capacity);
    if (p.feeShare !== undefined)
      await form.getByLabel('Platform fee (% of a positive result)').fill(p.feeShare);
  }

  /** Creates a product through the form and waits for its page. */
  async create(p: NewSmartProduct): Promise<void> {
    await this.page.getByRole('link', { name: 'New product' }).click();
    const form = this.newForm();
    await form.waitFor();
    await this.fill(form, p);
    await form.getByRole('button', { name: 'Create product' }).click();
    await this.heading(new RegExp(`^${p.name} \\(smart product \\d+\\)$`), 2).waitFor();
  }

  /** The edit form of a product's page (admins). */
  editForm(name: string): Locator {
    return this.page.getByRole('form', { name: `Terms of ${name}` });
  }
}

/** The smart-plan monitor (/admin/smart/plans), its filters, and a plan's page. */
export class SmartPlansPage extends BackOffice {
  readonly table = this.page.getByTestId('smart-plans');
  readonly filters = this.page.getByRole('form', { name: 'Filters' });
  readonly facts = this.page.getByTestId('smart-plan-facts');
  readonly results = this.page.getByTestId('smart-plan-results');
  readonly planTerms = this.page.getByTestId('smart-plan-terms');
  readonly state = this.page.getByTestId('smart-plan-state');

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/admin/smart/plans${query}`);
    await this.heading('Smart-plan monitor', 2).waitFor();
  }

  /** A plan's row by its customer (or any text of the row). */
  row(text: string): Locator {
    return this.table.locator('tbody tr').filter({ hasText: text });
  }

  async filterState(label: string): Promise<void> {
    await this.filters.getByLabel('State').selectOption({ label });
  }

  async filterProduct(label: string): Promise<void> {
    await this.filters.getByLabel('Product').selectOption({ label });
  }

  /** Opens a plan's page from its row. */
  async open(id: number): Promise<void> {
    await this.table.getByRole('link', { name: `Plan ${id}`, exact: true }).click();
    await this.heading(`Smart plan ${id}`, 2).waitFor();
  }
}
