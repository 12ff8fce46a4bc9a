import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FULL_LENGTH, TEST_DB } from '../../../../../tests/support/db.ts';
import { JobRunner } from '../../platform/jobs.ts';
import { DAY_TOTAL, HOLDINGS, openSavingsFixture, runOn, type SavingsFixture } from './products.testing.ts';
import { addDays, settlementJob } from './settlement.ts';

/**
 * A year of daily settlement on the injected clock: the tests' savings product (products.testing.ts:
 * 1,000 holdings, holding i earning 50,000·i minor units a day, 25,025,000,000 a day in all), one
 * job run a day, then reruns of settled days.
 */
let f: SavingsFixture;
/** A year at full length (`npm run test:long`); the suite runs its first 30 days, with the same checks. */
const DAYS = FULL_LENGTH ? 365 : 30;
const LAST = addDays('2027-01-01', DAYS - 1);
const MIDDLE = addDays('2027-01-01', Math.floor(DAYS / 2));

beforeAll(async () => {
  f = await openSavingsFixture();
}, 120_000);
afterAll(() => f.close());
afterEach(() => f.expectSound(), 120_000);

describe(`${DAYS} days of daily settlement on ${TEST_DB}`, () => {
  const year = () => f.savings('test.savings');
  const jobName = 'settlement.test.savings';

  it(`${DAYS} days over 1,000 holdings: one posting per (holding, day), exact to the minor unit, the reserve exactly spent`, async () => {
    // The year's yield: 25,025,000,000 · 365 = 9,134,125,000,000 minor units (9,134,125 USDT).
    const yearTotal = DAY_TOTAL * BigInt(DAYS);
    if (DAYS === 365) expect(yearTotal).toBe(9_134_125_000_000n);
    await f.fundReserve(yearTotal, 'year');
    const jobs = new JobRunner(f.db, 'node-a', f.logger);
    jobs.register(settlementJob(f.runner(), year()));
    const started = performance.now();
    for (let d = 0; d < DAYS; d++) {
      f.clock.now = runOn(addDays('2027-01-01', d));
      expect(await jobs.tick(jobName)).toBe(true);
    }
    console.info(
      `settlement on ${TEST_DB}: ${DAYS} days × 1,000 holdings (${DAYS * 1000} entries) in ${Math.round(performance.now() - started)} ms`,
    );

    expect(await f.paid('test.savings')).toEqual({
      entries: DAYS * 1000,
      holdings: HOLDINGS,
      total: yearTotal,
    });
    // Exactly one payment (a compound entry's posting) per (holding, day): one a day per holding, 1,000 per day.
    const perHolding = await f.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ledger_postings WHERE idempotency_key LIKE 'settle:test.savings:%'
       GROUP BY split_part(idempotency_key, ':', 3) HAVING count(*) <> $1`,
      [DAYS],
    );
    expect(perHolding).toEqual([]);
    const perDay = await f.db.query<{ day: string; n: string }>(
      `SELECT split_part(idempotency_key, ':', 4) AS day, count(*) AS n FROM ledger_postings
       WHERE idempotency_key LIKE 'settle:test.savings:%' GROUP BY 1 HAVING count(*) <> 1000`,
    );
    expect(perDay).toEqual([]);
    // Owner c (0-based) holds i = c+1, c+251, c+501, c+751: Σ i = 4c + 1,504, so a year pays
    // 50,000 · (4c + 1,504) · 365 minor units into their wallet (· DAYS in a shorter run).
    for (const [c, owner] of f.owners.entries()) {
      const usdt = (await f.ledger.balances('live', owner)).find((b) => b.asset === 'USDT');
      expect(usdt?.balance).toBe(50_000n * (4n * BigInt(c) + 1504n) * BigInt(DAYS));
    }
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    const days = await f.db.query<{ n: string; payments: string; paid: string }>(
      "SELECT count(*) AS n, min(payments) || '-' || max(payments) AS payments, sum(paid_minor) AS paid FROM settlement_days WHERE product = 'test.savings' AND status = 'settled'",
    );
    expect(days[0]).toEqual({ n: String(DAYS), payments: '1000-1000', paid: yearTotal.toString() });
  }, 1_200_000);

  it('rerunning any day changes nothing: not by its job, not by the runner, not even with its record forgotten', async () => {
    const before = await f.paid('test.savings');
    const entries = await f.db.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries');
    const jobsA = new JobRunner(f.db, 'node-a', f.logger);
    const jobsB = new JobRunner(f.other, 'node-b', f.logger);
    jobsA.register(settlementJob(f.runner(), year()));
    jobsB.register(settlementJob(f.runner('b'), year()));
    for (const day of ['2027-01-01', MIDDLE, LAST]) {
      f.clock.now = runOn(day);
      expect(await jobsA.tick(jobName)).toBe(false);
      expect(await jobsB.tick(jobName)).toBe(false);
      expect(await f.runner().settleDay(year(), 'live', day)).toEqual({
        product: 'test.savings',
        book: 'live',
        day,
        status: 'settled',
        payments: 1000,
        paidMinor: DAY_TOTAL,
      });
    }
    // The ledger's keys hold on their own: with its record gone, the day replays every payment,
    // pays nothing and raises no alert, although the reserve is empty.
    await f.db.query("DELETE FROM settlement_days WHERE product = 'test.savings' AND day = $1", [MIDDLE]);
    expect(await f.runner('b').settleDay(year(), 'live', MIDDLE)).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await f.paid('test.savings')).toEqual(before);
    expect(await f.db.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries')).toEqual(entries);
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await f.alertsOf('test.savings')).toEqual([]);
  });
});
