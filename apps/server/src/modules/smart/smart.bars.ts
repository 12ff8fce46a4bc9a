import { ApiError } from '../../platform/http.ts';
import type { Instrument } from '../market/feed.ts';
import { tickQuote } from '../market/pricing.ts';
import type { PriceSource } from '../market/source.ts';
import type { BarSeries } from './smart.engine.ts';

export const MINUTE = 60;

/**
 * The one-minute bars of an instrument with closing seconds in (from, to]: the quote of each
 * minute's last second in integer ticks, read through the trading module's `tickQuote`, so a bar
 * is the very tick a position opened or closed at that second is filled at. Minutes when the
 * market is closed, or the source has no fresh price, have no bar.
 */
export function barsOf(source: PriceSource, instrument: Instrument, from: number, to: number): BarSeries {
  const first = Math.floor(from / MINUTE) * MINUTE + MINUTE;
  const capacity = Math.max(0, Math.floor((to - first) / MINUTE) + 1);
  const t = new Float64Array(capacity);
  const bid = new Float64Array(capacity);
  const ask = new Float64Array(capacity);
  let n = 0;
  for (let s = first; s <= to; s += MINUTE) {
    const bar = barAt(source, instrument, s);
    if (!bar) continue;
    t[n] = s;
    bid[n] = Number(bar.bid);
    ask[n] = Number(bar.ask);
    n++;
  }
  return { length: n, t: t.subarray(0, n), bid: bid.subarray(0, n), ask: ask.subarray(0, n) };
}

/** One bar: null when the instrument cannot be traded at that second. */
export function barAt(
  source: PriceSource,
  instrument: Instrument,
  t: number,
): { bid: bigint; ask: bigint } | null {
  if (!source.isOpen(instrument, t)) return null;
  try {
    const q = tickQuote(instrument, t, source);
    return { bid: q.bid, ask: q.ask };
  } catch (error) {
    // No fresh price at t (a real source gone stale): no bar, as trading would not fill there.
    if (error instanceof ApiError) return null;
    throw error;
  }
}
