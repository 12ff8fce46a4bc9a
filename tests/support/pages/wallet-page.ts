import { PageModel } from './page-model.ts';

/** What every wallet screen shares: the demo book's notice (with the book switch) and the network picker. */
export class WalletPage extends PageModel {
  /** The demo book's statement that deposits and withdrawals are in the live account. */
  readonly demoNotice = this.page.getByTestId('wallet-demo');
  readonly network = this.page.getByLabel('Network', { exact: true });

  /** Switches to the live book with the switch the demo notice offers (in any language). */
  async useLive(): Promise<void> {
    await this.demoNotice.locator('button[data-book="live"]').click();
    await this.demoNotice.waitFor({ state: 'detached' });
  }

  async chooseNetwork(id: string): Promise<void> {
    await this.network.first().selectOption(id);
  }

  /** What the shell's one polite live region says now (an outcome: copied, sent, added). */
  announced(): Promise<string> {
    return this.page.getByTestId('announcer').innerText();
  }
}
