import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { type Database, openPostgres } from '../../platform/db.ts';
import { JobRunner } from '../../platform/jobs.ts';
import { createLogger } from '../../platform/logger.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { reconcileSubLedger, type SubLedger, subLedgerReconciliationJob } from './reconciliation.ts';
import {
  addDays,
  type Holding,
  reservationKey,
  type SettledProduct,
  SettlementRunner,
  settlementJob,
} from './settlement.ts';

/**
 * The settlement runner against the real ledger, on an injected clock. The product is a savings
 * account of this test: 1,000 holdings in its own table, holding i of 100·i USDT and 1,999 minor
 * units, paying 5 basis points a day rounded down, so holding i earns exactly 50,000·i minor units
 * (0.05·i USDT) a day: (100·i·10^6 + 1,999) · 5 / 10,000 = 50,000·i + 0.9995, rounded down.
 * "Two nodes" are two runners, each with its own ledger service (batcher) and, on PostgreSQL, its
 * own connection pool.
 */
let t: TestDatabase;
let other: Database;
let audit: AuditService;
let ledger: LedgerService;
let ledgerB: LedgerService;
let reserve: number;
let clearing: number;

const logger = createLogger({ logLevel: 'silent', nodeId: 'test' });
const HOLDINGS = 1000;
const OWNERS = 250;
/** Σ 50,000·i for i = 1..1,000 = 50,000 · 500,500 = 25,025,000,000 minor units (25,025 USDT) a day. */
const DAY_TOTAL = 25_025_000_000n;
const PAGE_1_TOTAL = 50_000n * ((500n * 501n) / 2n); // holdings 1..500: 50,000 · 125,250 = 6,262,500,000

let clock = 0;
const at = (day: string) => Date.parse(`${addDays(day, 1)}T00:30:00Z`); // half past midnight the day after

type Saving = Holding & { principalMinor: bigint };

function savings(name: string, over: Partial<SettledProduct<Saving>> = {}): SettledProduct<Saving> {
  return {
    name,
    books: ['live'],
    asset: 'USDT',
    source: 'yield_reserve',
    entryKind: 'earn_payout',
    pageHoldings: async (book, afterId, limit) =>
      (
        await t.db.query<{ id: string; owner_id: string; principal_minor: string }>(
          'SELECT id, owner_id, principal_minor FROM test_savings WHERE book = $1 AND id > $2 ORDER BY id LIMIT $3',
          [book, afterId, limit],
        )
      ).map((r) => ({
        id: Number(r.id),
        ownerId: Number(r.owner_id),
        principalMinor: BigInt(r.principal_minor),
      })),
    paymentFor: (holding) => (holding.principalMinor * 5n) / 10_000n,
    ...over,
  };
}

const runner = (l = ledger, db = t.db) =>
  new SettlementRunner({ db, ledger: l, audit, now: () => clock, logger });

let owners: number[] = [];

async function fundReserve(amount: bigint, key: string): Promise<void> {
  await ledger.transfer({
    book: 'live',
    kind: 'transfer',
    idempotencyKey: `fund-reserve:${key}`,
    actor: 'test',
    reference: 'reserve funding',
    postings: [
      { accountId: clearing, amount: -amount },
      { accountId: reserve, amount },
    ],
  });
}

const reserveNow = async () => {
  const account = await ledger.account(reserve);
  return { balance: account?.balance, held: account?.held };
};

/** Payments of one product: how many entries, how many distinct holdings, and their total. */
async function paid(product: string, day?: string) {
  const [row] = await t.db.query<{ entries: string; holdings: string; total: string | null }>(
    `SELECT count(DISTINCT e.id) AS entries, count(DISTINCT split_part(e.idempotency_key, ':', 3)) AS holdings,
       sum(p.amount) AS total
     FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id AND p.amount > 0
     WHERE e.idempotency_key LIKE $1`,
    [`settle:${product}:%${day ?? ''}`],
  );
  return { entries: Number(row?.entries), holdings: Number(row?.holdings), total: BigInt(row?.total ?? 0) };
}

const alertsOf = async (product: string) =>
  (await audit.openAlerts()).filter((a) => a.kind === 'settlement' && a.message.includes(` ${product} `));

beforeAll(async () => {
  t = await openTestDatabase();
  other = t.url ? await openPostgres(t.url) : t.db;
  audit = new AuditService(t.db);
  ledger = new LedgerService(t.db, audit);
  ledgerB = new LedgerService(other, new AuditService(other));
  await ledger.ensureSystemAccounts();
  reserve = await ledger.systemAccount('live', 'USDT', 'yield_reserve');
  clearing = await ledger.systemAccount('live', 'USDT', 'external_clearing');
  owners = (
    await t.db.query<{ id: string }>(
      `INSERT INTO users (user_name, password_hash)
       SELECT 'saver' || g, '$argon2id$test' FROM generate_series(1, ${OWNERS}) g RETURNING id`,
    )
  ).map((r) => Number(r.id));
  await t.db.exec(`CREATE TABLE test_savings (
    id bigserial PRIMARY KEY, owner_id bigint NOT NULL, book text NOT NULL, principal_minor numeric(78,0) NOT NULL)`);
  await t.db.query(
    `INSERT INTO test_savings (owner_id, book, principal_minor)
     SELECT ($1::bigint[])[(g - 1) % ${OWNERS} + 1], 'live', g::numeric * 100000000 + 1999 FROM generate_series(1, ${HOLDINGS}) g`,
    [owners],
  );
}, 120_000);

afterAll(async () => {
  if (other !== t.db) await other.close();
  await t.close();
});

afterEach(async () => {
  const invariants = await ledger.invariants();
  expect(invariants.unbalanced).toEqual([]);
  expect(invariants.negativeCustomers).toEqual([]);
  expect(await ledger.reconcile()).toEqual([]);
  expect((await audit.verify()).ok).toBe(true);
}, 120_000);

describe(`daily settlement on ${TEST_DB}`, () => {
  const year = savings('test.savings');
  const jobName = 'settlement.test.savings';

  it('365 days over 1,000 holdings: one posting per (holding, day), exact to the minor unit, the reserve exactly spent', async () => {
    // The year's yield: 25,025,000,000 · 365 = 9,134,125,000,000 minor units (9,134,125 USDT).
    const yearTotal = DAY_TOTAL * 365n;
    expect(yearTotal).toBe(9_134_125_000_000n);
    await fundReserve(yearTotal, 'year');
    const jobs = new JobRunner(t.db, 'node-a', logger);
    jobs.register(settlementJob(runner(), year));
    const started = performance.now();
    for (let d = 0; d < 365; d++) {
      clock = at(addDays('2027-01-01', d));
      expect(await jobs.tick(jobName)).toBe(true);
    }
    console.info(
      `settlement on ${TEST_DB}: 365 days × 1,000 holdings (365,000 entries) in ${Math.round(performance.now() - started)} ms`,
    );

    expect(await paid('test.savings')).toEqual({ entries: 365_000, holdings: HOLDINGS, total: yearTotal });
    // Exactly one entry per (holding, day): 365 per holding, 1,000 per day.
    const perHolding = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ledger_entries WHERE idempotency_key LIKE 'settle:test.savings:%'
       GROUP BY split_part(idempotency_key, ':', 3) HAVING count(*) <> 365`,
    );
    expect(perHolding).toEqual([]);
    const perDay = await t.db.query<{ day: string; n: string }>(
      `SELECT split_part(idempotency_key, ':', 4) AS day, count(*) AS n FROM ledger_entries
       WHERE idempotency_key LIKE 'settle:test.savings:%' GROUP BY 1 HAVING count(*) <> 1000`,
    );
    expect(perDay).toEqual([]);
    // Owner c (0-based) holds i = c+1, c+251, c+501, c+751: Σ i = 4c + 1,504, so a year pays
    // 50,000 · (4c + 1,504) · 365 minor units into their wallet.
    for (const [c, owner] of owners.entries()) {
      const usdt = (await ledger.balances('live', owner)).find((b) => b.asset === 'USDT');
      expect(usdt?.balance).toBe(50_000n * (4n * BigInt(c) + 1504n) * 365n);
    }
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    const days = await t.db.query<{ n: string; payments: string; paid: string }>(
      "SELECT count(*) AS n, min(payments) || '-' || max(payments) AS payments, sum(paid_minor) AS paid FROM settlement_days WHERE product = 'test.savings' AND status = 'settled'",
    );
    expect(days[0]).toEqual({ n: '365', payments: '1000-1000', paid: yearTotal.toString() });
  }, 1_200_000);

  it('rerunning any day changes nothing: not by its job, not by the runner, not even with its record forgotten', async () => {
    const before = await paid('test.savings');
    const entries = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries');
    const jobsA = new JobRunner(t.db, 'node-a', logger);
    const jobsB = new JobRunner(other, 'node-b', logger);
    jobsA.register(settlementJob(runner(), year));
    jobsB.register(settlementJob(runner(ledgerB, other), year));
    for (const day of ['2027-01-01', '2027-06-15', '2027-12-31']) {
      clock = at(day);
      expect(await jobsA.tick(jobName)).toBe(false);
      expect(await jobsB.tick(jobName)).toBe(false);
      expect(await runner().settleDay(year, 'live', day)).toEqual({
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
    await t.db.query("DELETE FROM settlement_days WHERE product = 'test.savings' AND day = '2027-06-15'");
    expect(await runner(ledgerB, other).settleDay(year, 'live', '2027-06-15')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await paid('test.savings')).toEqual(before);
    expect(await t.db.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries')).toEqual(entries);
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await alertsOf('test.savings')).toEqual([]);
  });

  it('paymentFor throws at holding 700 the first time: the first page is paid, the rerun pays the rest exactly once', async () => {
    let thrown = false;
    const product = savings('test.crash-before', {
      paymentFor: (holding) => {
        if (holding.id === 700 && !thrown) {
          thrown = true;
          throw new Error('the product fell over at holding 700');
        }
        return (holding.principalMinor * 5n) / 10_000n;
      },
    });
    await fundReserve(DAY_TOTAL, 'crash-before');
    clock = at('2028-01-01');
    await expect(runner().settleDay(product, 'live', '2027-12-31')).rejects.toThrow('holding 700');
    // Page 1 (holdings 1..500) was paid and its reservation released; nothing of page 2.
    expect(await paid('test.crash-before')).toEqual({ entries: 500, holdings: 500, total: PAGE_1_TOTAL });
    expect(await reserveNow()).toEqual({ balance: DAY_TOTAL - PAGE_1_TOTAL, held: 0n });
    expect(await runner().settleDay(product, 'live', '2027-12-31')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await paid('test.crash-before')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
  });

  it('a run that dies mid-page (after 499 of its 500 payments): the rerun pays the one left, on a reserve funded to the minor unit', async () => {
    let thrown = false;
    const product = savings('test.crash-mid', {
      reference: (holding) => {
        if (holding.id === 700 && !thrown) {
          thrown = true;
          throw new Error('the run died paying holding 700');
        }
        return `test.crash-mid:${holding.id}`;
      },
    });
    await fundReserve(DAY_TOTAL, 'crash-mid');
    clock = at('2028-01-01');
    await expect(runner().settleDay(product, 'live', '2027-12-31')).rejects.toThrow('holding 700');
    // Page 2 is reserved (its hold pending: 50,000 · Σ 501..1,000 = 50,000 · 375,250) and paid but for holding 700.
    const page2Total = DAY_TOTAL - PAGE_1_TOTAL;
    expect(page2Total).toBe(50_000n * 375_250n);
    expect(await paid('test.crash-mid')).toEqual({
      entries: 999,
      holdings: 999,
      total: DAY_TOTAL - 50_000n * 700n,
    });
    // The reserve keeps exactly holding 700's 35,000,000 and holds the page: it "has" nothing
    // unreserved, yet the rerun must see that its own reservation covers what is left.
    expect(await reserveNow()).toEqual({ balance: 35_000_000n, held: page2Total });
    expect(await runner(ledgerB, other).settleDay(product, 'live', '2027-12-31')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await paid('test.crash-mid')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await alertsOf('test.crash-mid')).toEqual([]);
  });

  it('two nodes on the same day: one claims the job; two runners at once (a lease taken over) still pay each holding once', async () => {
    const product = savings('test.twice');
    await fundReserve(2n * DAY_TOTAL, 'twice');
    const jobsA = new JobRunner(t.db, 'node-a', logger);
    const jobsB = new JobRunner(other, 'node-b', logger);
    jobsA.register(settlementJob(runner(), product));
    jobsB.register(settlementJob(runner(ledgerB, other), product));
    clock = at('2028-02-01');
    const claims = await Promise.all([
      jobsA.tick('settlement.test.twice'),
      jobsB.tick('settlement.test.twice'),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await paid('test.twice', '2028-02-01')).toEqual({
      entries: 1000,
      holdings: 1000,
      total: DAY_TOTAL,
    });

    // Bypassing the job's claim: both runners on the same day at once, on a reserve that covers the day exactly once.
    const both = await Promise.all([
      runner().settleDay(product, 'live', '2028-02-02'),
      runner(ledgerB, other).settleDay(product, 'live', '2028-02-02'),
    ]);
    for (const result of both)
      expect(result).toMatchObject({ status: 'settled', payments: 1000, paidMinor: DAY_TOTAL });
    expect(await paid('test.twice', '2028-02-02')).toEqual({
      entries: 1000,
      holdings: 1000,
      total: DAY_TOTAL,
    });
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await alertsOf('test.twice')).toEqual([]);
  });

  it('an empty reserve pays nothing and alerts staff once; funded, the next run pays the day', async () => {
    const product = savings('test.unfunded');
    const jobs = new JobRunner(t.db, 'node-a', logger);
    jobs.register(settlementJob(runner(), product));
    clock = at('2028-03-01');
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await runner().settleDay(product, 'live', '2028-03-01')).toEqual({
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
    expect(await runner(ledgerB, other).settleDay(product, 'live', '2028-03-01')).toMatchObject({
      status: 'unfunded',
    });
    expect(await paid('test.unfunded')).toEqual({ entries: 0, holdings: 0, total: 0n });
    const alerts = await alertsOf('test.unfunded');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.message).toContain('cannot cover 6262500000 minor units');
    // The day's first page keeps its claim on the reserve: nothing else may drain it first.
    expect(await reserveNow()).toEqual({ balance: 0n, held: PAGE_1_TOTAL });
    const [run] = await t.db.query<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM job_runs WHERE job = 'settlement.test.unfunded'",
    );
    expect(run).toEqual({ status: 'failed', attempts: 1 });

    await fundReserve(DAY_TOTAL, 'unfunded');
    expect(await jobs.tick('settlement.test.unfunded')).toBe(true);
    expect(await paid('test.unfunded')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await alertsOf('test.unfunded')).toHaveLength(1);
  });

  it('a reserve that covers the first page only: that page is paid, the rest of the day nothing, one alert', async () => {
    const product = savings('test.short');
    await fundReserve(PAGE_1_TOTAL + 1n, 'short');
    clock = at('2028-04-01');
    const result = await runner().settleDay(product, 'live', '2028-04-01');
    // Page 2 needs 50,000 · 375,250 = 18,762,500,000; the reserve has the one minor unit left.
    expect(result).toMatchObject({
      status: 'unfunded',
      payments: 500,
      paidMinor: PAGE_1_TOTAL,
      shortfall: { firstHoldingId: 501, neededMinor: DAY_TOTAL - PAGE_1_TOTAL, availableMinor: 1n },
    });
    expect(await paid('test.short')).toEqual({ entries: 500, holdings: 500, total: PAGE_1_TOTAL });
    expect(await alertsOf('test.short')).toHaveLength(1);
    // Staff fund the rest (less the unit already there); the day completes without a second alert.
    await fundReserve(DAY_TOTAL - PAGE_1_TOTAL - 1n, 'short-rest');
    expect(await runner().settleDay(product, 'live', '2028-04-01')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await alertsOf('test.short')).toHaveLength(1);
  });

  it('a missed day is caught up first, and the day after an unfunded one waits for it', async () => {
    const product = savings('test.catchup');
    const jobs = new JobRunner(t.db, 'node-a', logger);
    jobs.register(settlementJob(runner(), product));
    await fundReserve(3n * DAY_TOTAL, 'catchup');
    clock = at('2028-05-01');
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    // The nodes were down on 2 and 3 May: the run for 4 May settles 2 and 3 May first, in order,
    // and then finds 4 May unfunded (the reserve held three days).
    clock = at('2028-05-04');
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    const days = await t.db.query<{ day: string }>(
      "SELECT day::text AS day FROM settlement_days WHERE product = 'test.catchup' AND status = 'settled' ORDER BY day",
    );
    expect(days.map((d) => d.day)).toEqual(['2028-05-01', '2028-05-02', '2028-05-03']);
    // 4 May is unfunded, so the run for 5 May tries it first and stops: 5 May is not paid before it.
    clock = at('2028-05-05');
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    expect(await paid('test.catchup', '2028-05-05')).toEqual({ entries: 0, holdings: 0, total: 0n });
    await fundReserve(2n * DAY_TOTAL, 'catchup-rest');
    // Funded, the next attempt of the same run pays 4 and 5 May.
    expect(await jobs.tick('settlement.test.catchup')).toBe(true);
    expect(await paid('test.catchup')).toEqual({ entries: 5000, holdings: 1000, total: 5n * DAY_TOTAL });
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
    expect(await alertsOf('test.catchup')).toHaveLength(1);
  });

  it('refuses a product that pages out of order, and a reservation of the same page with other figures', async () => {
    const disorderly = savings('test.disorder', {
      pageHoldings: async () => [
        { id: 2, ownerId: owners[0] as number, principalMinor: 1_000_000n },
        { id: 1, ownerId: owners[0] as number, principalMinor: 1_000_000n },
      ],
    });
    await expect(runner().settleDay(disorderly, 'live', '2028-06-01')).rejects.toThrow('increasing id order');
    // A page's reservation is one hold, the same on every run: other figures are a conflict.
    const stale = await ledger.hold({
      book: 'live',
      accountId: reserve,
      amount: 1n,
      idempotencyKey: reservationKey('test.changed', 'live', '2028-06-01', 1),
      actor: 'test',
      reference: 'settlement:test.changed:2028-06-01',
    });
    await expect(runner().settleDay(savings('test.changed'), 'live', '2028-06-01')).rejects.toThrow(
      'was used for a different request',
    );
    expect(await paid('test.changed')).toEqual({ entries: 0, holdings: 0, total: 0n });
    await ledger.voidHold({ holdId: stale.holdId, idempotencyKey: 'void-stale-reservation', actor: 'test' });
    expect(await reserveNow()).toEqual({ balance: 0n, held: 0n });
  });
});

describe(`sub-ledger reconciliation on ${TEST_DB}`, () => {
  // A product whose principal sits in each owner's `savings` account: the account must equal the
  // sum of the owner's holdings.
  const principal: SubLedger = {
    name: 'test.savings-principal',
    accountKind: 'savings',
    asset: 'USDT',
    expected: async () =>
      (
        await t.db.query<{ owner_id: string; total: string }>(
          "SELECT owner_id, sum(principal_minor) AS total FROM test_savings WHERE book = 'live' GROUP BY owner_id",
        )
      ).map((r) => ({ book: 'live' as const, ownerId: Number(r.owner_id), amount: BigInt(r.total) })),
    alertMessage: (count) => `savings reconciliation: ${count} owner(s) whose savings account differs`,
  };

  it('an account equal to its holdings passes; a stray posting is named and alerted once a day', async () => {
    const rows = await principal.expected();
    for (const row of rows)
      await ledger.transfer({
        book: 'live',
        kind: 'transfer',
        idempotencyKey: `principal:${row.ownerId}`,
        actor: 'test',
        postings: [
          { accountId: clearing, amount: -row.amount },
          { accountId: await ledger.accountId('live', row.ownerId, 'USDT', 'savings'), amount: row.amount },
        ],
      });
    expect(await reconcileSubLedger(principal, ledger, audit)).toEqual([]);

    const owner = owners[7] as number;
    const stray = await ledger.transfer({
      book: 'live',
      kind: 'transfer',
      idempotencyKey: `stray-savings:${owner}`,
      actor: 'test',
      postings: [
        { accountId: await ledger.walletAccount('live', owner, 'USDT'), amount: -1n },
        { accountId: await ledger.accountId('live', owner, 'USDT', 'savings'), amount: 1n },
      ],
    });
    const expected = rows.find((r) => r.ownerId === owner)?.amount ?? 0n;
    const jobs = new JobRunner(t.db, 'node-a', logger);
    jobs.register(subLedgerReconciliationJob(principal, ledger, audit));
    const now = new Date('2028-07-01T01:00:00Z');
    expect(await jobs.tick('test.savings-principal-reconciliation', now)).toBe(true);
    expect(await jobs.tick('test.savings-principal-reconciliation', now)).toBe(false);
    const alerts = (await audit.openAlerts()).filter((a) => a.message.startsWith('savings reconciliation'));
    expect(alerts.map((a) => a.message)).toEqual([
      'savings reconciliation: 1 owner(s) whose savings account differs',
    ]);
    expect(JSON.parse(alerts[0]?.data ?? '{}').differences).toEqual([
      { book: 'live', ownerId: owner, ledger: (expected + 1n).toString(), holdings: expected.toString() },
    ]);
    await ledger.reverse(stray.entryId, {
      actor: 'test',
      reason: 'undo the stray',
      idempotencyKey: `undo-stray:${owner}`,
    });
    expect(await reconcileSubLedger(principal, ledger, audit)).toEqual([]);
  });
});
