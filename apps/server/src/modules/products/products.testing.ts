import { expect } from 'vitest';
import { openTestDatabase, openTestPool, type TestDatabase } from '../../../../../tests/support/db.ts';
import type { Database } from '../../platform/db.ts';
import { createLogger } from '../../platform/logger.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { addDays, type Holding, type SettledProduct, SettlementRunner } from './settlement.ts';

/**
 * What the products database tests build on: a savings product of the tests' own, with 1,000
 * holdings in its own table (`test_savings`) over 250 customers. Holding i holds 100·i USDT and
 * 1,999 minor units and earns 5 basis points a day, rounded down: (100·i·10^6 + 1,999) · 5 / 10,000
 * = 50,000·i + 0.9995, so exactly 50,000·i minor units (0.05·i USDT) a day; owner c (0-based)
 * holds i = c+1, c+251, c+501 and c+751. "Two nodes" are two ledger services (two batchers) and,
 * on PostgreSQL, two connection pools.
 */
export const HOLDINGS = 1000;
export const OWNERS = 250;
/** Σ 50,000·i for i = 1..1,000 = 50,000 · 500,500 = 25,025,000,000 minor units (25,025 USDT) a day. */
export const DAY_TOTAL = 25_025_000_000n;
/** Holdings 1..500 (the first page of 500): 50,000 · Σ 1..500 = 50,000 · 125,250 = 6,262,500,000. */
export const PAGE_1_TOTAL = 6_262_500_000n;

export type Saving = Holding & { principalMinor: bigint };

/** The clock of a run that settles `day`: half past midnight (UTC) the day after. */
export const runOn = (day: string) => Date.parse(`${addDays(day, 1)}T00:30:00Z`);

export type SavingsFixture = Awaited<ReturnType<typeof openSavingsFixture>>;

/** The savings table: HOLDINGS holdings of the tests' own over OWNERS customers; answers the owners' ids. */
async function seedSavings(db: Database): Promise<number[]> {
  const owners = (
    await db.query<{ id: string }>(
      `INSERT INTO users (user_name, password_hash)
       SELECT 'saver' || g, '$argon2id$test' FROM generate_series(1, ${OWNERS}) g RETURNING id`,
    )
  ).map((r) => Number(r.id));
  await db.exec(`CREATE TABLE test_savings (
    id bigserial PRIMARY KEY, owner_id bigint NOT NULL, book text NOT NULL, principal_minor numeric(78,0) NOT NULL)`);
  await db.query(
    `INSERT INTO test_savings (owner_id, book, principal_minor)
     SELECT ($1::bigint[])[(g - 1) % ${OWNERS} + 1], 'live', g::numeric * 100000000 + 1999
     FROM generate_series(1, ${HOLDINGS}) g`,
    [owners],
  );
  return owners;
}

/** The savings product under `name` (its own keys), with any part of its declaration replaced. */
function savingsProduct(
  db: Database,
  name: string,
  over: Partial<SettledProduct<Saving>> = {},
): SettledProduct<Saving> {
  return {
    name,
    books: ['live'],
    asset: 'USDT',
    source: 'yield_reserve',
    entryKind: 'earn_payout',
    pageHoldings: async (book, afterId, limit) =>
      (
        await db.query<{ id: string; owner_id: string; principal_minor: string }>(
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

/**
 * Payments of one product (on one day): `entries` counts payments (one per holding and day: an
 * entry of its own under the settlement key, or a compound entry's posting under it), distinct
 * holdings paid, and their total.
 */
async function paidOf(db: Database, product: string, day?: string) {
  const [row] = await db.query<{ entries: string; holdings: string; total: string | null }>(
    `WITH payments AS (
       SELECT e.idempotency_key AS key, p.amount
       FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id AND p.amount > 0
       WHERE e.idempotency_key LIKE $1
       UNION ALL
       SELECT p.idempotency_key, p.amount FROM ledger_postings p
       WHERE p.idempotency_key IS NOT NULL AND p.idempotency_key LIKE $1
     )
     SELECT count(DISTINCT key) AS entries, count(DISTINCT split_part(key, ':', 3)) AS holdings,
       sum(amount) AS total
     FROM payments`,
    [`settle:${product}:%${day ?? ''}`],
  );
  return {
    entries: Number(row?.entries),
    holdings: Number(row?.holdings),
    total: BigInt(row?.total ?? 0),
  };
}

/** The ledger is sound: zero sum, no customer below zero, balances = postings, audit chain intact. */
async function expectSound(ledger: LedgerService, audit: AuditService): Promise<void> {
  const invariants = await ledger.invariants();
  expect(invariants.unbalanced).toEqual([]);
  expect(invariants.negativeCustomers).toEqual([]);
  expect(await ledger.reconcile()).toEqual([]);
  expect((await audit.verify()).ok).toBe(true);
}

async function fundFromClearing(
  ledger: LedgerService,
  accounts: { clearing: number; reserve: number },
  amount: bigint,
  key: string,
): Promise<void> {
  await ledger.transfer({
    book: 'live',
    kind: 'transfer',
    idempotencyKey: `fund-reserve:${key}`,
    actor: 'test',
    reference: 'reserve funding',
    postings: [
      { accountId: accounts.clearing, amount: -amount },
      { accountId: accounts.reserve, amount },
    ],
  });
}

export async function openSavingsFixture() {
  const t: TestDatabase = await openTestDatabase();
  const other: Database = t.url ? await openTestPool(t.url) : t.db;
  const logger = createLogger({ logLevel: 'silent', nodeId: 'test' });
  const audit = new AuditService(t.db);
  const ledger = new LedgerService(t.db, audit);
  const ledgerB = new LedgerService(other, new AuditService(other));
  await ledger.ensureSystemAccounts();
  const reserve = await ledger.systemAccount('live', 'USDT', 'yield_reserve');
  const clearing = await ledger.systemAccount('live', 'USDT', 'external_clearing');
  const owners = await seedSavings(t.db);
  const clock = { now: 0 };

  return {
    db: t.db,
    /** The second node's connection (PGlite has one). */
    other,
    logger,
    audit,
    ledger,
    ledgerB,
    reserve,
    clearing,
    owners,
    clock,
    savings: (name: string, over: Partial<SettledProduct<Saving>> = {}) => savingsProduct(t.db, name, over),

    /** A runner on the test clock, of the first node or of the second. */
    runner(node: 'a' | 'b' = 'a'): SettlementRunner {
      return new SettlementRunner({
        db: node === 'a' ? t.db : other,
        ledger: node === 'a' ? ledger : ledgerB,
        audit,
        now: () => clock.now,
        logger,
      });
    },

    /** Money into the live USDT yield reserve, as the operator funds it. */
    fundReserve: (amount: bigint, key: string) =>
      fundFromClearing(ledger, { clearing, reserve }, amount, key),

    async reserveNow() {
      const account = await ledger.account(reserve);
      return { balance: account?.balance, held: account?.held };
    },
    paid: (product: string, day?: string) => paidOf(t.db, product, day),
    async alertsOf(product: string) {
      return (await audit.openAlerts()).filter(
        (a) => a.kind === 'settlement' && a.message.includes(` ${product} `),
      );
    },
    expectSound: () => expectSound(ledger, audit),

    async close(): Promise<void> {
      if (other !== t.db) await other.close();
      await t.close();
    },
  };
}
