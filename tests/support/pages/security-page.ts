import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** /profile/security: two-step verification (setup, recovery codes) and the signed-in devices. */
export class SecurityPage extends PageModel {
  readonly sessions = this.page.locator('.session-list');
  readonly secret = this.page.getByTestId('totp-secret');
  readonly qr = this.page.getByTestId('totp-qr');
  readonly recoveryCodes = this.page.getByTestId('recovery-codes');

  async goto(): Promise<void> {
    await this.page.goto('/profile/security');
  }

  /** Starts the setup (the button named in the page's language); answers the key shown, without spaces. */
  async startTwoStep(label = 'Set up two-step verification'): Promise<string> {
    await this.page.getByRole('button', { name: label }).click();
    await this.secret.waitFor();
    return (await this.secret.innerText()).replace(/\s+/g, '');
  }

  /** The otpauth link of the key being set up. */
  authenticatorLink(): Locator {
    return this.page.getByRole('link', { name: 'Open in authenticator app' });
  }

  async turnOn(code: string): Promise<void> {
    await this.page.getByLabel('6-digit code').fill(code);
    await this.page.getByRole('button', { name: 'Turn on', exact: true }).click();
  }

  async savedRecoveryCodes(): Promise<void> {
    await this.page.getByRole('button', { name: 'I have saved them' }).click();
  }

  /** The session of this browser. */
  current(): Locator {
    return this.page.locator('.session[data-current="true"]');
  }

  async signOut(device: string): Promise<void> {
    await this.page.getByRole('button', { name: `Sign out ${device}` }).click();
  }
}
