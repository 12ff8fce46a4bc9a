import { PageModel } from './page-model.ts';

/** /pass/reset: a new password with a code mailed (or sent by SMS) to the account. */
export class ResetPage extends PageModel {
  readonly email = this.page.getByLabel('Email of your account');
  readonly code = this.page.getByLabel('Verification code');
  readonly newPassword = this.page.getByLabel('New password');
  readonly repeatPassword = this.page.getByLabel('Repeat password');
  readonly submit = this.page.getByRole('button', { name: 'Set new password' });

  async goto(): Promise<void> {
    await this.page.goto('/pass/reset');
  }

  async usePhone(): Promise<void> {
    await this.page.getByRole('radio', { name: 'Phone' }).check();
    await this.page.getByLabel('Area code').waitFor();
  }

  async sendCodeTo(email: string): Promise<void> {
    await this.email.fill(email);
    await this.page.getByRole('button', { name: 'Send code' }).click();
    await this.page.getByRole('status').filter({ hasText: email }).waitFor();
  }

  async setPassword(code: string, password: string): Promise<void> {
    await this.code.fill(code);
    await this.newPassword.fill(password);
    await this.repeatPassword.fill(password);
    await this.submit.click();
  }
}
