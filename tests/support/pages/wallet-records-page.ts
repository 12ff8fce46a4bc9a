import type { Locator } from 'playwright-core';
import { WalletPage } from './wallet-page.ts';

/** /profile/deposits and /profile/withdrawals: the records, with state, figures and transaction hash. */
export class WalletRecordsPage extends WalletPage {
  readonly deposits = this.page.getByTestId('deposit-record');
  readonly withdrawals = this.page.getByTestId('withdrawal-record');

  async gotoDeposits(): Promise<void> {
    await this.page.goto('/profile/deposits');
  }

  async gotoWithdrawals(): Promise<void> {
    await this.page.goto('/profile/withdrawals');
  }

  /** The rows of the withdrawal record (newest first). */
  withdrawalRows(): Locator {
    return this.withdrawals.locator(':scope > li');
  }

  depositRows(): Locator {
    return this.deposits.locator(':scope > li');
  }

  /** One fact of a record's card ('network', 'confirmations', 'fee', …). */
  fact(row: Locator, name: string): Locator {
    return row.locator(`[data-fact="${name}"] dd`);
  }
}
