// Ledger throughput and latency: durable transfers per second and p99 latency on PGlite (on disk)
// and PostgreSQL, at 1, 8 and 64 concurrent clients, between 50 accounts and between 2 hot
// accounts, beside a bare floor measured in the same run (one transaction per transfer: two
// balance updates and one insert, no ledger rules, no batching).
// Usage: node bench/ledger.ts [seconds per case, default 3]   (PostgreSQL: TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/postgres; the bench creates and drops its own database)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { type Database, openPglite, openPostgres } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';

const SECONDS = Number(process.argv[2] ?? 3);
const CLIENTS = [1, 8, 64];
const ACCOUNT_SETS = [50, 2];

type Figures = { perSecond: number; p50: number; p99: number; count: number };

async function measure(
  clients: number,
  op: (client: number, i: number) => Promise<unknown>,
): Promise<Figures> {
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  let i = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < end) {
        const start = performance.now();
        await op(client, i++);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), count: latencies.length };
}

const fmt = (f: Figures) =>
  `${f.perSecond.toFixed(0).padStart(6)} /s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms`;

async function benchDatabase(label: string, db: Database): Promise<void> {
  await migrate(db);
  const ledger = new LedgerService(db, new AuditService(db));
  await ledger.ensureSystemAccounts();
  await db.exec(
    'CREATE TABLE IF NOT EXISTS bench_floor_accounts (id int PRIMARY KEY, balance numeric(78,0) NOT NULL); CREATE TABLE IF NOT EXISTS bench_floor_entries (id bigserial PRIMARY KEY, from_id int, to_id int, amount numeric(78,0), created_at timestamptz DEFAULT now())',
  );
  await db.query(
    'INSERT INTO bench_floor_accounts SELECT g, 1000000000000 FROM generate_series(1, 50) g ON CONFLICT DO NOTHING',
  );
  const users = Array.from({ length: 50 }, (_, i) => 70_000 + i);
  for (const u of users) await ledger.openCustomerBooks(u);
  const wallets = await Promise.all(users.map((u) => ledger.walletAccount('demo', u, 'USDT')));
  let run = 0;
  console.log(`\n${label}`);
  for (const accounts of ACCOUNT_SETS) {
    for (const clients of CLIENTS) {
      run += 1;
      const pick = (client: number, i: number): [number, number] => {
        if (accounts === 2) return i % 2 === 0 ? [0, 1] : [1, 0];
        const a = (client * 31 + i * 7) % 50;
        const b = (a + 1 + ((i * 13) % 49)) % 50;
        return [a, b];
      };
      const floor = await measure(clients, async (client, i) => {
        const [a, b] = pick(client, i);
        // In id order, as any ledger must lock, or concurrent transfers deadlock.
        const [first, second] = a < b ? [a, b] : [b, a];
        await db.transaction(async (tx) => {
          await tx.query('UPDATE bench_floor_accounts SET balance = balance + $2 WHERE id = $1', [
            first + 1,
            first === a ? -1 : 1,
          ]);
          await tx.query('UPDATE bench_floor_accounts SET balance = balance + $2 WHERE id = $1', [
            second + 1,
            second === a ? -1 : 1,
          ]);
          await tx.query('INSERT INTO bench_floor_entries (from_id, to_id, amount) VALUES ($1, $2, 1)', [
            a + 1,
            b + 1,
          ]);
        });
      });
      const before = { ...ledger.stats };
      const figures = await measure(clients, async (client, i) => {
        const [a, b] = pick(client, i);
        await ledger.transfer({
          book: 'demo',
          kind: 'transfer',
          idempotencyKey: `bench-${label}-${run}-${i}`,
          actor: 'bench',
          postings: [
            { accountId: wallets[a] as number, amount: -1n },
            { accountId: wallets[b] as number, amount: 1n },
          ],
        });
      });
      const batches = ledger.stats.batches - before.batches;
      const avgBatch = batches ? (ledger.stats.operations - before.operations) / batches : 0;
      console.log(
        `  ${String(accounts).padStart(2)} accounts, ${String(clients).padStart(2)} clients | ledger ${fmt(figures)} (avg batch ${avgBatch.toFixed(1)}) | bare floor ${fmt(floor)} | ${(figures.perSecond / floor.perSecond).toFixed(2)}x`,
      );
    }
  }
  const reconciled = await ledger.reconcile();
  console.log(
    `  reconciliation after the run: ${reconciled.length === 0 ? 'every balance matches its postings' : `${reconciled.length} accounts off`}`,
  );
}

console.log(
  `ledger bench: ${SECONDS} s per case, Node ${process.versions.node}, ${new Date().toISOString()}`,
);
const dir = mkdtempSync(join(tmpdir(), 'swx-bench-pglite-'));
const lite = await openPglite(dir);
await benchDatabase('PGlite (on disk)', lite);
await lite.close();
rmSync(dir, { recursive: true, force: true });

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `swx_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const pgDb = await openPostgres(url.toString());
const settings = await pgDb.query<{ fsync: string; synchronous_commit: string }>(
  'SELECT current_setting($1) AS fsync, current_setting($2) AS synchronous_commit',
  ['fsync', 'synchronous_commit'],
);
await benchDatabase(
  `PostgreSQL (fsync=${settings[0]?.fsync}, synchronous_commit=${settings[0]?.synchronous_commit}, pool 16)`,
  pgDb,
);
await pgDb.close();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
