import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB } from '../../../../../tests/support/db.ts';
import { JobRunner } from '../../platform/jobs.ts';
import {
  DAY_TOTAL,
  openSavingsFixture,
  PAGE_1_TOTAL,
  runOn,
  type SavingsFixture,
} from './products.testing.ts';
import { reservationKey, settlementJob } from './settlement.ts';

/**
 * The settlement runner against the real ledger, on an injected clock, with the tests' savings
 * product (products.testing.ts: 1,000 holdings in two pages of 500; holding i earns 50,000·i minor
 * units a day, 25,025,000,000 a day in all). Each test funds the reserve with exactly what it
 * should pay and ends with it at zero.
 */
let f: SavingsFixture;

beforeAll(async () => {
  f = await openSavingsFixture();
}, 120_000);
afterAll(() => f.close());
afterEach(() => f.expectSound(), 120_000);

describe(`daily settlement on ${TEST_DB}`, () => {
  it('paymentFor throws at holding 700 the first time: the first page is paid, the rerun pays the rest exactly once', async () => {
    let thrown = false;
    const product = f.savings('test.crash-before', {
      paymentFor: (holding) => {
        if (holding.id === 700 && !thrown) {
          thrown = true;
          throw new Error('the product fell over at holding 700');
        }
        return (holding.principalMinor * 5n) / 10_000n;
      },
    });
    await f.fundReserve(DAY_TOTAL, 'crash-before');
    f.clock.now = runOn('2028-01-01');
    await expect(f.runner().settleDay(product, 'live', '2027-12-31')).rejects.toThrow('holding 700');
    // Page 1 (holdings 1..500) was paid and its reservation released; nothing of page 2.
    expect(await f.paid('test.crash-before')).toEqual({ entries: 500, holdings: 500, total: PAGE_1_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: DAY_TOTAL - PAGE_1_TOTAL, held: 0n });
    expect(await f.runner().settleDay(product, 'live', '2027-12-31')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await f.paid('test.crash-before')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
  });

  it('the next page is read while a page is posted: a read that fails leaves that page paid, the run failed, and the rerun pays the rest once', async () => {
    const base = f.savings('test.read-ahead');
    let failed = false;
    let described = 0;
    let describedBeforeRead = -1;
    const product = f.savings('test.read-ahead', {
      pageHoldings: async (book, afterId, limit, day) => {
        if (afterId === 500 && !failed) {
          failed = true;
          describedBeforeRead = described;
          throw new Error('the read of page 2 failed');
        }
        return base.pageHoldings(book, afterId, limit, day);
      },
      reference: (holding) => {
        described += 1;
        return `test.read-ahead:${holding.id}`;
      },
    });
    await f.fundReserve(DAY_TOTAL, 'read-ahead');
    f.clock.now = runOn('2028-01-01');
    await expect(f.runner().settleDay(product, 'live', '2027-12-31')).rejects.toThrow('page 2');
    // Page 2 was asked for before page 1's payments were even described to the ledger.
    expect(describedBeforeRead).toBe(0);
    expect(await f.paid('test.read-ahead')).toEqual({ entries: 500, holdings: 500, total: PAGE_1_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: DAY_TOTAL - PAGE_1_TOTAL, held: 0n });
    expect(await f.runner().settleDay(product, 'live', '2027-12-31')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await f.paid('test.read-ahead')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
  });

  it('a run that dies mid-page (after 499 of its 500 payments): the rerun pays the one left, on a reserve funded to the minor unit', async () => {
    let thrown = false;
    const product = f.savings('test.crash-mid', {
      reference: (holding) => {
        if (holding.id === 700 && !thrown) {
          thrown = true;
          throw new Error('the run died paying holding 700');
        }
        return `test.crash-mid:${holding.id}`;
      },
    });
    await f.fundReserve(DAY_TOTAL, 'crash-mid');
    f.clock.now = runOn('2028-01-01');
    await expect(f.runner().settleDay(product, 'live', '2027-12-31')).rejects.toThrow('holding 700');
    // Page 2 is reserved (its hold pending: 50,000 · Σ 501..1,000 = 50,000 · 375,250) and paid but for holding 700.
    const page2Total = DAY_TOTAL - PAGE_1_TOTAL;
    expect(page2Total).toBe(50_000n * 375_250n);
    expect(await f.paid('test.crash-mid')).toEqual({
      entries: 999,
      holdings: 999,
      total: DAY_TOTAL - 50_000n * 700n,
    });
    // The reserve keeps exactly holding 700's 35,000,000 and holds the page: it "has" nothing
    // unreserved, yet the rerun must see that its own reservation covers what is left.
    expect(await f.reserveNow()).toEqual({ balance: 35_000_000n, held: page2Total });
    expect(await f.runner('b').settleDay(product, 'live', '2027-12-31')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await f.paid('test.crash-mid')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await f.alertsOf('test.crash-mid')).toEqual([]);
  });

  it('two nodes on the same day: one claims the job; two runners at once (a lease taken over) still pay each holding once', async () => {
    const product = f.savings('test.twice');
    await f.fundReserve(2n * DAY_TOTAL, 'twice');
    const jobsA = new JobRunner(f.db, 'node-a', f.logger);
    const jobsB = new JobRunner(f.other, 'node-b', f.logger);
    jobsA.register(settlementJob(f.runner(), product));
    jobsB.register(settlementJob(f.runner('b'), product));
    f.clock.now = runOn('2028-02-01');
    const claims = await Promise.all([
      jobsA.tick('settlement.test.twice'),
      jobsB.tick('settlement.test.twice'),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await f.paid('test.twice', '2028-02-01')).toEqual({
      entries: 1000,
      holdings: 1000,
      total: DAY_TOTAL,
    });

    // Bypassing the job's claim: both runners on the same day at once, on a reserve that covers the day exactly once.
    const both = await Promise.all([
      f.runner().settleDay(product, 'live', '2028-02-02'),
      f.runner('b').settleDay(product, 'live', '2028-02-02'),
    ]);
    for (const result of both)
      expect(result).toMatchObject({ status: 'settled', payments: 1000, paidMinor: DAY_TOTAL });
    expect(await f.paid('test.twice', '2028-02-02')).toEqual({
      entries: 1000,
      holdings: 1000,
      total: DAY_TOTAL,
    });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await f.alertsOf('test.twice')).toEqual([]);
  });

  it('an empty reserve pays nothing and alerts staff once; funded, the next run pays the day', async () => {
    const product = f.savings('test.unfunded');
    const jobs = new JobRunner(f.db, 'node-a', f.logger);
    jobs.register(settlementJob(f.runner(), product));
    f.clock.now = runOn('2028-03-01');
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await f.runner().settleDay(product, 'live', '2028-03-01')).toEqual({
      product: 'test.unfunded',
      book: 'live',
      day: '2028-03-01',
      status: 'unfunded',
      payments: 0,
      paidMinor: 0n,
      shortfall: { firstHoldingId: 1, neededMinor: PAGE_1_TOTAL, availableMinor: 0n },
    });
    // The job tries again (and fails, so it is tried later); staff hear of the day once.
    expect(await jobs.tick('settlement.test.unfunded')).toBe(true);
    expect(await f.runner('b').settleDay(product, 'live', '2028-03-01')).toMatchObject({
      status: 'unfunded',
    });
    expect(await f.paid('test.unfunded')).toEqual({ entries: 0, holdings: 0, total: 0n });
    const alerts = await f.alertsOf('test.unfunded');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.message).toContain('cannot cover 6262500000 minor units');
    // The day's first page keeps its claim on the reserve: nothing else may drain it first.
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: PAGE_1_TOTAL });
    const [run] = await f.db.query<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM job_runs WHERE job = 'settlement.test.unfunded'",
    );
    expect(run).toEqual({ status: 'failed', attempts: 1 });

    await f.fundReserve(DAY_TOTAL, 'unfunded');
    expect(await jobs.tick('settlement.test.unfunded')).toBe(true);
    expect(await f.paid('test.unfunded')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await f.alertsOf('test.unfunded')).toHaveLength(1);
  });

  it('a reserve that covers the first page only: that page is paid, the rest of the day nothing, one alert', async () => {
    const product = f.savings('test.short');
    await f.fundReserve(PAGE_1_TOTAL + 1n, 'short');
    f.clock.now = runOn('2028-04-01');
    const result = await f.runner().settleDay(product, 'live', '2028-04-01');
    // Page 2 needs 50,000 · 375,250 = 18,762,500,000; the reserve has the one minor unit left.
    expect(result).toMatchObject({
      status: 'unfunded',
      payments: 500,
      paidMinor: PAGE_1_TOTAL,
      shortfall: { firstHoldingId: 501, neededMinor: DAY_TOTAL - PAGE_1_TOTAL, availableMinor: 1n },
    });
    expect(await f.paid('test.short')).toEqual({ entries: 500, holdings: 500, total: PAGE_1_TOTAL });
    expect(await f.alertsOf('test.short')).toHaveLength(1);
    // Staff fund the rest (less the unit already there); the day completes without a second alert.
    await f.fundReserve(DAY_TOTAL - PAGE_1_TOTAL - 1n, 'short-rest');
    expect(await f.runner().settleDay(product, 'live', '2028-04-01')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await f.alertsOf('test.short')).toHaveLength(1);
  });

  it('two products at once on a reserve that covers one page: it never goes below zero, and what is owed keeps its claim', async () => {
    // 10,000 USDT covers one first page (6,262,500,000) but not two (12,525,000,000).
    const funded = 10_000_000_000n;
    await f.fundReserve(funded, 'race');
    const a = f.savings('test.race-a');
    const b = f.savings('test.race-b');
    f.clock.now = runOn('2028-04-15');
    const results = await Promise.all([
      f.runner('a').settleDay(a, 'live', '2028-04-15'),
      f.runner('b').settleDay(b, 'live', '2028-04-15'),
    ]);
    // However the pages interleaved, at most one first page was paid (none when both claimed the
    // reserve before either checked it: each sees the other's claim), and both days stopped.
    const paid = (await f.paid('test.race-a')).total + (await f.paid('test.race-b')).total;
    expect([0n, PAGE_1_TOTAL]).toContain(paid);
    expect(await f.reserveNow()).toMatchObject({ balance: funded - paid });
    expect(results.map((r) => r.status)).toEqual(['unfunded', 'unfunded']);
    expect(await f.alertsOf('test.race-a')).toHaveLength(1);
    expect(await f.alertsOf('test.race-b')).toHaveLength(1);
    // Funded with what is missing (two days less what was paid and what is there), both complete.
    await f.fundReserve(2n * DAY_TOTAL - funded, 'race-rest');
    for (const [product, node] of [
      [a, 'a'],
      [b, 'b'],
    ] as const)
      expect(await f.runner(node).settleDay(product, 'live', '2028-04-15')).toMatchObject({
        status: 'settled',
        payments: 1000,
        paidMinor: DAY_TOTAL,
      });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
  });

  it('a missed day is caught up first, and the day after an unfunded one waits for it', async () => {
    const product = f.savings('test.catchup');
    const jobs = new JobRunner(f.db, 'node-a', f.logger);
    jobs.register(settlementJob(f.runner(), product));
    await f.fundReserve(3n * DAY_TOTAL, 'catchup');
    f.clock.now = runOn('2028-05-01');
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    // The nodes were down on 2 and 3 May: the run for 4 May settles 2 and 3 May first, in order,
    // and then finds 4 May unfunded (the reserve held three days).
    f.clock.now = runOn('2028-05-04');
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    const days = await f.db.query<{ day: string }>(
      "SELECT day::text AS day FROM settlement_days WHERE product = 'test.catchup' AND status = 'settled' ORDER BY day",
    );
    expect(days.map((d) => d.day)).toEqual(['2028-05-01', '2028-05-02', '2028-05-03']);
    // 4 May is unfunded, so the run for 5 May tries it first and stops: 5 May is not paid before it.
    f.clock.now = runOn('2028-05-05');
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    expect(await f.paid('test.catchup', '2028-05-05')).toEqual({ entries: 0, holdings: 0, total: 0n });
    await f.fundReserve(2n * DAY_TOTAL, 'catchup-rest');
    // Funded, the next attempt of the same run pays 4 and 5 May.
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    expect(await f.paid('test.catchup')).toEqual({ entries: 5000, holdings: 1000, total: 5n * DAY_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await f.alertsOf('test.catchup')).toHaveLength(1);
  });

  it('refuses a product that pages out of order, and a reservation of the same page with other figures', async () => {
    const disorderly = f.savings('test.disorder', {
      pageHoldings: async () => [
        { id: 2, ownerId: f.owners[0] as number, principalMinor: 1_000_000n },
        { id: 1, ownerId: f.owners[0] as number, principalMinor: 1_000_000n },
      ],
    });
    await expect(f.runner().settleDay(disorderly, 'live', '2028-06-01')).rejects.toThrow(
      'increasing id order',
    );
    // A page's reservation is one hold, the same on every run: f.other figures are a conflict.
    const stale = await f.ledger.hold({
      book: 'live',
      accountId: f.reserve,
      amount: 1n,
      idempotencyKey: reservationKey('test.changed', 'live', '2028-06-01', 1),
      actor: 'test',
      reference: 'settlement:test.changed:2028-06-01',
    });
    await expect(f.runner().settleDay(f.savings('test.changed'), 'live', '2028-06-01')).rejects.toThrow(
      'was used for a different request',
    );
    expect(await f.paid('test.changed')).toEqual({ entries: 0, holdings: 0, total: 0n });
    await f.ledger.voidHold({
      holdId: stale.holdId,
      idempotencyKey: 'void-stale-reservation',
      actor: 'test',
    });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
  });
});
