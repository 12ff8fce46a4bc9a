import type { Locator } from 'playwright-core';
import { WalletPage } from './wallet-page.ts';

/** /profile/addresses: my withdrawal addresses with their lock timers; add and remove. */
export class AddressesPage extends WalletPage {
  readonly book = this.page.getByTestId('address-book');
  readonly form = this.page.getByTestId('add-address');
  /** Said under the network picker when the platform cannot send on the network chosen. */
  readonly closedNote = this.page.getByTestId('network-closed');

  async goto(): Promise<void> {
    await this.page.goto('/profile/addresses');
  }

  /** Adds an address of a network, with its label. */
  async add(network: string, address: string, label: string): Promise<void> {
    await this.form.getByLabel('Network', { exact: true }).selectOption(network);
    await this.form.getByLabel('Address', { exact: true }).fill(address);
    await this.form.getByLabel('Label (optional)').fill(label);
    await this.form.getByRole('button', { name: 'Add address' }).click();
  }

  /** The row of one address (the server keeps addresses in lower case: EVM and bech32 alike). */
  row(address: string): Locator {
    return this.book.locator(`li[data-address="${address.toLowerCase()}"]`);
  }

  /** The lock timer of one address ("Usable in 23 hr, 59 min" / "Usable now"). */
  lock(address: string): Locator {
    return this.row(address).getByTestId('lock-state');
  }

  /** The error under the address field of the add form. */
  addressError(): Locator {
    return this.form
      .locator('.field')
      .filter({ has: this.page.getByLabel('Address', { exact: true }) })
      .locator('.field-error');
  }

  async remove(address: string, label: string): Promise<void> {
    await this.row(address)
      .getByRole('button', { name: `Remove ${label}` })
      .click();
    await this.page.getByTestId('remove-dialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await this.row(address).waitFor({ state: 'detached' });
  }
}
