import { SWAP_HOLD_SECONDS, SWAP_QUOTE_SECONDS, swapAsset } from '@swx/contract';
import { z } from 'zod/mini';
import { bigintText, type QuoteProduct } from '../products/quotes.ts';

/**
 * The figures of a swap quote: everything the commit posts and records, computed once by
 * `swapFigures` at the quote's second and carried, signed, in the quote id. The preview shows
 * them and the commit posts them; neither recomputes a price.
 */
export const swapQuoteFigures = z.object({
  from: swapAsset,
  to: swapAsset,
  amount: bigintText,
  gross: bigintText,
  spread: bigintText,
  fee: bigintText,
  receive: bigintText,
  price: z.string(),
  rate: z.string(),
  feePpm: bigintText,
  /** The market second the prices were taken at. */
  quoteTime: z.int(),
});
export type SwapQuoteFigures = z.output<typeof swapQuoteFigures>;

/**
 * A swap: quotes are valid SWAP_QUOTE_SECONDS after their second; a held one SWAP_HOLD_SECONDS,
 * rechecked against the market after SWAP_QUOTE_SECONDS (`swap.commit.ts`).
 */
export const SWAP: QuoteProduct<typeof swapQuoteFigures> = {
  name: 'swap.v1',
  validSeconds: SWAP_QUOTE_SECONDS,
  holdSeconds: SWAP_HOLD_SECONDS,
  figures: swapQuoteFigures,
};
