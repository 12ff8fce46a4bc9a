import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** /profile/balance: a row per asset of the current book, the total, the book switch and the demo reset. */
export class BalancePage extends PageModel {
  readonly total = this.page.getByTestId('total-value');

  async goto(): Promise<void> {
    await this.page.goto('/profile/balance');
  }

  asset(code: string): Locator {
    return this.page.locator(`tr[data-asset="${code}"]`);
  }

  /** Switches book with the page's buttons and waits for the page to say so. */
  async useLive(): Promise<void> {
    await this.page.getByRole('button', { name: 'Live account' }).click();
  }

  async useDemo(): Promise<void> {
    await this.page.getByRole('button', { name: 'Demo account' }).click();
  }

  /** Asks for a demo reset and confirms it (the buttons' names in the page's language). */
  async resetDemo(labels: { reset: string; confirm: string }): Promise<void> {
    await this.page.getByRole('button', { name: labels.reset }).click();
    await this.page
      .locator('dialog.modal[open]')
      .getByRole('button', { name: labels.confirm, exact: true })
      .click();
  }
}
