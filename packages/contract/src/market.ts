import { z } from 'zod/mini';
import { wireInt } from './ids.ts';

/** Market type codes: 1 forex, 2 crypto, 3 stocks, 5 ETF (spec §3); 6 metals and 7 futures are ours. */
export const MarketType = { FOREX: 1, CRYPTO: 2, STOCKS: 3, ETF: 5, METALS: 6, FUTURES: 7 } as const;
export const MARKET_TYPES = [1, 2, 3, 5, 6, 7] as const;

const PRICE = /^\d+(\.\d+)?$/;
export const priceString = z.string().check(z.regex(PRICE));
/**
 * A mini chart's recent prices: one check over the array rather than a schema per price (a list
 * of hundreds of items carries a hundred prices each, and the browser parses every answer).
 */
const recentPrices = z
  .array(z.string())
  .check(z.refine((prices) => prices.every((price) => PRICE.test(price)), 'Invalid price'));
const instrumentCode = z.string().check(z.regex(/^[A-Z0-9]{2,16}$/));
const marketType = z.number().check(z.refine((v) => (MARKET_TYPES as readonly number[]).includes(v)));

/**
 * A market item on the wire (spec §3): prices are decimal strings, `zdf` the 24 h change as a
 * ratio string. Inside, the server and the app hold a `MarketItem` (below).
 */
export const marketItem = z.object({
  id: z.int(),
  code: z.string(),
  type: z.int(),
  appName: z.string(),
  logo: z.string(),
  price: priceString,
  bid: priceString,
  ask: priceString,
  zdf: z.string(),
  hundred: recentPrices,
  open: z.boolean(),
});
export type WireMarketItem = z.infer<typeof marketItem>;
/**
 * A market item as the server builds it and the app shows it: the 24 h change is `change`. Each
 * maps it to or from the wire in one place (the server's market.wire.ts, the app's market/wire.ts).
 */
export type MarketItem = Omit<WireMarketItem, 'zdf'> & { change: string };

/**
 * `limit` (ours, optional; spec §7 names no parameters of this call): only the list's first items,
 * for a screen that shows a few (the home page); without it the whole list, as the spec has it.
 */
export const listMarketQuery = z.object({
  type: z.pipe(wireInt(0, 1000), marketType),
  limit: z.optional(wireInt(1, 1000)),
});
export const marketIdParams = z.object({
  id: wireInt(1, 1_000_000),
});

export const PERIODS = ['1m', '5m', '15m', '1h', '4h', '1d', '1w'] as const;
export const candleQuery = z.object({
  code: instrumentCode,
  period: z.enum(PERIODS),
  date: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
  limit: z.optional(wireInt(1, 1000)),
});
export const candle = z.object({
  time: z.int(),
  open: priceString,
  high: priceString,
  low: priceString,
  close: priceString,
});
export const candleSeries = z.object({ code: z.string(), period: z.enum(PERIODS), candles: z.array(candle) });

export const watchBody = z.object({ id: z.int().check(z.minimum(1)) });

/** One element of a /message push on the wire (spec §7). */
export const liveQuote = z.object({ code: z.string(), price: priceString, zdf: z.string() });
export type WireLiveQuote = z.infer<typeof liveQuote>;
/** A live quote as the server and the app hold it: the 24 h change is `change`. */
export type LiveQuote = { code: string; price: string; change: string };

/** The most instruments one /message subscription may name (a screen shows far fewer). */
export const MAX_QUOTE_CODES = 200;
/**
 * What a /message client may send: the instruments (codes) and whole classes (market types) it
 * wants. From then on it receives only those, in the same array of {code, price, zdf}; `{}` asks
 * for the whole list again, which is also what a client that never sends anything gets.
 */
export const quoteSubscription = z.object({
  codes: z.optional(z.array(instrumentCode).check(z.maxLength(MAX_QUOTE_CODES))),
  types: z.optional(z.array(marketType).check(z.maxLength(MARKET_TYPES.length))),
});
export type QuoteSubscription = z.infer<typeof quoteSubscription>;

/** Home-page figures, computed from the platform's own data (DESIGN §2 rule 7). */
export const platformStats = z.object({
  registeredUsers: z.int(),
  listedInstruments: z.int(),
  listedCrypto: z.int(),
  /** Live-book traded volume in USDT: the opening notionals of every live position. */
  tradedVolumeUsdt: z.string().check(z.regex(/^\d+(\.\d+)?$/)),
});
export type PlatformStats = z.infer<typeof platformStats>;
