import type { Locator, Page } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** /pass/reset: a new password with a code mailed (or sent by SMS) to the account. */
export class ResetPage extends PageModel {
  readonly email: Locator;
  readonly code: Locator;
  readonly newPassword: Locator;
  readonly repeatPassword: Locator;
  readonly submit: Locator;

  constructor(page: Page) {
    super(page);
    this.email = page.getByLabel('Email of your account');
    this.code = page.getByLabel('Verification code');
    this.newPassword = page.getByLabel('New password');
    this.repeatPassword = page.getByLabel('Repeat password');
    this.submit = page.getByRole('button', { name: 'Set new password' });
  }

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
