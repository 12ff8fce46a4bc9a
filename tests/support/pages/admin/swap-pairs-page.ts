import type { Locator } from 'playwright-core';
import { BackOffice } from './back-office.ts';

/** The swap pairs screen (/admin/swap/pairs): every pair's limits, fee rate and switch; admins edit one. */
export class SwapPairsPage extends BackOffice {
  readonly table = this.page.getByTestId('swap-pairs');

  async goto(): Promise<void> {
    await this.page.goto('/admin/swap/pairs');
    await this.heading('Swap pairs', 2).waitFor();
  }

  /** A pair's row: its first cell the asset paid, its second the asset received. */
  row(from: string, to: string): Locator {
    return this.table.locator(
      `tbody tr:has(td:nth-child(1):text-is("${from}")):has(td:nth-child(2):text-is("${to}"))`,
    );
  }

  /** Opens a pair's form, sets the fields given (by label) and saves. */
  async edit(from: string, to: string, fields: Record<string, string>): Promise<void> {
    const name = `Edit ${from} → ${to}`;
    await this.page.getByRole('button', { name }).click();
    const form = this.page.getByRole('form', { name });
    for (const [label, value] of Object.entries(fields))
      await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole('button', { name: 'Save' }).click();
    await this.page.getByText(`Pair ${from} → ${to} saved.`).waitFor();
  }
}
