import { PageModel } from './page-model.ts';

/** /profile/password: a new password, with the current one. */
export class PasswordPage extends PageModel {
  async goto(): Promise<void> {
    await this.page.goto('/profile/password');
  }

  async change(current: string, next: string): Promise<void> {
    await this.page.getByLabel('Current password').fill(current);
    await this.page.getByLabel('New password').fill(next);
    await this.page.getByLabel('Repeat password').fill(next);
    await this.page.getByRole('button', { name: 'Change password' }).click();
  }

  /** Submits again with another current password (the new one stays typed). */
  async retry(current: string): Promise<void> {
    await this.page.getByLabel('Current password').fill(current);
    await this.page.getByRole('button', { name: 'Change password' }).click();
  }
}
