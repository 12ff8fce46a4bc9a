import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.ts';
import { figure, figureValue } from './figures.ts';
import { PageModel } from './page-model.ts';

/** The order ticket of an instrument page: direction, size, stops, the live figures, and the review. */
export class OrderTicket extends PageModel {
  readonly root = this.page.locator('.ticket');
  readonly stopLoss = this.page.getByLabel('Stop loss price');
  readonly takeProfit = this.page.getByLabel('Take profit price');
  readonly lots = this.page.getByLabel('Lots', { exact: true });
  readonly leverage = this.page.getByLabel('Leverage');
  readonly autoClose = this.page.getByLabel('Auto-close');
  /** The trailing stop's distance (optional). */
  readonly trailingDistance = this.page.getByLabel('Trailing stop distance (optional)');
  readonly reviewButton = this.page.getByRole('button', { name: 'Review order' });
  /** The time of the quote the figures are priced at. */
  readonly quoteTime = this.page.locator('.ticket-figures time');

  /** The ticket as a form, named for its instrument ('Order ticket for BTCUSDT'). */
  form(code: string): Locator {
    return this.page.getByRole('form', { name: `Order ticket for ${code}` });
  }

  /** A stated term of the instrument (feeRate, maxLeverage, stopOut, lotSize): its shown value. */
  term(key: string): Locator {
    return this.page.locator(`[data-term="${key}"] dd`);
  }

  /** Waits until the figures are priced for exactly what is typed; answers them. */
  async liveFigures(timeout?: number): Promise<Locator> {
    const figures = this.page.locator('.ticket-figures .figures.live');
    await figures.waitFor(timeout ? { timeout } : {});
    return figures;
  }

  figure(figures: Locator, key: string): Locator {
    return figure(figures, key);
  }

  value(figures: Locator, key: string): Promise<string | null> {
    return figureValue(figures, key);
  }

  async sellShort(): Promise<void> {
    await this.direction('Sell short').click();
  }

  async buyLong(): Promise<void> {
    await this.direction('Buy long').click();
  }

  direction(name: 'Buy long' | 'Sell short'): Locator {
    return this.page.getByRole('button', { name: new RegExp(name) });
  }

  async moreLots(): Promise<void> {
    await this.page.getByRole('button', { name: 'More lots' }).click();
  }

  /** Waits for live figures and no warning, then opens the confirm step. */
  async review(options: { timeout?: number } = {}): Promise<ConfirmDialog> {
    await this.liveFigures(options.timeout);
    await expect.poll(() => this.page.getByRole('alert').count(), { timeout: 30_000 }).toBe(0);
    await this.reviewButton.click();
    const dialog = new ConfirmDialog(this.page);
    await dialog.root.waitFor({ timeout: options.timeout ?? 60_000 });
    return dialog;
  }
}
