import { PageModel } from './page-model.ts';

/** /profile, "My account": who is logged in, the credit score, the way to settings and out. */
export class ProfilePage extends PageModel {
  readonly creditScore = this.page.getByTestId('credit-score');

  async goto(): Promise<void> {
    await this.page.goto('/profile');
  }

  /** The account's name as the page shows it, once it shows `name`. */
  async waitForAccount(name: string): Promise<void> {
    await this.page.locator('.account-name').filter({ hasText: name }).waitFor();
  }

  async logOut(): Promise<void> {
    await this.page.getByRole('button', { name: 'Log out' }).click();
  }

  async openSettings(): Promise<void> {
    await this.page.getByRole('link', { name: 'Settings' }).click();
  }
}
