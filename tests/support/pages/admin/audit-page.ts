import type { Locator } from 'playwright-core';
import { BackOffice } from './back-office.ts';

/** The audit log: filters kept in the URL, the rows, and the chain check. */
export class AuditPage extends BackOffice {
  readonly verdict = this.page.getByTestId('chain-verdict');

  field(name: 'Actor' | 'Action' | 'Subject'): Locator {
    return this.page.getByLabel(name, { exact: true });
  }

  async filter(values: Partial<Record<'Actor' | 'Action' | 'Subject', string>>): Promise<void> {
    for (const [name, value] of Object.entries(values))
      await this.field(name as 'Actor' | 'Action' | 'Subject').fill(value);
    await this.page.getByRole('button', { name: 'Apply filters' }).click();
  }

  async clear(): Promise<void> {
    await this.page.getByRole('button', { name: 'Clear' }).click();
  }

  async checkChain(): Promise<void> {
    await this.page.getByRole('button', { name: 'Check the chain' }).click();
  }
}
