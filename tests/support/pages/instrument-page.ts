import type { Locator } from 'playwright-core';
import { OrderTicket } from './order-ticket.ts';
import { PageModel } from './page-model.ts';

/** What the instrument page shows of its quote, read in one go (one rendered frame). */
export type QuoteReading = {
  headline: string | null;
  pageBid: string | null;
  pageAsk: string | null;
  pageBidText: string | null;
  pageAskText: string | null;
  ticketBid: string | null;
  ticketAsk: string | null;
  ticketBidText: string | null;
  ticketAskText: string | null;
};

/** /instrument (the spec's /cruuency, an alias): an instrument's live price, quote, chart and terms, and its order ticket. */
export class InstrumentPage extends PageModel {
  readonly ticket = new OrderTicket(this.page);
  readonly chart = this.page.locator('.candle-chart');
  /** Where the chart goes, at its size, before it is drawn. */
  readonly chartSlot = this.page.locator('.chart-slot');
  readonly livePrice = this.page.locator('[data-testid="live-price"]');
  readonly closedMark = this.page.getByTestId('closed-mark');

  /** Opens an instrument by its code, market type and id (or a path such as `App.btcPage()`). */
  async goto(instrument: string | { code: string; type: number; id: number }): Promise<void> {
    await this.page.goto(
      typeof instrument === 'string'
        ? instrument
        : `/instrument?code=${instrument.code}&type=${instrument.type}&id=${instrument.id}`,
    );
  }

  /** The day's change as the page shows it. */
  change(): Locator {
    return this.page.locator('.currency-price .change');
  }

  timeframe(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  readQuote(): Promise<QuoteReading> {
    return this.page.evaluate(() => {
      const value = (selector: string) =>
        document.querySelector(selector)?.getAttribute('data-value') ?? null;
      const text = (selector: string) => document.querySelector(selector)?.textContent ?? null;
      return {
        headline: document.querySelector('[data-testid="live-price"]')?.getAttribute('data-price') ?? null,
        pageBid: value('[data-quote="bid"]'),
        pageAsk: value('[data-quote="ask"]'),
        pageBidText: text('[data-quote="bid"] dd'),
        pageAskText: text('[data-quote="ask"] dd'),
        ticketBid: value('.ticket-figures [data-figure="bid"]'),
        ticketAsk: value('.ticket-figures [data-figure="ask"]'),
        ticketBidText: text('.ticket-figures [data-figure="bid"] dd'),
        ticketAskText: text('.ticket-figures [data-figure="ask"] dd'),
      };
    });
  }
}
