import { z } from 'zod/mini';
import { wireId } from './ids.ts';
import { decimalString } from './ledger.ts';
import { quoteFields, quoteId } from './quotes.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { amountInput } from './wallet.ts';

/**
 * Currency swap (spec §2 `/swap`, §3 Swap, §5 insufficient balance refused, §7
 * `finance/item/instantExchangeItem` and `finance/item/instantExchange`; DESIGN §2 rule 3).
 *
 * A swap is quote then commit. The quote is priced from the market: each asset's price in USDT is
 * its `<ASSET>USDT` instrument (USDT is 1). Selling the `from` asset gets its bid, buying the `to`
 * asset costs its ask, so the applied price (units of `to` per unit of `from`) is
 * bid(from) / ask(to); the mid-market rate is mid(from) / mid(to). Stated separately:
 *
 *   gross   = floor(amount × price)            what the applied price gives, in `to` minor units
 *   spread  = floor(amount × rate) − gross      what the spread costs, against the mid-market rate
 *   fee     = ceil(gross × feeRate)             the platform's fee, to `fees`
 *   receive = gross − fee                       what the customer gets
 *
 * Committing names the quote and posts exactly its figures as one ledger entry (kind `swap`):
 * wallet −amount and house +amount in `from`; house −gross, wallet +receive, fees +fee in `to`.
 * A quote lasts SWAP_QUOTE_SECONDS; a held one SWAP_HOLD_SECONDS, rechecked against the market
 * after its first SWAP_QUOTE_SECONDS. Refusals: 10032 expired (quote again), 10011 insufficient
 * balance, 10015 market unavailable (a closed or stale instrument, or a pair switched off),
 * 10038 / 10039 below the pair's minimum / above its maximum, 10028 another customer's quote.
 */

export const SWAP_ASSETS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
export type SwapAsset = (typeof SWAP_ASSETS)[number];
export const swapAsset = z.enum(SWAP_ASSETS);

/** Seconds a swap quote can be accepted after it is given (a held quote: at its figures, come what may). */
export const SWAP_QUOTE_SECONDS = 10;

/**
 * Seconds a held swap quote (`hold: true`, the confirm step's: time to read it) can be accepted:
 * firm for SWAP_QUOTE_SECONDS, then only while the market still gives at least what it says is
 * received (10032 `{reason: 'moved'}` otherwise).
 */
export const SWAP_HOLD_SECONDS = 120;

/** A ratio with at most 6 decimals ("0.001" is 0.1 %). */
export const swapRate = z.string().check(z.regex(/^\d{1,4}(\.\d{1,6})?$/));

/** One pair the customer can swap, with its limits (in the `from` asset) and fee rate. */
export const swapPair = z.object({
  from: swapAsset,
  to: swapAsset,
  /** Smallest amount of `from` accepted (10038 below it). */
  min: decimalString,
  /** Largest amount of `from` accepted (10039 above it). */
  max: decimalString,
  /** The fee as a ratio of the gross amount received ("0.001" is 0.1 %). */
  feeRate: swapRate,
  /** The mid-market rate now (units of `to` per unit of `from`); null when the market is unavailable. */
  rate: z.nullable(decimalString),
  /** Whether a quote can be given now: the pair is on and both prices are fresh. */
  available: z.boolean(),
});
export type SwapPair = z.infer<typeof swapPair>;

export const swapQuoteBody = z.object({
  from: swapAsset,
  to: swapAsset,
  /** The amount of `from` to pay, as a decimal string. */
  amount: amountInput,
  /** A held quote (SWAP_HOLD_SECONDS), for reading at leisure before confirming. */
  hold: z.optional(z.boolean()),
});
export type SwapQuoteBody = z.infer<typeof swapQuoteBody>;

/** A swap quote: every figure the swap posts, stated before the customer accepts it. */
export const swapQuote = z.object({
  ...quoteFields,
  from: swapAsset,
  to: swapAsset,
  /** Paid, in `from`. */
  amount: decimalString,
  /** Mid-market rate: units of `to` per unit of `from`. */
  rate: decimalString,
  /** Applied price after the spread: units of `to` per unit of `from`. */
  price: decimalString,
  /** What the spread costs against the mid-market rate, in `to`. */
  spread: decimalString,
  /** amount × price, in `to`. */
  gross: decimalString,
  feeRate: swapRate,
  /** ceil(gross × feeRate), in `to`. */
  fee: decimalString,
  /** gross − fee, in `to`: what the customer receives. */
  receive: decimalString,
  /** The market second the prices were taken at (epoch seconds). */
  quoteTime: z.int(),
});
export type SwapQuote = z.infer<typeof swapQuote>;

const requestId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/));

/** Accept a quote: its figures are posted exactly, once per request id. */
export const swapBody = z.object({ quoteId, requestId });
export type SwapBody = z.infer<typeof swapBody>;

/** A swap done: the figures posted and the ledger entry that posted them. */
export const swapRecord = z.object({
  id: z.int(),
  from: swapAsset,
  to: swapAsset,
  amount: decimalString,
  rate: decimalString,
  price: decimalString,
  spread: decimalString,
  gross: decimalString,
  feeRate: swapRate,
  fee: decimalString,
  receive: decimalString,
  entryId: z.int(),
  createdAt: z.string(),
});
export type SwapRecord = z.infer<typeof swapRecord>;

export const swapHistoryQuery = z.object({
  /** Keyset: swaps with an id below this one (newest first). */
  before: z.optional(wireId()),
});

/** Back office: a pair's settings (admin changes them; audited). */
export const swapPairAdmin = /* @__PURE__ */ z.object({
  from: swapAsset,
  to: swapAsset,
  min: decimalString,
  max: decimalString,
  feeRate: swapRate,
  enabled: z.boolean(),
  updatedAt: z.string(),
  updatedBy: z.nullable(z.string()),
});
export type SwapPairAdmin = z.infer<typeof swapPairAdmin>;

export const swapPairUpdateBody = /* @__PURE__ */ z.object({
  from: swapAsset,
  to: swapAsset,
  min: amountInput,
  max: amountInput,
  feeRate: swapRate,
  enabled: z.boolean(),
});

export const swapAdminCalls = {
  listSwapPairs: {
    method: 'GET',
    path: '/swap/pairs',
    summary: 'Every swap pair with its limits, fee rate and switch',
    roles: STAFF_DUTIES.money.roles,
    data: z.array(swapPairAdmin),
  },
  updateSwapPair: {
    method: 'POST',
    path: '/swap/pairs/update',
    summary: "Change a pair's limits, fee rate or switch (applies to new quotes); audited",
    roles: STAFF_DUTIES.customerTerms.roles,
    body: swapPairUpdateBody,
    data: swapPairAdmin,
  },
} as const satisfies Record<string, AdminCallDefinition>;
