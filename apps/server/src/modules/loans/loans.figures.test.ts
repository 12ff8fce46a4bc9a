import { describe, expect, it } from 'vitest';
import {
  addDays,
  allocate,
  aprTenths,
  aprText,
  chargeOfDay,
  chargesThrough,
  interestThrough,
  type LoanTerms,
  lateCap,
  lateThrough,
  loanFiguresOf,
  totalInterest,
} from './loans.figures.ts';

const terms = (overrides: Partial<LoanTerms> = {}): LoanTerms => ({
  amount: 1_000_000_000n,
  termDays: 30,
  dailyPpm: 500n,
  interestFreeDays: 7,
  lateDailyPpm: 1_000n,
  lateCapPpm: 100_000n,
  ...overrides,
});

/**
 * The independent oracle, used only here: the directive's equation P = A (1+X)^(−T/365) solved by
 * Newton's method in plain floats on f(X) = A (1+X)^(−T/365) − P, started at 0.
 */
function floatApr(amount: number, repayment: number, termDays: number): number {
  const t = termDays / 365;
  let x = 0;
  for (let i = 0; i < 200; i++) {
    const f = repayment * (1 + x) ** -t - amount;
    const df = -t * repayment * (1 + x) ** (-t - 1);
    const next = x - f / df;
    if (!Number.isFinite(next)) break;
    if (Math.abs(next - x) < 1e-15) {
      x = next;
      break;
    }
    x = next <= -0.99 ? (x - 0.99) / 2 : next;
  }
  return x * 100;
}

describe('loan figures', () => {
  it('the days of a loan sum exactly to the total interest of the sheet, for any amount, rate and term', () => {
    const payout = '2026-01-10';
    for (const amount of [1n, 999n, 1_000_000_000n, 123_456_789_012n])
      for (const dailyPpm of [1n, 333n, 500n, 10_000n])
        for (const [termDays, interestFreeDays] of [
          [7, 0],
          [30, 7],
          [30, 30],
          [90, 14],
          [365, 3],
        ] as const) {
          const t = terms({ amount, dailyPpm, termDays, interestFreeDays });
          let sum = 0n;
          for (let k = 1; k <= termDays; k++) sum += chargeOfDay(t, payout, [], addDays(payout, k)).interest;
          expect(sum).toBe(totalInterest(t));
        }
  });

  it('charges nothing on the interest-free days and from the first day after them', () => {
    const t = terms();
    const payout = '2026-03-01';
    for (let k = 1; k <= 7; k++)
      expect(chargeOfDay(t, payout, [], addDays(payout, k))).toEqual({ interest: 0n, late: 0n });
    // 1,000 USDT (6 decimals) at 0.05 % a day: 0.5 USDT a day.
    expect(chargeOfDay(t, payout, [], addDays(payout, 8))).toEqual({ interest: 500_000n, late: 0n });
    expect(totalInterest(t)).toBe(23n * 500_000n);
  });

  it('a part repayment lowers the interest from the next day, never above the total of the sheet', () => {
    const t = terms();
    const payout = '2026-03-01';
    const paid = [{ day: addDays(payout, 10), principal: 400_000_000n }];
    // Days 8, 9 and 10 on 1,000 (paid during day 10); day 11 on 600: 0.5 × 3 + 0.3.
    expect(interestThrough(t, payout, paid, 10)).toBe(1_500_000n);
    expect(interestThrough(t, payout, paid, 11)).toBe(1_800_000n);
    let sum = 0n;
    for (let k = 1; k <= 30; k++) sum += chargeOfDay(t, payout, paid, addDays(payout, k)).interest;
    expect(sum).toBe(3n * 500_000n + 20n * 300_000n);
    expect(sum).toBeLessThanOrEqual(totalInterest(t));
    // Repaid in full on the due date: the whole interest of the sheet.
    const atDue = [{ day: addDays(payout, 30), principal: t.amount }];
    expect(interestThrough(t, payout, atDue, 30)).toBe(totalInterest(t));
  });

  it('after the due date only the late cost accrues, capped as stated', () => {
    const t = terms({ lateCapPpm: 5_000n });
    const payout = '2026-03-01';
    expect(chargeOfDay(t, payout, [], addDays(payout, 31))).toEqual({ interest: 0n, late: 1_000_000n });
    // Cap 0.5 % of 1,000 = 5 USDT: reached on the fifth late day, nothing after.
    expect(lateThrough(t, payout, [], 35)).toBe(5_000_000n);
    expect(lateThrough(t, payout, [], 400)).toBe(lateCap(t));
    expect(chargeOfDay(t, payout, [], addDays(payout, 36)).late).toBe(0n);
  });

  it('the day-by-day charges through a day sum to what is charged through it, days without a charge left out', () => {
    const t = terms({ lateCapPpm: 5_000n });
    const payout = '2026-03-01';
    const paid = [{ day: addDays(payout, 10), principal: 400_000_000n }];
    for (const k of [0, 1, 7, 8, 11, 30, 33, 40]) {
      const days = chargesThrough(t, payout, paid, addDays(payout, k));
      expect(days.reduce((s, d) => s + d.interest, 0n)).toBe(interestThrough(t, payout, paid, k));
      expect(days.reduce((s, d) => s + d.late, 0n)).toBe(lateThrough(t, payout, paid, k));
      expect(days.every((d) => d.interest + d.late > 0n)).toBe(true);
    }
    expect(chargesThrough(t, payout, paid, addDays(payout, 9))).toEqual([
      { day: addDays(payout, 8), interest: 500_000n, late: 0n },
      { day: addDays(payout, 9), interest: 500_000n, late: 0n },
    ]);
  });

  it('allocates a repayment to late cost, then interest, then principal', () => {
    const owed = { principal: 100n, interest: 10n, late: 5n };
    expect(allocate(owed, 3n)).toEqual({ late: 3n, interest: 0n, principal: 0n });
    expect(allocate(owed, 12n)).toEqual({ late: 5n, interest: 7n, principal: 0n });
    expect(allocate(owed, 115n)).toEqual({ late: 5n, interest: 10n, principal: 100n });
    expect(() => allocate(owed, 116n)).toThrow();
    expect(() => allocate(owed, 0n)).toThrow();
  });

  it('states the due date and the first day of interest from the payout day', () => {
    const f = loanFiguresOf(terms(), '2026-12-20');
    expect(f.interestFrom).toBe('2026-12-28');
    expect(f.dueDate).toBe('2027-01-19');
    expect(f.totalPayable).toBe(1_000_000_000n + 11_500_000n);
  });

  it('the APR is 0.0 for an interest-free loan', () => {
    expect(aprText(aprTenths(1_000n, 1_000n, 30))).toBe('0.0');
    expect(loanFiguresOf(terms({ interestFreeDays: 30 }), '2026-01-01').apr).toBe('0.0');
  });

  // At least 20 cases over amounts, terms, rates and interest-free days, each against the float
  // oracle to one decimal. A case whose oracle lies within 1e-6 of a rounding boundary would be a
  // float question, not ours: none of these does (checked below, so the table cannot drift there).
  const cases: [amount: bigint, termDays: number, dailyPpm: bigint, interestFreeDays: number][] = [
    [1_000_000_000n, 30, 500n, 7],
    [1_000_000_000n, 30, 500n, 0],
    [50_000_000n, 7, 1_000n, 0],
    [50_000_000n, 14, 1_000n, 3],
    [123_456_789n, 60, 300n, 10],
    [999_999_999n, 90, 250n, 14],
    [10_000_000_000n, 180, 200n, 30],
    [10_000_000_000n, 365, 101n, 0],
    [2_500_000_000n, 365, 150n, 60],
    [100_000_000n, 45, 800n, 5],
    [100_000_000n, 10, 5_000n, 0],
    [7_777_777n, 21, 2_000n, 7],
    [500_000_000n, 120, 400n, 20],
    [1_000_000n, 30, 10_000n, 0],
    [1_000_000n, 3, 10_000n, 1],
    [300_000_000_000n, 90, 120n, 0],
    [42_000_000n, 28, 700n, 14],
    [86_400_000n, 100, 333n, 33],
    [5_000_000_000n, 200, 275n, 15],
    [1_500_000_000n, 60, 1_500n, 30],
    [250_000_000n, 15, 3_000n, 2],
    [12_345_678_901n, 240, 90n, 45],
    [100_000_000n, 8, 1n, 0],
    [654_321n, 31, 4_321n, 1],
  ];

  it.each(cases)(
    'APR of %s over %s days at %s ppm a day, %s free days, matches the float oracle',
    (amount, termDays, dailyPpm, interestFreeDays) => {
      const t = terms({ amount, termDays, dailyPpm, interestFreeDays });
      const repayment = amount + totalInterest(t);
      const oracle = floatApr(Number(amount), Number(repayment), termDays);
      const scaled = oracle * 10;
      expect(Math.abs(scaled - Math.floor(scaled) - 0.5)).toBeGreaterThan(1e-6);
      expect(loanFiguresOf(t, '2026-01-01').apr).toBe(oracle.toFixed(1));
    },
  );

  it('the APR follows the closed form for a single repayment, even for very high rates', () => {
    // 1 % a day for 30 days: (1.3)^(365/30) − 1 = 2,347.7…%.
    expect(aprText(aprTenths(100n, 130n, 30))).toBe(floatApr(100, 130, 30).toFixed(1));
  });
});
