import { describe, expect, it } from 'vitest';
import {
  candles,
  change24h,
  hundred,
  type Instrument,
  isOpen,
  lastOpenTime,
  midAt,
  quoteAt,
} from './feed.ts';

const btc: Instrument = { id: 1, code: 'BTCUSDT', class: 'crypto', ref: 90_000, decimals: 2 };
const eur: Instrument = { id: 2, code: 'EURUSD', class: 'forex', ref: 1.085, decimals: 5 };
const aapl: Instrument = { id: 3, code: 'AAPL', class: 'stocks', ref: 230, decimals: 2 };
const T = Date.parse('2026-11-18T15:00:00Z') / 1000; // a Wednesday, US market open

describe('simulated feed', () => {
  it('is a pure function of instrument and time: the same on every node and after a restart', () => {
    expect(midAt(btc, T)).toBe(midAt({ ...btc }, T));
    const again = { id: 99, code: 'BTCUSDT', class: 'crypto' as const, ref: 90_000, decimals: 2 };
    expect(midAt(again, T + 12_345)).toBe(midAt(btc, T + 12_345));
    expect(midAt(btc, T)).not.toBe(midAt({ ...btc, code: 'ETHUSDT' }, T));
  });

  it('is continuous: one second moves a price by a tiny fraction', () => {
    for (let i = 0; i < 300; i++) {
      const a = midAt(btc, T + i);
      const b = midAt(btc, T + i + 1);
      expect(Math.abs(b / a - 1)).toBeLessThan(0.002);
    }
  });

  it('moves about as much in a day as the class says (crypto 3 %, forex 0.5 %)', () => {
    const dailyMoves = (inst: Instrument) => {
      const moves: number[] = [];
      for (let d = 0; d < 200; d++) {
        const t = T - d * 86_400 - (inst.class === 'forex' ? 0 : 0);
        if (!isOpen(inst.class, t) || !isOpen(inst.class, t - 86_400)) continue;
        moves.push(Math.log(midAt(inst, t) / midAt(inst, t - 86_400)));
      }
      return Math.sqrt(moves.reduce((s, m) => s + m * m, 0) / moves.length);
    };
    expect(dailyMoves(btc)).toBeGreaterThan(0.015);
    expect(dailyMoves(btc)).toBeLessThan(0.06);
    expect(dailyMoves(eur)).toBeGreaterThan(0.0025);
    expect(dailyMoves(eur)).toBeLessThan(0.01);
  });

  it('stays within a sane band of its reference over a year', () => {
    for (let d = 0; d < 365; d += 5) {
      const p = midAt(btc, T - d * 86_400);
      expect(p).toBeGreaterThan(90_000 / 4);
      expect(p).toBeLessThan(90_000 * 4);
    }
  });

  it('quotes bid below ask around the mid, with the class spread', () => {
    const q = quoteAt(eur, T);
    expect(q.bid).toBeLessThan(q.mid);
    expect(q.ask).toBeGreaterThan(q.mid);
    expect((q.ask - q.bid) / q.mid).toBeCloseTo(0.00008, 8);
  });

  it('holds stock prices while the market is closed: a Saturday prices like Friday’s close', () => {
    const saturday = Date.parse('2026-11-21T18:00:00Z') / 1000;
    const fridayClose = Date.parse('2026-11-20T21:00:00Z') / 1000 - 1; // 16:00 New York (EST)
    expect(isOpen('stocks', saturday)).toBe(false);
    expect(lastOpenTime('stocks', saturday)).toBe(fridayClose);
    expect(midAt(aapl, saturday)).toBe(midAt(aapl, fridayClose));
    expect(isOpen('crypto', saturday)).toBe(true);
    expect(isOpen('forex', saturday)).toBe(false);
    expect(isOpen('forex', Date.parse('2026-11-22T22:30:00Z') / 1000)).toBe(true); // Sunday evening
    // Daylight saving: in July the session opens at 13:30 UTC.
    expect(isOpen('stocks', Date.parse('2026-07-15T13:35:00Z') / 1000)).toBe(true);
    expect(isOpen('stocks', Date.parse('2026-01-15T13:35:00Z') / 1000)).toBe(false);
  });

  it('computes the 24 h change and a 100-point mini chart ending now', () => {
    const expected = midAt(btc, T) / midAt(btc, T - 86_400) - 1;
    expect(change24h(btc, T)).toBeCloseTo(expected, 12);
    const points = hundred(btc, T);
    expect(points).toHaveLength(100);
    expect(points.at(-1)).toBe(midAt(btc, T).toFixed(2));
  });
});

describe('candles', () => {
  it('aggregate: an hour opens and closes with its minutes and its extremes come from them', () => {
    const end = T + 3599;
    const [hour] = candles(btc, '1h', end, 1);
    const minutes = candles(btc, '1m', end, 60);
    expect(minutes).toHaveLength(60);
    expect(hour?.time).toBe(minutes[0]?.time);
    expect(hour?.open).toBe(minutes[0]?.open);
    expect(hour?.close).toBe(minutes.at(-1)?.close);
    const samples = [...minutes.map((m) => Number(m.open)), Number(minutes.at(-1)?.close)];
    expect(Number(hour?.high)).toBe(Math.max(...samples));
    expect(Number(hour?.low)).toBe(Math.min(...samples));
    expect(Number(hour?.high)).toBeLessThanOrEqual(Math.max(...minutes.map((m) => Number(m.high))));
    expect(Number(hour?.low)).toBeGreaterThanOrEqual(Math.min(...minutes.map((m) => Number(m.low))));
  });

  it('a one-minute candle sees every one-second tick', () => {
    const [minute] = candles(btc, '1m', T + 59, 1);
    const ticks = Array.from({ length: 60 }, (_, i) => Number(midAt(btc, T + i).toFixed(2)));
    expect(Number(minute?.high)).toBe(Math.max(...ticks));
    expect(Number(minute?.low)).toBe(Math.min(...ticks));
  });

  it('serves every period for a date a year back, weekly candles starting on Mondays', () => {
    const yearAgo = T - 360 * 86_400;
    for (const period of ['1m', '5m', '15m', '1h', '4h', '1d', '1w'] as const) {
      const series = candles(btc, period, yearAgo, 50);
      expect(series, period).toHaveLength(50);
      for (const c of series) {
        expect(Number(c.high)).toBeGreaterThanOrEqual(Math.max(Number(c.open), Number(c.close)));
        expect(Number(c.low)).toBeLessThanOrEqual(Math.min(Number(c.open), Number(c.close)));
      }
      const times = series.map((c) => c.time);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
    for (const c of candles(btc, '1w', T, 10)) expect(new Date(c.time * 1000).getUTCDay()).toBe(1);
  });

  it('skips hours when the market is closed', () => {
    const sundayNoon = Date.parse('2026-11-22T12:00:00Z') / 1000;
    const hours = candles(aapl, '1h', sundayNoon, 10);
    for (const h of hours) expect(isOpen('stocks', h.time) || isOpen('stocks', h.time + 3599)).toBe(true);
  });
});
