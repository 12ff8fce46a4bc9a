import type { Locator } from 'playwright-core';
import { WalletPage } from './wallet-page.ts';

/** /profile/withdraw: network, an address of my book, amount; the quote's figures and the code. */
export class WithdrawPage extends WalletPage {
  readonly form = this.page.getByTestId('withdraw-form');
  readonly confirm = this.page.getByTestId('withdraw-confirm');
  readonly figures = this.page.getByTestId('withdraw-figures');
  /** The fee rule and what would be received, shown before any address is chosen. */
  readonly preview = this.page.getByTestId('withdraw-preview');
  /** The networks the platform cannot send on, each with its reason. */
  readonly closed = this.page.getByTestId('withdraw-closed');
  readonly amount = this.form.getByLabel(/^Amount/);

  async goto(): Promise<void> {
    await this.page.goto('/profile/withdraw');
  }

  /** The radio of an address of the book (disabled while it is locked). */
  addressChoice(address: string): Locator {
    return this.form.locator(`label[data-address="${address.toLowerCase()}"] input[type="radio"]`);
  }

  /** The lock timer shown beside an address. */
  lock(address: string): Locator {
    return this.form.locator(`label[data-address="${address.toLowerCase()}"]`).getByTestId('lock-state');
  }

  /** One fact of the preview ('feeRule', 'fee', 'receive'): its text and its exact value. */
  async previewFact(name: string): Promise<{ text: string; value: string | null }> {
    const row = this.preview.locator(`[data-fact="${name}"]`);
    return { text: await row.locator('dd').innerText(), value: await row.getAttribute('data-value') };
  }

  /** The reason a network cannot be withdrawn from, by its id. */
  closedReason(network: string): Locator {
    return this.closed.locator(`li[data-network="${network}"]`);
  }

  /** The error of the address choice, spoken as it shows (role=alert). */
  addressError(): Locator {
    return this.form.locator('fieldset').getByRole('alert');
  }

  /** The error described by the amount field (its aria-describedby), if any. */
  async amountError(): Promise<string> {
    const ids = (await this.amount.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(
      ids
        .split(' ')
        .filter(Boolean)
        .map((id) => this.page.locator(`[id="${id}"].field-error`).allInnerTexts()),
    );
    return texts.flat().join(' ');
  }

  /** Chooses the address and amount, and asks for the figures ("Review"). */
  async review(address: string, amount: string): Promise<void> {
    await this.addressChoice(address).check();
    await this.form.getByLabel(/^Amount/).fill(amount);
    await this.form.getByRole('button', { name: 'Review' }).click();
    await this.figures.waitFor();
  }

  /** One figure of the quote ('amount', 'fee', 'receive', 'arrival'): its text and its exact value. */
  async figure(name: string): Promise<{ text: string; value: string | null }> {
    const row = this.figures.locator(`[data-fact="${name}"]`);
    return { text: await row.locator('dd').innerText(), value: await row.getAttribute('data-value') };
  }

  /** Asks for a mailed code and waits until the dialog says it was sent. */
  async sendCode(): Promise<void> {
    await this.confirm.getByTestId('send-code').click();
    await this.confirm.getByText('A code was sent to your email.').first().waitFor();
  }

  /** The dialog's refusal, if any (role=alert). */
  failure(): Promise<string> {
    return this.confirm
      .getByRole('alert')
      .allInnerTexts()
      .then((t) => t.join(' '));
  }

  /** Types the code and confirms the withdrawal. */
  async confirmWith(code: string): Promise<void> {
    await this.confirm.getByLabel(/^Code/).fill(code);
    await this.confirm.getByRole('button', { name: 'Confirm withdrawal' }).click();
  }
}
