import { BackOffice } from './back-office.ts';

/** The four-eyes thresholds screen (/admin/settings/four-eyes): thresholds, waiting changes, decisions. */
export class FourEyesPage extends BackOffice {
  readonly pending = this.page.getByTestId('four-eyes-pending');
  readonly thresholds = this.page.getByTestId('four-eyes-thresholds');
  readonly recent = this.page.getByTestId('four-eyes-recent');

  async goto(): Promise<void> {
    await this.page.goto('/admin/settings/four-eyes');
    await this.heading('Four-eyes thresholds', 2).waitFor();
  }

  /** The row of one threshold, e.g. ('Withdrawals', 'USDT'): its first two cells. */
  row(kind: string, asset: string) {
    const cell = (text: string) => this.page.locator('td', { hasText: new RegExp(`^${text}$`) });
    return this.thresholds
      .locator('tbody tr')
      .filter({ has: cell(kind) })
      .filter({ has: cell(asset) });
  }

  /** Proposes a new threshold (or none with `null`) for a kind and asset. */
  async propose(kind: string, asset: string, value: string | null): Promise<void> {
    const name = `Threshold of ${kind} in ${asset}`;
    await this.page.getByRole('button', { name: `Propose a change: ${name}` }).click();
    const form = this.page.getByRole('form', { name });
    if (value === null)
      await form.getByLabel('No threshold: one approval suffices, whatever the amount').check();
    else await form.getByLabel(`New threshold (${asset})`).fill(value);
    await form.getByRole('button', { name: 'Propose' }).click();
    await this.page.getByText('Proposed; it applies once another admin approves it.').waitFor();
  }
}
