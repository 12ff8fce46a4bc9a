import type { Locator } from 'playwright-core';
import type { Photo } from './verification-page.ts';
import { WalletPage } from './wallet-page.ts';

export type Proof = { amount: string; txHash: string; lastSix: string; image?: Photo };

/** /profile/deposit: network, my address with its QR code, the network's terms, deposits on their way, the proof form. */
export class DepositPage extends WalletPage {
  readonly address = this.page.getByTestId('deposit-address');
  readonly qr = this.page.getByTestId('deposit-qr');
  readonly terms = this.page.getByTestId('deposit-terms');
  readonly pending = this.page.getByTestId('pending-deposits');
  readonly proofForm = this.page.getByTestId('proof-form');

  async goto(): Promise<void> {
    await this.page.goto('/profile/deposit');
  }

  /** One fact of the network's terms: 'minimum', 'credit', 'unlock' or 'proof'. */
  term(name: string): Locator {
    return this.terms.locator(`[data-fact="${name}"] dd`);
  }

  async copyAddress(): Promise<void> {
    await this.page.getByRole('button', { name: 'Copy address' }).click();
  }

  /** A deposit on its way, by its state ('confirming', 'credited', 'pending_review'). */
  deposit(state: string): Locator {
    return this.pending.locator(`li[data-state="${state}"]`);
  }

  /** Fills the proof form (the image uploaded at once when given) and sends it. */
  async declare(proof: Proof): Promise<void> {
    const form = this.proofForm;
    await form.getByLabel(/^Amount/).fill(proof.amount);
    await form.getByLabel('Transaction hash').fill(proof.txHash);
    await form.getByLabel('Last 6 characters of the sending address').fill(proof.lastSix);
    if (proof.image) {
      await form.getByLabel('Payment proof (image)').setInputFiles(proof.image);
      await form.getByText('Uploaded and checked.').waitFor();
    }
    await form.getByRole('button', { name: 'Send for review' }).click();
  }

  /** The error under one field of the proof form, by its label. */
  fieldError(label: string | RegExp): Locator {
    return this.proofForm
      .locator('.field')
      .filter({ has: this.page.getByLabel(label) })
      .locator('.field-error');
  }
}
