import type { Locator } from 'playwright-core';
import { PageModel } from '../page-model.ts';

/** /admin/ signed out: staff sign-in, with the authenticator enrolment the first time. */
export class AdminSignInPage extends PageModel {
  readonly heading = this.page.getByRole('heading', { name: 'Staff sign-in' });
  readonly secret = this.page.getByTestId('staff-totp-secret');

  async goto(path = '/admin/'): Promise<void> {
    await this.page.goto(path);
    await this.heading.waitFor();
  }

  /** Email and the one-time password; waits for the enrolment screen. */
  async startEnrolment(email: string, oneTimePassword: string): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(oneTimePassword);
    await this.page.getByRole('button', { name: 'Continue' }).click();
    await this.page.getByRole('heading', { name: 'Set up your authenticator' }).waitFor();
  }

  /** The authenticator key the enrolment shows, without spaces. */
  async enrolmentSecret(): Promise<string> {
    return (await this.secret.innerText()).replace(/\s+/g, '');
  }

  authenticatorLink(): Locator {
    return this.page.getByRole('link', { name: 'Open in authenticator app' });
  }

  /** Chooses the new password, confirms the authenticator with a code and signs in. */
  async finishEnrolment(newPassword: string, code: string): Promise<void> {
    await this.page.getByLabel('New password').fill(newPassword);
    await this.page.getByLabel('6-digit code').fill(code);
    await this.page.getByRole('button', { name: 'Turn on and sign in' }).click();
  }

  /** A later sign-in: password, then the authenticator's code (`code` is asked for when needed). */
  async signIn(email: string, password: string, code: () => string): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Continue' }).click();
    await this.page.getByRole('heading', { name: 'Authenticator code' }).waitFor();
    await this.page.getByLabel('6-digit code').fill(code());
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
}
