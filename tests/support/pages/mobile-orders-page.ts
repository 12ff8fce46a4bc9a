import type { Locator } from 'playwright-core';
import { OrdersPage } from './orders-page.ts';

/** /profile/orders on a phone: one card per position instead of table rows. */
export class MobileOrdersPage extends OrdersPage {
  readonly cards = this.page.locator('li.order-card');

  /** The history's card of a position closed for `reason` (manual, take_profit, …). */
  closedCard(reason: string): Locator {
    return this.page.locator(`li.order-card[data-reason="${reason}"]`);
  }
}
