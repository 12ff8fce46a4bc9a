// What the settlement benches share: a fresh migrated PostgreSQL database per run, and one day's
// earn settlement of N investments through the real path (EarnService.runDaily → the settlement
// runner → the ledger's batcher), the figure other daily runs are set beside (bench/earn.ts,
// bench/invites.ts).
import pg from 'pg';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { EARN, LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { NoticesService } from '../apps/server/src/modules/notices/notices.service.ts';
import { SETTLEMENT_PAGE } from '../apps/server/src/modules/products/settlement.ts';
import { type Database, openPostgres } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';
import { productBody, testEarn } from '../apps/server/src/test/earn.ts';

const AMOUNT = 1_000_000_000n; // 1,000 USDT each
const DAY = '2027-06-01';

/** A new database on the test server (TEST_DATABASE_URL), migrated; `drop` closes and removes it. */
export async function benchDatabase(
  tag: string,
): Promise<{ db: Database; url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `swx_bench_${tag}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  await migrate(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * One day's earn settlement of `n` investments on `db`: set up (not timed) N customers with their
 * wallet and earn accounts and N investments in progress that started on DAY, their promised
 * interest in the product's owed account; then the day after DAY, `runDaily` settles DAY (timed),
 * and every income is checked. Answers the times, the owed account and one day's income.
 */
export async function earnSettlementDay(db: Database, n: number) {
  const audit = new AuditService(db);
  const ledger = new LedgerService(db, audit);
  await ledger.ensureSystemAccounts();
  const clock = { now: Date.parse(`${DAY}T00:05:00Z`) };
  const { earn, runner } = testEarn(
    { db, ledger, audit, notices: new NoticesService(db) },
    // The page the platform's daily runs take (product.ts), not the runner's default.
    { now: () => clock.now, pageSize: SETTLEMENT_PAGE },
  );
  const product = (
    await earn.createProduct('bench', productBody({ name: 'Bench 30', capacity: '1000000000' }))
  ).product;
  const t0 = performance.now();
  await db.query(
    `INSERT INTO users (user_name, password_hash) SELECT 'bench' || g, '$argon2id$bench' FROM generate_series(1, $1) g`,
    [n],
  );
  await db.query(
    `INSERT INTO ledger_accounts (book, owner_id, asset, kind, allow_negative)
     SELECT 'demo', u.id, 'USDT', k, false FROM users u CROSS JOIN (VALUES ('wallet'), ('${EARN}')) v(k)
     WHERE u.user_name LIKE 'bench%'`,
  );
  const interest = (AMOUNT * 120_000n * 30n) / (365n * 1_000_000n);
  await db.query(
    `INSERT INTO earn_investments (product_id, user_id, book, asset, amount_minor, income, term_days, annual_rate_ppm,
       penalty_ppm, total_interest, one_per_customer, pay_with, status, request_key, accrual_start, end_day)
     SELECT $1, u.id, 'demo', 'USDT', $2, 'static', 30, 120000, 20000, $3, false, 'balance', 'in_progress',
       'bench:' || u.id, $4::date, $4::date + 29
     FROM users u WHERE u.user_name LIKE 'bench%' ORDER BY u.id`,
    [product.id, AMOUNT.toString(), interest.toString(), DAY],
  );
  const owed = await earn.owedAccount('demo', { id: product.id, asset: 'USDT' });
  await ledger.transfer({
    book: 'demo',
    kind: 'earn_reserve',
    idempotencyKey: 'bench-owed-funding',
    actor: 'bench',
    postings: [
      {
        accountId: await ledger.systemAccount('demo', 'USDT', 'demo_issuance'),
        amount: -(interest * BigInt(n)),
      },
      { accountId: owed, amount: interest * BigInt(n) },
    ],
  });
  const setupMs = performance.now() - t0;
  await db.query('ANALYZE');
  clock.now += 86_400_000;
  const s0 = performance.now();
  const unfunded = await earn.runDaily(runner);
  const settleMs = performance.now() - s0;
  if (unfunded.length > 0) throw new Error(`unfunded: ${JSON.stringify(unfunded)}`);
  const expected = (AMOUNT * 120_000n * 1n) / (365n * 1_000_000n);
  const paid = await db.query<{ n: string; sum: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(amount_minor), 0)::text AS sum FROM earn_incomes WHERE day = $1`,
    [DAY],
  );
  if (paid[0]?.n !== String(n) || BigInt(paid[0]?.sum ?? 0) !== expected * BigInt(n))
    throw new Error(`paid ${paid[0]?.n} incomes totalling ${paid[0]?.sum}, expected ${n} × ${expected}`);
  return { setupMs, settleMs, owed, expected };
}
