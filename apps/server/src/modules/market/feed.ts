import { seedOf, walk } from './noise.ts';
import { priceFunction } from './structure.ts';

export { seedOf } from './noise.ts';

/**
 * The built-in simulated price source. A price is a deterministic function of the instrument and
 * the time, so the feed is the same on every server node, continuous across restarts, and any
 * moment of the past year can be priced (for candles) without stored history.
 *
 * Prices keep the structure of real markets (`structure.ts`): shared factors with betas, pegged
 * stablecoins, wrapped tokens and funds on their underlying, currency crosses equal to their legs.
 * Each walk is bounded value noise at periods 4^k s (1 s to about 6 months), weighted as Brownian
 * motion would be and calibrated so a typical one-day move equals the given daily volatility
 * (`noise.ts`). A code outside the modelled catalogue walks alone around its reference at its
 * class's volatility. Markets that are closed (stocks and ETFs outside US sessions and at
 * weekends, forex, metals and futures at weekends) hold their last price until they reopen.
 */
export type MarketClass = 'forex' | 'crypto' | 'stocks' | 'etf' | 'metals' | 'futures';

export type ClassRules = {
  /** Typical one-day move of log price (standard deviation). */
  dailyVolatility: number;
  /** Bid-ask spread as a fraction of the mid price. */
  spread: number;
};

export const CLASS_RULES: Record<MarketClass, ClassRules> = {
  forex: { dailyVolatility: 0.005, spread: 0.00008 },
  crypto: { dailyVolatility: 0.03, spread: 0.0004 },
  stocks: { dailyVolatility: 0.016, spread: 0.0002 },
  etf: { dailyVolatility: 0.01, spread: 0.0001 },
  metals: { dailyVolatility: 0.011, spread: 0.0003 },
  futures: { dailyVolatility: 0.013, spread: 0.0002 },
};

export type Instrument = { id: number; code: string; class: MarketClass; ref: number; decimals: number };

/** Seconds since the epoch at which the market of a class last traded, at or before `t`. */
export function lastOpenTime(cls: MarketClass, t: number): number {
  if (cls === 'crypto') return t;
  if (cls === 'stocks' || cls === 'etf') return lastUsSessionTime(t);
  // Forex, metals and futures: Sunday 22:00 UTC to Friday 22:00 UTC.
  const date = new Date(t * 1000);
  const day = date.getUTCDay();
  const secondsIntoDay = t - Math.floor(t / 86_400) * 86_400;
  const friday22 = (daysBack: number) => (Math.floor(t / 86_400) - daysBack) * 86_400 + 22 * 3600;
  if (day === 6) return friday22(1);
  if (day === 0 && secondsIntoDay < 22 * 3600) return friday22(2);
  if (day === 5 && secondsIntoDay >= 22 * 3600) return friday22(0);
  return t;
}

export function isOpen(cls: MarketClass, t: number): boolean {
  return lastOpenTime(cls, t) === t;
}

/** New York session 09:30–16:00, Monday to Friday (holidays not modelled), daylight saving included. */
function lastUsSessionTime(t: number): number {
  for (let back = 0; back < 8; back++) {
    const dayStart = Math.floor(t / 86_400) * 86_400 - back * 86_400;
    const offset = newYorkOffsetSeconds(dayStart + 12 * 3600);
    const open = dayStart + 9.5 * 3600 - offset;
    const close = dayStart + 16 * 3600 - offset;
    const weekday = new Date((dayStart + 12 * 3600) * 1000).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    if (t >= open && t < close) return t;
    if (t >= close) return close - 1;
  }
  return t;
}

const offsetCache = new Map<number, number>();
const nyFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hour: 'numeric',
  hourCycle: 'h23',
});

/** New York's offset from UTC in seconds (-5 h or -4 h), per day. */
function newYorkOffsetSeconds(t: number): number {
  const day = Math.floor(t / 86_400);
  const cached = offsetCache.get(day);
  if (cached !== undefined) return cached;
  const utcHour = new Date(t * 1000).getUTCHours();
  const nyHour = Number(nyFormat.format(new Date(t * 1000)));
  const offset = -(((utcHour - nyHour + 24) % 24) * 3600);
  if (offsetCache.size > 4000) offsetCache.clear();
  offsetCache.set(day, offset);
  return offset;
}

/** The mid price of an instrument at time t (seconds), holding the last price while closed. */
export function midAt(instrument: Instrument, t: number): number {
  const at = lastOpenTime(instrument.class, t);
  const modelled = priceFunction(instrument.code);
  if (modelled) return modelled(at);
  return (
    instrument.ref *
    Math.exp(CLASS_RULES[instrument.class].dailyVolatility * walk(seedOf(instrument.code), at))
  );
}

export type Quote = { mid: number; bid: number; ask: number };

export function quoteAt(instrument: Instrument, t: number): Quote {
  const mid = midAt(instrument, t);
  const half = (mid * CLASS_RULES[instrument.class].spread) / 2;
  return { mid, bid: mid - half, ask: mid + half };
}

export function formatPrice(instrument: Instrument, value: number): string {
  return value.toFixed(instrument.decimals);
}

/**
 * The 24-hour change as a ratio, e.g. 0.0123 for +1.23 %. While a market is closed, the change of
 * its last day of trading: the last price against the one 24 hours before it (a stock on Saturday
 * shows Friday's close against Thursday's), never a change that only reflects the clock.
 */
export function change24h(instrument: Instrument, t: number): number {
  const at = lastOpenTime(instrument.class, t);
  const before = midAt(instrument, at - 86_400);
  return (midAt(instrument, at) - before) / before;
}

/** At most 100 points of the last 24 hours, oldest first, for the mini chart. */
export function hundred(instrument: Instrument, t: number): string[] {
  const step = 86_400 / 99;
  return Array.from({ length: 100 }, (_, i) =>
    formatPrice(instrument, midAt(instrument, t - 86_400 + i * step)),
  );
}

export const PERIOD_SECONDS = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '4h': 14_400,
  '1d': 86_400,
  '1w': 604_800,
} as const;
export type Period = keyof typeof PERIOD_SECONDS;

export type Candle = { time: number; open: string; high: string; low: string; close: string };

/** Samples per candle: a one-minute candle sees every one-second tick. */
const SAMPLES = 60;

/**
 * Candles of a period ending at or before `end` (seconds), oldest first, `limit` of them. Weekly
 * candles start on Monday 00:00 UTC, others on multiples of their length. A candle's open is the
 * price at its start, its close the price at its last second, its high and low the extremes of 60
 * evenly spaced samples and the close (every tick for one-minute candles). Candles of closed hours are skipped.
 */
export function candles(instrument: Instrument, period: Period, end: number, limit: number): Candle[] {
  const length = PERIOD_SECONDS[period];
  const anchor = period === '1w' ? 4 * 86_400 : 0; // 1970-01-05 was a Monday
  let start = Math.floor((end - anchor) / length) * length + anchor;
  const out: Candle[] = [];
  for (let guard = 0; out.length < limit && guard < limit * 4; guard++, start -= length) {
    if (start > end) continue;
    const last = Math.min(start + length - 1, end);
    if (lastOpenTime(instrument.class, last) < start) continue; // closed the whole time
    const open = midAt(instrument, start);
    let high = open;
    let low = open;
    // Samples on a grid of length/60 seconds (whole seconds for every period), so a candle's
    // samples are the opens of the candles one level down: aggregation stays consistent.
    const step = length / SAMPLES;
    for (let i = 1; i < SAMPLES; i++) {
      const at = start + i * step;
      if (at > last) break;
      const p = midAt(instrument, at);
      if (p > high) high = p;
      if (p < low) low = p;
    }
    const close = midAt(instrument, last);
    out.push({
      time: start,
      open: formatPrice(instrument, open),
      high: formatPrice(instrument, Math.max(high, close)),
      low: formatPrice(instrument, Math.min(low, close)),
      close: formatPrice(instrument, close),
    });
  }
  return out.reverse();
}
