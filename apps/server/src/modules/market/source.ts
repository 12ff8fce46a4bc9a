import type { Config } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  type Candle,
  candles,
  change24h,
  hundred,
  type Instrument,
  isOpen,
  type Period,
  type Quote,
  quoteAt,
} from './feed.ts';
import { BinanceSource } from './source.binance.ts';

export type MarketSourceName = 'simulated' | 'binance';

/**
 * Where the market's prices come from. MarketService (lists, pages, the /message batches) and
 * trading (quotes, fills, the trigger engine) read prices only through this, by second `t`:
 * - the built-in simulator (feed.ts): every price a function of (instrument, t), for the sandbox;
 * - a real exchange (source.binance.ts): prices received from the exchange, per second.
 * A source says when an instrument is not tradable (its market closed, or no fresh price): then
 * `isOpen` is false and `quote` is null, and nothing is priced or filled from an old price.
 */
export interface PriceSource {
  readonly name: MarketSourceName;
  /** The instruments this source prices (a real exchange: the ones it maps to its symbols). */
  prices(instrument: Instrument): boolean;
  /** Whether the instrument is tradable at second t: its market open and a fresh price. */
  isOpen(instrument: Instrument, t: number): boolean;
  /** The quote of second t, the same whenever asked; null when there is no fresh one. */
  quote(instrument: Instrument, t: number): Quote | null;
  /** The latest quote known at t, fresh or not, to show (marked closed); null if never priced. */
  lastQuote(instrument: Instrument, t: number): Quote | null;
  /** The 24-hour change as a ratio (0.0123 for +1.23 %). */
  change24h(instrument: Instrument, t: number): number;
  /** At most 100 points of the last 24 hours, oldest first. */
  hundred(instrument: Instrument, t: number): string[];
  candles(instrument: Instrument, period: Period, end: number, limit: number): Candle[];
  /** Starts receiving prices for these instruments (a real source connects). */
  start(instruments: readonly Instrument[]): void;
  stop(): void;
}

/** The built-in simulator: the sandbox's prices, a pure function of (instrument, time). */
export const simulatedSource: PriceSource = {
  name: 'simulated',
  prices: () => true,
  isOpen: (instrument, t) => isOpen(instrument.class, t),
  quote: (instrument, t) => quoteAt(instrument, t),
  lastQuote: (instrument, t) => quoteAt(instrument, t),
  change24h: (instrument, t) => change24h(instrument, t),
  hundred: (instrument, t) => hundred(instrument, t),
  candles: (instrument, period, end, limit) => candles(instrument, period, end, limit),
  start: () => undefined,
  stop: () => undefined,
};

/** The configured source: MARKET_SOURCE (config.ts refuses the simulator in production). */
export function createPriceSource(config: Config, logger?: Logger): PriceSource {
  if (config.marketSource === 'binance' && config.marketSourceUrl)
    return new BinanceSource({
      url: config.marketSourceUrl,
      staleSeconds: config.marketStaleSeconds,
      logger,
    });
  return simulatedSource;
}
