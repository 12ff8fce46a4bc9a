import { BackOffice } from './back-office.ts';

/** The KYC queue and one verification's review: photos, enlarge, approve or reject. */
export class KycReviewPage extends BackOffice {
  readonly thumbnails = this.page.locator('.photos .thumb img');
  readonly status = this.page.getByTestId('kyc-status');

  async openQueue(): Promise<void> {
    await this.openScreen('KYC reviews');
    await this.heading('KYC reviews').waitFor();
  }

  async review(userName: string): Promise<void> {
    await this.page.getByRole('link', { name: `Review ${userName}` }).click();
    await this.heading(/^Verification \d+$/).waitFor();
  }

  /** Opens a photo large and closes it again. */
  async enlarge(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Enlarge ${name}` }).click();
    await this.page.getByRole('dialog', { name }).getByRole('button', { name: 'Close' }).click();
  }

  async approve(): Promise<void> {
    await this.page.getByRole('button', { name: 'Approve' }).click();
  }
}
