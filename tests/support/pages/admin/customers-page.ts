import { BackOffice } from './back-office.ts';

/** The customers screen and one customer's page: balances, record, sessions, KYC, lock. */
export class CustomersPage extends BackOffice {
  readonly status = this.page.getByTestId('customer-status');

  /** Searches by username, email or id and opens the customer named `userName`. */
  async find(query: string, userName: string): Promise<void> {
    await this.page.getByLabel('Username, email or id').fill(query);
    await this.page.getByRole('button', { name: 'Search' }).click();
    await this.page.getByRole('link', { name: `View ${userName}` }).click();
    await this.heading(/^Customer \d+$/).waitFor();
  }

  async gotoCustomer(id: number): Promise<void> {
    await this.page.goto(`/admin/customers/${id}`);
  }

  async lock(reason: string): Promise<void> {
    await this.page.getByLabel('Reason').fill(reason);
    await this.page.getByRole('button', { name: 'Lock customer' }).click();
  }

  /** Sorts a table by a column's header button, by keyboard (Enter `times` times). */
  async sortByKeyboard(testId: string, column: string, times: number): Promise<void> {
    await this.page
      .getByTestId(testId)
      .getByRole('button', { name: `Sort by ${column}` })
      .focus();
    for (let i = 0; i < times; i++) await this.page.keyboard.press('Enter');
  }

  columnSort(testId: string, column: string): Promise<string | null> {
    return this.page
      .getByTestId(testId)
      .getByRole('columnheader', { name: new RegExp(column) })
      .getAttribute('aria-sort');
  }
}
