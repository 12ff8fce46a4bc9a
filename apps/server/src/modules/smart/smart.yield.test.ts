import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ppmOf } from '../products/figures.ts';
import { type PlanSpan, realisedOfSpan, realisedTogether, spanOf } from './smart.yield.ts';

/**
 * Realised yields over random plans (issue 41, 11): a one-day plan's figures are over its one day,
 * whatever calendar days it touches; every figure's parts multiply to its whole, daily × days =
 * period, for a plan and for all of a product's plans together (each part rounded to 6 decimals).
 */
const DAY = 86_400;
const dayOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

/** |daily × days − period| within what rounding each of the three to 6 decimals can leave. */
function expectMultiplies(r: { dailyYield: string; days: string; periodReturn: string }) {
  const d = ppmOf(r.dailyYield);
  const n = ppmOf(r.days);
  const p = ppmOf(r.periodReturn);
  const off = d * n - p * 1_000_000n;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  expect(abs(off) * 2n, JSON.stringify(r)).toBeLessThanOrEqual(abs(d) + n + 1_000_000n + 4n);
}

/** A random plan as the service keeps it: its times, state, and one income row per day it touched. */
const plan = fc
  .record({
    start: fc.integer({ min: 29_000_000, max: 29_500_000 }).map((m) => m * 60),
    timeframeDays: fc.integer({ min: 1, max: 30 }),
    state: fc.constantFrom('expired', 'stopped', 'in_progress'),
    cut: fc.double({ min: 0.001, max: 1, noNaN: true }),
    amountMinor: fc.bigInt({ min: 1_000_000n, max: 100_000_000_000n }),
    results: fc.array(fc.integer({ min: -50_000, max: 50_000 }), { minLength: 32, maxLength: 32 }),
    trades: fc.integer({ min: 0, max: 40 }),
  })
  .map((g) => {
    const endTick = g.start + g.timeframeDays * DAY;
    const lastTick =
      g.state === 'expired'
        ? endTick
        : g.start + 60 * Math.max(1, Math.floor(((endTick - g.start) / 60) * g.cut));
    // Income rows: each day from the start's through the last one stepped to its end (running: complete days only).
    const lastDay =
      g.state === 'in_progress'
        ? dayOf(Math.floor(lastTick / DAY) * DAY - 1)
        : dayOf(Math.max(lastTick - 1, g.start));
    const incomes: { day: string; amountMinor: bigint }[] = [];
    for (let t = Math.floor(g.start / DAY) * DAY, i = 0; dayOf(t) <= lastDay; t += DAY, i++)
      incomes.push({
        day: dayOf(t),
        amountMinor: (g.amountMinor * BigInt(g.results[i % 32] ?? 0)) / 10_000_000n,
      });
    return {
      row: { amountMinor: g.amountMinor, startTick: g.start, endTick, lastTick, state: g.state as 'expired' },
      incomes,
      trades: g.trades,
    };
  });

describe('realised yields', () => {
  it('a one-day plan that lost 2.3969 % lost it over one day, though it touched two calendar days', () => {
    const start = Date.parse('2026-11-21T10:01:00Z') / 1000;
    const span = spanOf(
      {
        amountMinor: 1_000_000_000n,
        startTick: start,
        endTick: start + DAY,
        lastTick: start + DAY,
        state: 'expired',
      },
      [
        { day: '2026-11-21', amountMinor: -20_000_000n },
        { day: '2026-11-22', amountMinor: -3_969_000n },
      ],
      3,
    );
    expect(span && realisedOfSpan(span)).toMatchObject({
      dailyYield: '-0.023969',
      periodReturn: '-0.023969',
      days: '1',
    });
  });

  it('for random plans: days is the time the money was in the plan, and daily × days = period', () => {
    fc.assert(
      fc.property(plan, ({ row, incomes, trades }) => {
        const span = spanOf(row, incomes, trades);
        if (!span) return;
        const r = realisedOfSpan(span);
        if (!r) return;
        expectMultiplies(r);
        // The duration in days: the whole timeframe once expired; never more than the timeframe.
        if (row.state === 'expired')
          expect(ppmOf(r.days)).toBe(BigInt((row.endTick - row.startTick) / DAY) * 1_000_000n);
        expect(Number(r.days)).toBeLessThanOrEqual((row.endTick - row.startTick) / DAY);
      }),
      { numRuns: 500, seed: 41 },
    );
  });

  it('for random sets of plans: the headline multiplies too, and its days lie within its plans’ durations', () => {
    fc.assert(
      fc.property(fc.array(plan, { minLength: 1, maxLength: 12 }), (plans) => {
        const spans = plans
          .map((p) => spanOf(p.row, p.incomes, p.trades))
          .filter((s): s is PlanSpan => s !== null);
        const r = realisedTogether(spans);
        const ran = spans.filter((s) => s.to > s.from);
        if (!ran.some((s) => s.trades > 0)) {
          // Plans that only waited are no record of the strategy: no headline rather than "0 % a day".
          expect(r).toBeNull();
          return;
        }
        if (!r) throw new Error('no headline');
        expectMultiplies(r);
        const durations = ran.map((s) => (s.to - s.from) / DAY);
        expect(Number(r.days)).toBeGreaterThanOrEqual(Math.min(...durations) - 1e-6);
        expect(Number(r.days)).toBeLessThanOrEqual(Math.max(...durations) + 1e-6);
      }),
      { numRuns: 300, seed: 41 },
    );
  });
});
