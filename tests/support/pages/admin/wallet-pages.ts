import type { Locator } from 'playwright-core';
import { BackOffice } from './back-office.ts';
import { ReviewPage } from './review-page.ts';

/** The deposit proof queue (/admin/deposits) and one proof's review page. */
export class DepositReviewPage extends ReviewPage {
  readonly proof = this.page.locator('.photos .thumb img');

  async gotoQueue(): Promise<void> {
    await this.page.goto('/admin/deposits');
    await this.heading('Deposit proofs', 2).waitFor();
  }

  /** Opens the review of a customer's proof from the queue. */
  async review(customer: string): Promise<void> {
    await this.page.getByRole('link', { name: new RegExp(`^Review ${customer} `) }).click();
    await this.heading(/^Deposit \d+$/).waitFor();
  }
}

/** The withdrawal queue (/admin/withdrawals) and one withdrawal's review page (with its four-eyes state). */
export class WithdrawalReviewPage extends ReviewPage {
  async gotoQueue(): Promise<void> {
    await this.page.goto('/admin/withdrawals');
    await this.heading('Withdrawals', 2).waitFor();
  }

  async review(customer: string): Promise<void> {
    await this.page.getByRole('link', { name: new RegExp(`^Review ${customer} `) }).click();
    await this.heading(/^Withdrawal \d+$/).waitFor();
  }
}

/** The networks screen (/admin/networks): the table and one network's form. */
export class NetworksPage extends BackOffice {
  readonly table = this.page.getByTestId('networks-table');

  async goto(): Promise<void> {
    await this.page.goto('/admin/networks');
    await this.heading('Networks', 2).waitFor();
  }

  row(id: string): Locator {
    return this.table.locator('tbody tr').filter({ hasText: id });
  }

  /** Opens a network's form, sets the fields given (by label) and saves. */
  async edit(id: string, fields: Record<string, string>): Promise<void> {
    await this.page.getByRole('button', { name: `Edit ${id}` }).click();
    const form = this.page.getByRole('form', { name: `Edit ${id}` });
    for (const [label, value] of Object.entries(fields))
      await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole('button', { name: 'Save' }).click();
    await this.page.getByText(`Network ${id} saved.`).waitFor();
  }
}

/** The treasury screen (/admin/treasury): hot wallet beside liabilities and outgoing per asset. */
export class TreasuryPage extends BackOffice {
  readonly table = this.page.getByTestId('treasury-table');

  async goto(): Promise<void> {
    await this.page.goto('/admin/treasury');
    await this.heading('Treasury', 2).waitFor();
  }

  row(asset: string): Locator {
    return this.table.locator('tbody tr').filter({ hasText: asset });
  }

  /** One cell of an asset's row, by its column's header ("Customer balances (live)", …). */
  cell(asset: string, header: string): Locator {
    return this.row(asset).locator(`td[data-label="${header}"]`);
  }
}
