// One day's earn settlement of N investments (default 100,000) on PostgreSQL (fsync and
// synchronous commit on), through the real path: EarnService.runDaily → the settlement runner →
// the ledger's group-commit batcher (one entry per investment with its income row, from the
// product's owed account to each customer's wallet). Beside it, in the same run and database, the
// conventional peer: a loop that posts one entry per transaction (entry, two postings, two balance
// updates, commit) into the same ledger tables, timed over LOOP entries (default 20,000) and
// projected to N at its measured rate.
// Usage: node bench/earn.ts [investments, default 100000] [loop entries, default 20000]
import pg from 'pg';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { EARN, LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { NoticesService } from '../apps/server/src/modules/notices/notices.service.ts';
import { openPostgres } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';
import { productBody, testEarn } from '../apps/server/src/test/earn.ts';

const N = Number(process.argv[2] ?? 100_000);
const LOOP = Number(process.argv[3] ?? 20_000);
const AMOUNT = 1_000_000_000n; // 1,000 USDT each
const DAY = '2027-06-01';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `swx_bench_earn_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const db = await openPostgres(url.toString());
try {
  await migrate(db);
  const audit = new AuditService(db);
  const ledger = new LedgerService(db, audit);
  await ledger.ensureSystemAccounts();
  const clock = { now: Date.parse(`${DAY}T00:05:00Z`) };
  const { earn, runner } = testEarn(
    { db, ledger, audit, notices: new NoticesService(db) },
    { now: () => clock.now },
  );
  const product = (
    await earn.createProduct('bench', productBody({ name: 'Bench 30', capacity: '1000000000' }))
  ).product;

  // Setup (not timed): N customers with their wallet and earn accounts, N investments in progress
  // that started on DAY, their principal in their earn accounts and their promised interest in
  // the product's owed account, moved by ledger entries like a purchase's.
  const t0 = performance.now();
  await db.query(
    `INSERT INTO users (user_name, password_hash) SELECT 'bench' || g, '$argon2id$bench' FROM generate_series(1, $1) g`,
    [N],
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
  const issuance = await ledger.systemAccount('demo', 'USDT', 'demo_issuance');
  await ledger.transfer({
    book: 'demo',
    kind: 'earn_reserve',
    idempotencyKey: 'bench-owed-funding',
    actor: 'bench',
    postings: [
      { accountId: issuance, amount: -(interest * BigInt(N)) },
      { accountId: owed, amount: interest * BigInt(N) },
    ],
  });
  console.log(`setup: ${N.toLocaleString('en')} investments in ${Math.round(performance.now() - t0)} ms`);
  await db.query('ANALYZE');

  // The day after DAY: the runner settles DAY.
  clock.now = Date.parse(`${DAY}T00:05:00Z`) + 86_400_000;
  const s0 = performance.now();
  const unfunded = await earn.runDaily(runner);
  const settleMs = performance.now() - s0;
  if (unfunded.length > 0) throw new Error(`unfunded: ${JSON.stringify(unfunded)}`);
  const paid = await db.query<{ n: string; sum: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(amount_minor), 0)::text AS sum FROM earn_incomes WHERE day = $1`,
    [DAY],
  );
  const expected = (AMOUNT * 120_000n * 1n) / (365n * 1_000_000n);
  if (paid[0]?.n !== String(N) || BigInt(paid[0]?.sum ?? 0) !== expected * BigInt(N))
    throw new Error(`paid ${paid[0]?.n} incomes totalling ${paid[0]?.sum}, expected ${N} × ${expected}`);

  // The peer: one entry per transaction, the conventional way, into the same tables.
  const wallets = await db.query<{ id: string }>(
    `SELECT id FROM ledger_accounts WHERE kind = 'wallet' AND book = 'demo' AND owner_id IS NOT NULL ORDER BY id LIMIT $1`,
    [LOOP],
  );
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const l0 = performance.now();
  for (let i = 0; i < LOOP; i++) {
    const accountId = Number(wallets[i % wallets.length]?.id);
    await client.query('BEGIN');
    const entry = await client.query<{ id: string }>(
      `INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, reference, actor)
       VALUES ('demo', 'earn_payout', $1, 'bench', 'bench', 'bench') RETURNING id`,
      [`bench-loop:${i}`],
    );
    const entryId = entry.rows[0]?.id;
    await client.query(
      `INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount) VALUES
       ($1, $2, 'demo', 'USDT', $3), ($1, $4, 'demo', 'USDT', $5)`,
      [entryId, owed, (-expected).toString(), accountId, expected.toString()],
    );
    await client.query('UPDATE ledger_accounts SET balance = balance - $2 WHERE id = $1', [
      owed,
      expected.toString(),
    ]);
    await client.query('UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1', [
      accountId,
      expected.toString(),
    ]);
    await client.query('COMMIT');
  }
  const loopMs = performance.now() - l0;
  await client.end();
  const loopRate = LOOP / (loopMs / 1000);
  const settleRate = N / (settleMs / 1000);
  const projected = (N / loopRate) * 1000;
  console.log('');
  console.log(`one day's settlement of ${N.toLocaleString('en')} investments on PostgreSQL`);
  console.log(
    `  earn settlement (runner + ledger batcher): ${(settleMs / 1000).toFixed(1)} s  (${Math.round(settleRate).toLocaleString('en')} entries/s)`,
  );
  console.log(
    `  loop, one entry per transaction:         ${Math.round(loopRate).toLocaleString('en')} entries/s over ${LOOP.toLocaleString('en')} (→ ${(projected / 1000).toFixed(1)} s for ${N.toLocaleString('en')})`,
  );
  console.log(`  ratio: ${(settleRate / loopRate).toFixed(1)}×`);
} finally {
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
