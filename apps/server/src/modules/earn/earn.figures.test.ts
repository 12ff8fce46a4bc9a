import { describe, expect, it } from 'vitest';
import { ppmOf, ppmText } from '../products/figures.ts';
import {
  dynamicPayment,
  interestOfDay,
  interestThrough,
  redemptionOn,
  redemptionTable,
  scheduleOf,
  staticPaymentFor,
  type Terms,
} from './earn.figures.ts';

const terms = (overrides: Partial<Terms> = {}): Terms => ({
  income: 'static',
  amount: 1_234_567_891n,
  termDays: 90,
  annualRatePpm: 123_457n,
  penaltyPpm: 25_000n,
  ...overrides,
});

describe('earn figures', () => {
  it('the days of a term sum exactly to its total interest, for any amount, rate and term', () => {
    for (const amount of [1n, 99n, 100_000_000n, 1_234_567_891n, 987_654_321_987n])
      for (const rate of [1n, 50_000n, 123_457n, 2_000_000n])
        for (const days of [1, 7, 30, 365, 366]) {
          let sum = 0n;
          for (let k = 1; k <= days; k++) {
            const day = interestOfDay(amount, rate, k);
            expect(day).toBeGreaterThanOrEqual(0n);
            sum += day;
          }
          expect(sum).toBe(interestThrough(amount, rate, days));
        }
  });

  it('accrues from 00:00 UTC the day after the purchase, actual/365, to the last day of the term', () => {
    const t = terms();
    const s = scheduleOf(t, '2027-12-31');
    expect(s).toEqual({
      accrualStart: '2028-01-01',
      endDay: '2028-03-30',
      // 1,234,567,891 × 0.123457 × 90 / 365 = 37,582,039.26… → 37,582,039
      totalInterest: 37_582_039n,
    });
    expect(staticPaymentFor(t, s.accrualStart, '2027-12-31')).toBe(0n);
    expect(staticPaymentFor(t, s.accrualStart, '2028-03-31')).toBe(0n);
    // 2028 is a leap year: 29 February is a day of interest like any other.
    expect(staticPaymentFor(t, s.accrualStart, '2028-02-29')).toBe(interestOfDay(t.amount, 123_457n, 60));
  });

  it('early redemption: principal less the penalty and the income to date; flexible loses nothing', () => {
    const t = terms();
    const s = scheduleOf(t, '2027-12-31');
    const r = redemptionOn(t, s, '2028-01-11');
    const income = interestThrough(t.amount, 123_457n, 10);
    expect(r).toEqual({
      day: '2028-01-11',
      penalty: 30_864_197n,
      incomeToDate: income,
      clawback: income,
      receive: t.amount - 30_864_197n - income,
      remaining: 37_582_039n - income,
    });
    const table = redemptionTable(t, s, '2027-12-31');
    expect(table).toHaveLength(91);
    expect(table[0]?.receive).toBe(t.amount - 30_864_197n);
    const flexible = terms({ termDays: null, penaltyPpm: 0n });
    const fs = scheduleOf(flexible, '2027-12-31');
    expect(redemptionOn(flexible, fs, '2028-02-01')).toMatchObject({
      penalty: 0n,
      clawback: 0n,
      receive: flexible.amount,
    });
    // Never below zero: a penalty and income larger than the principal leave nothing, not a debt.
    const steep = terms({ penaltyPpm: 999_999n, annualRatePpm: 5_000_000n });
    expect(redemptionOn(steep, scheduleOf(steep, '2027-12-31'), '2028-03-01').receive).toBe(0n);
  });

  it('a dynamic day pays the positive return on the principal, nothing on a flat or falling day', () => {
    expect(dynamicPayment(1_000_000_000n, 1_234n)).toBe(1_234_000n);
    expect(dynamicPayment(1_000_000_000n, 0n)).toBe(0n);
    expect(dynamicPayment(1_000_000_000n, -5_000n)).toBe(0n);
  });

  it('rates travel as decimal ratios', () => {
    expect(ppmText(120_000n)).toBe('0.12');
    expect(ppmText(-1_234n)).toBe('-0.001234');
    expect(ppmOf('0.12')).toBe(120_000n);
    expect(ppmOf('-0.001234')).toBe(-1_234n);
    expect(() => ppmOf('0.1234567')).toThrow();
  });
});
