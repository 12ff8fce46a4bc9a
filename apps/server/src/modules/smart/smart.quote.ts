import { z } from 'zod/mini';
import { bigintText, type QuoteProduct } from '../products/quotes.ts';

/**
 * The figures of a smart-plan quote: what the commit moves (the amount) and the terms the plan
 * keeps (timeframe, fee share, the minute it starts), computed once at the quote's second and
 * signed into its id.
 */
export const smartQuoteFigures = z.object({
  productId: z.int(),
  amount: bigintText,
  timeframeDays: z.int(),
  feeSharePpm: bigintText,
  quoteTime: z.int(),
  /**
   * The plan's first minute: the one after the quote's. A commit comes within the quote's minute
   * of validity, so before that minute ends: the plan's first trade, at its end, is always after
   * the commit, and the plan starts and ends when the confirm step said.
   */
  startTick: z.int(),
});
export type SmartQuoteFigures = z.output<typeof smartQuoteFigures>;

/** A plan's quote is valid for a minute: the customer reads the terms and the backtest before joining. */
export const SMART_QUOTE_SECONDS = 60;

export const SMART: QuoteProduct<typeof smartQuoteFigures> = {
  name: 'smart.v2',
  validSeconds: SMART_QUOTE_SECONDS,
  figures: smartQuoteFigures,
};
