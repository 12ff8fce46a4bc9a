import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** /pass/login: by username or email, or by phone; the second step of two-step verification. */
export class LoginPage extends PageModel {
  readonly userName = this.page.getByLabel('Username or email');
  readonly password = this.page.getByLabel('Password');
  readonly areaCode = this.page.getByLabel('Area code');
  readonly phoneNumber = this.page.getByLabel('Phone number');
  readonly submit = this.page.getByRole('button', { name: 'Log in' });
  readonly alert = this.page.getByRole('alert');
  /** The note that a session expired, shown after a 401 sent the customer here. */
  readonly expiredNotice = this.page.getByTestId('session-expired');
  /** The second step: the authenticator code, or a recovery code. */
  readonly authenticationCode = this.page.getByLabel('Authentication code');
  readonly recoveryCode = this.page.getByLabel('Recovery code');

  /** Opens the page; `returnTo` is the page to go back to after logging in. */
  async goto(returnTo?: string): Promise<void> {
    await this.page.goto(
      returnTo === undefined ? '/pass/login' : `/pass/login?return=${encodeURIComponent(returnTo)}`,
    );
  }

  async logIn(userName: string, password: string): Promise<void> {
    await this.userName.fill(userName);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** Types another password and submits again (the name stays). */
  async retry(password: string): Promise<void> {
    await this.password.fill(password);
    await this.submit.click();
  }

  /** Switches the form to phone accounts. */
  async usePhone(): Promise<void> {
    await this.page.getByRole('radio', { name: 'Phone' }).check();
    await this.areaCode.waitFor();
  }

  async logInByPhone(areaCode: string, number: string, password: string): Promise<void> {
    await this.areaCode.selectOption(areaCode);
    await this.phoneNumber.fill(number);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** Waits for an alert with this text (e.g. 'Wrong password.'). */
  async waitForAlert(text: string): Promise<void> {
    await this.alert.filter({ hasText: text }).waitFor();
  }

  /** The second step's heading, once the password was right and two-step verification is on. */
  async waitForSecondStep(): Promise<void> {
    await this.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
  }

  async useRecoveryCode(): Promise<void> {
    await this.page.getByRole('button', { name: 'Use a recovery code' }).click();
    await this.recoveryCode.waitFor();
  }

  async useAppCode(): Promise<void> {
    await this.page.getByRole('button', { name: 'Use a code from the app' }).click();
  }

  async verify(code: string): Promise<void> {
    await this.authenticationCode.fill(code);
    await this.page.getByRole('button', { name: 'Verify' }).click();
  }

  /** A social sign-in button ('Continue with Google'). */
  socialButton(name: string): Locator {
    return this.page.getByRole('button', { name });
  }
}
