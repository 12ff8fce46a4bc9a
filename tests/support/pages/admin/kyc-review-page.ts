import { BackOffice } from './back-office.ts';

/**
 * The KYC queue (the review-queue screen) and one verification's review: photos, enlarge, claim,
 * then approve or reject (a decision needs the reviewer's live claim).
 */
export class KycReviewPage extends BackOffice {
  readonly thumbnails = this.page.locator('.photos .thumb img');
  readonly status = this.page.getByTestId('kyc-status');
  /** Who holds the item's claim, and until when. */
  readonly reviewStatus = this.page.getByTestId('review-status');
  readonly approveButton = this.page.getByRole('button', { name: 'Approve' });

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

  /** Claims the item (the review queue's lease) and waits until the page shows the claim. */
  async claim(): Promise<void> {
    await this.page.getByRole('button', { name: 'Claim', exact: true }).click();
    await this.page.getByText(/^Claimed until /).waitFor();
  }

  /** Approves the claimed item. */
  async approve(): Promise<void> {
    await this.approveButton.click();
  }
}
