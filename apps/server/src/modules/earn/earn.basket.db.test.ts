import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { MarketService } from '../market/market.service.ts';
import { PPM } from '../products/figures.ts';
import { marketBasketRate } from './earn.basket.ts';

/** A dynamic product's day: the mean of its basket's close-to-close returns at the platform's own (simulated) prices. */
let t: TestDatabase;
const NOW = Date.parse('2027-03-10T12:00:00Z');

beforeAll(async () => {
  t = await openTestDatabase();
}, 120_000);
afterAll(() => t.close());

describe(`a basket's daily return on ${TEST_DB}`, () => {
  it("is the mean of each instrument's close against the close before, in ppm; unknown codes are left out", async () => {
    const market = new MarketService(t.db, () => NOW);
    await market.load();
    const rate = marketBasketRate(market);
    const day = '2027-03-05';
    const returns = ['EURUSD', 'BTCUSDT'].map((code) => {
      const [before, on] = market.candles(code, '1d', day, 2).slice(-2);
      const a = Number(before?.close);
      const b = Number(on?.close);
      return (b - a) / a;
    });
    const expected = returns.reduce((a, b) => a + b, 0) / returns.length;
    const got = rate(['EURUSD', 'BTCUSDT', 'NOPE'], day);
    expect(got).not.toBeNull();
    // Integer arithmetic (rounded toward zero per instrument) against the float reference: within 1 ppm.
    expect(Math.abs(Number(got) / Number(PPM) - expected)).toBeLessThan(2e-6);
    expect(rate(['NOPE'], day)).toBeNull();
    // Published days are fixed: asking again gives the same figure.
    expect(rate(['EURUSD', 'BTCUSDT'], day)).toBe(got);
  });
});
