import { explained } from '../../browser.ts';
import { BackOffice } from './back-office.ts';

/** An item's page of the staff review queue (any kind): its claim, then approve or reject. */
export class ReviewPage extends BackOffice {
  /** Who holds the item's claim, and until when. */
  readonly reviewStatus = this.page.getByTestId('review-status');
  readonly approveButton = this.page.getByRole('button', { name: 'Approve' });

  /** Claims the item (the review queue's lease) and waits until the page shows the claim. */
  async claim(): Promise<void> {
    await this.page.getByRole('button', { name: 'Claim', exact: true }).click();
    await explained(this.page, () => this.page.getByText(/^Claimed until /).waitFor());
  }

  /** Approves the claimed item. */
  async approve(): Promise<void> {
    await this.approveButton.click();
  }
}
