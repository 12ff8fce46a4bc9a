import { ReviewPage } from './review-page.ts';

/**
 * The KYC queue (the review-queue screen) and one verification's review: photos, enlarge, claim,
 * then approve or reject (a decision needs the reviewer's live claim).
 */
export class KycReviewPage extends ReviewPage {
  readonly thumbnails = this.page.locator('.photos .thumb img');
  readonly status = this.page.getByTestId('kyc-status');

  async openQueue(): Promise<void> {
    await this.openScreen('KYC reviews');
    await this.heading('KYC reviews').waitFor();
  }

  /** The queue by its address (a deep link), without the navigation. */
  async gotoQueue(): Promise<void> {
    await this.page.goto('/admin/kyc');
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
}
