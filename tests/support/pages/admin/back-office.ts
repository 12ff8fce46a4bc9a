import type { Locator } from 'playwright-core';
import { PageModel } from '../page-model.ts';

/** The back office signed in: its navigation, and the data tables every screen shows. */
export class BackOffice extends PageModel {
  /** Waits for the line naming who is signed in ('Signed in as … (Compliance)'). */
  async waitForStaff(email: string, role: string): Promise<void> {
    await this.page.getByText(`Signed in as ${email} (${role})`).waitFor();
  }

  /** Goes to a screen by its navigation link ('Customers', 'KYC reviews', 'Staff', 'Audit log'). */
  async openScreen(name: string): Promise<void> {
    // On a phone the sections fold behind the Menu button: it is opened first.
    const menu = this.page.locator('.admin-nav .menu-toggle');
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
    await this.page.getByRole('link', { name }).click();
  }

  heading(name: string | RegExp, level?: number): Locator {
    return this.page.getByRole('heading', level ? { name, level } : { name });
  }

  /**
   * The rows of a data table as text, one string per row. A table is drawn only once its rows have
   * arrived (before that the screen says it is loading), so this waits for the first row.
   */
  async rows(testId: string): Promise<string[]> {
    const rows = this.page.getByTestId(testId).locator('tbody tr');
    await rows.first().waitFor();
    return rows.allInnerTexts();
  }

  async chooseLanguage(language: string): Promise<void> {
    await this.page.getByLabel('Language').selectOption(language);
  }

  async signOut(): Promise<void> {
    await this.page.getByRole('button', { name: 'Sign out' }).click();
  }
}
