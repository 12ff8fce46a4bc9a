import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** /profile/invite: the rules, my code and link (copy, QR, share), the rebate, my friends and rewards. */
export class InvitePage extends PageModel {
  readonly rules = this.page.getByTestId('invite-rules');
  readonly code = this.page.getByTestId('invite-code');
  readonly link = this.page.getByTestId('invite-link');
  readonly qr = this.page.getByTestId('invite-qr');
  readonly friends = this.page.getByTestId('invite-friends');
  readonly rewards = this.page.getByTestId('invite-rewards');
  readonly totals = this.page.getByTestId('invite-totals');

  async goto(): Promise<void> {
    await this.page.goto('/profile/invite');
  }

  async copyLink(): Promise<void> {
    await this.page.getByRole('button', { name: 'Copy invite link' }).click();
  }

  /** How many friends are in a state ('registered', 'verified', 'qualified'), as the page says it. */
  count(state: string): Locator {
    return this.page.locator(`[data-testid="invite-counts"] [data-fact="${state}"] dd`);
  }

  /** A friend's row, by the masked name shown. */
  friend(maskedName: string): Locator {
    return this.friends.locator('tbody tr').filter({ hasText: maskedName });
  }

  /** Chooses what goes back to friends (its radio's name, e.g. "5% to your friend, 15% to you") and saves it. */
  async chooseRebate(name: string): Promise<void> {
    await this.page.getByRole('radio', { name }).check();
    await this.page.getByRole('button', { name: 'Save choice' }).click();
  }

  /** What the shell's polite live region says now. */
  announced(): Promise<string> {
    return this.page.getByTestId('announcer').innerText();
  }
}
