import type { Locator } from 'playwright-core';
import { explained } from '../browser.ts';
import { figure, figureValue } from './figures.ts';
import { PageModel } from './page-model.ts';

/** /profile/orders: open positions (live figures, stops, close) and the history, as table rows. */
export class OrdersPage extends PageModel {
  async goto(): Promise<void> {
    await this.page.goto('/profile/orders');
  }

  /** How far the orders table is wider than its scroll frame, in px (0 or less: it fits). */
  tableOverflow(): Promise<number> {
    return this.page.locator('.orders-scroll').evaluate((frame) => frame.scrollWidth - frame.clientWidth);
  }

  row(orderId: number): Locator {
    return this.page.locator(`tr[data-order="${orderId}"]`);
  }

  async showHistory(): Promise<void> {
    await this.page.getByRole('tab', { name: 'History' }).click();
  }

  /** Opens the stops dialog of a row; answers the dialog. */
  async editStops(row: Locator): Promise<Locator> {
    await explained(
      this.page,
      () => row.getByRole('button', { name: /Edit SL\/TP/ }).click(),
      async () => `the row: ${(await row.count()) > 0 ? await row.innerText() : '(no such row)'}`,
    );
    return this.page.getByTestId('edit-dialog');
  }

  /** Closes a position now from its row or card, through the close dialog. */
  async closeNow(item: Locator): Promise<void> {
    await item.getByRole('button', { name: /Close/ }).click();
    await this.page
      .getByTestId('close-dialog')
      .filter({ visible: true })
      .getByRole('button', { name: 'Close now' })
      .click();
  }
}

/** /profile/orders/:id: the order's figures as they were confirmed, and how it closed. */
export class OrderDetailPage extends PageModel {
  readonly root = this.page.locator('.order-detail');
  readonly notFound = this.page.getByTestId('order-not-found');

  async goto(orderId: number): Promise<void> {
    await this.page.goto(`/profile/orders/${orderId}`);
  }

  /** The order's id, from the address bar. */
  orderId(): number {
    return Number(this.pathname().split('/').pop());
  }

  figure(key: string): Locator {
    return figure(this.root, key);
  }

  value(key: string): Promise<string | null> {
    return figureValue(this.root, key);
  }
}
