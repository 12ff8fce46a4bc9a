// Ledger throughput and latency: durable transfers per second and p99 latency on PGlite (on disk)
// and PostgreSQL, beside a bare floor measured in the same run (one transaction per transfer: the
// same balance updates, in id order, and one insert; no ledger rules, no batching).
// Three shapes: between 50 accounts; between 2 hot accounts; and the shape of a trade (each client
// a customer: its wallet, its margin and the one `fees` account of the book, which every trade
// touches). Each at 1, 8, 64 and 256 clients, each case RUNS times (floor and ledger alternating),
// printing the minimum, median and maximum, so a run that falls off a cliff shows.
// Usage: node bench/ledger.ts [seconds per run, default 3] [both|pglite|postgres, default both]
//        [runs per case, default 3]   (PostgreSQL: TEST_DATABASE_URL or
//        postgres://postgres@127.0.0.1:5432/postgres; the bench creates and drops its own database)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService, MARGIN } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { type Database, openPglite, openPostgres } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';

const SECONDS = Number(process.argv[2] ?? 3);
const WHERE = process.argv[3] ?? 'both';
const RUNS = Number(process.argv[4] ?? 3);
const CLIENTS = [1, 8, 64, 256];
const CUSTOMERS = Math.max(...CLIENTS);

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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const rate = (n: number) => n.toFixed(0).padStart(6);
const ms = (n: number) => n.toFixed(1).padStart(6);
/** Minimum, median and maximum of the runs' rates, and the median and worst p99. */
const spread = (runs: Figures[]) => {
  const rates = runs.map((f) => f.perSecond);
  const p99s = runs.map((f) => f.p99);
  return `${rate(Math.min(...rates))} ${rate(median(rates))} ${rate(Math.max(...rates))} /s  p99 ${ms(median(p99s))} (worst ${ms(Math.max(...p99s))}) ms`;
};

/** One transfer of a shape: its postings as (index into the bench's accounts, amount). */
type Leg = [account: number, amount: bigint];
type Shape = { name: string; legs: (client: number, i: number) => Leg[] };

/**
 * Account indexes: 0-49 the 50 wallets of the spread shape (0 and 1 also the hot pair), then per
 * customer c a wallet (50 + c) and a margin account (50 + CUSTOMERS + c), and last the fees account.
 */
const FEES = 50 + 2 * CUSTOMERS;
const SHAPES: Shape[] = [
  {
    name: '50 accounts',
    legs: (client, i) => {
      const a = (client * 31 + i * 7) % 50;
      const b = (a + 1 + ((i * 13) % 49)) % 50;
      return [
        [a, -1n],
        [b, 1n],
      ];
    },
  },
  {
    name: '2 hot accounts',
    legs: (_client, i) =>
      i % 2 === 0
        ? [
            [0, -1n],
            [1, 1n],
          ]
        : [
            [1, -1n],
            [0, 1n],
          ],
  },
  {
    // A trade: the customer's wallet pays margin and fee, its margin account takes the margin, the
    // book's one fees account takes the fee.
    name: 'trade (wallet, margin, fees)',
    legs: (client) => [
      [50 + client, -3n],
      [50 + CUSTOMERS + client, 2n],
      [FEES, 1n],
    ],
  },
];

/** The ledger on a migrated database, its customers' books open, and the bench's accounts by index. */
async function prepare(db: Database): Promise<{ ledger: LedgerService; accounts: number[] }> {
  await migrate(db);
  const ledger = new LedgerService(db, new AuditService(db));
  await ledger.ensureSystemAccounts();
  await db.exec(
    'CREATE TABLE IF NOT EXISTS bench_floor_accounts (id int PRIMARY KEY, balance numeric(78,0) NOT NULL); CREATE TABLE IF NOT EXISTS bench_floor_entries (id bigserial PRIMARY KEY, legs int, amount numeric(78,0), created_at timestamptz DEFAULT now())',
  );
  await db.query(
    'INSERT INTO bench_floor_accounts SELECT g, 1000000000000 FROM generate_series(0, $1) g ON CONFLICT DO NOTHING',
    [FEES],
  );
  const users = Array.from({ length: Math.max(50, CUSTOMERS) }, (_, i) => 70_000 + i);
  for (const u of users) await ledger.openCustomerBooks(u);
  const wallets = await Promise.all(users.map((u) => ledger.walletAccount('demo', u, 'USDT')));
  const margins = await Promise.all(
    users.slice(0, CUSTOMERS).map((u) => ledger.accountId('demo', u, 'USDT', MARGIN)),
  );
  const accounts = [
    ...wallets.slice(0, 50),
    ...wallets.slice(0, CUSTOMERS),
    ...margins,
    await ledger.systemAccount('demo', 'USDT', 'fees'),
  ];
  return { ledger, accounts };
}

/** The bare floor's transfer (its legs sorted in place): one transaction, the updates, one insert. */
async function floorTransfer(db: Database, legs: Leg[]): Promise<void> {
  // In id order, as any ledger must lock, or concurrent transfers deadlock.
  legs.sort(([a], [b]) => a - b);
  await db.transaction(async (tx) => {
    for (const [account, amount] of legs)
      await tx.query('UPDATE bench_floor_accounts SET balance = balance + $2 WHERE id = $1', [
        account,
        amount.toString(),
      ]);
    await tx.query('INSERT INTO bench_floor_entries (legs, amount) VALUES ($1, 1)', [legs.length]);
  });
}

/** One case (a shape at a number of clients): RUNS runs of the floor and of the ledger, alternating. */
async function benchCase(
  db: Database,
  { ledger, accounts }: { ledger: LedgerService; accounts: number[] },
  shape: Shape,
  clients: number,
  nextKey: () => string,
): Promise<{ floorRuns: Figures[]; ledgerRuns: Figures[]; avgBatch: number }> {
  const floorRuns: Figures[] = [];
  const ledgerRuns: Figures[] = [];
  const before = { ...ledger.stats };
  for (let run = 0; run < RUNS; run++) {
    floorRuns.push(await measure(clients, (client, i) => floorTransfer(db, shape.legs(client, i))));
    ledgerRuns.push(
      await measure(clients, async (client, i) => {
        await ledger.transfer({
          book: 'demo',
          kind: 'transfer',
          idempotencyKey: nextKey(),
          actor: 'bench',
          postings: shape.legs(client, i).map(([account, amount]) => ({
            accountId: accounts[account] as number,
            amount,
          })),
        });
      }),
    );
  }
  const batches = ledger.stats.batches - before.batches;
  const avgBatch = batches ? (ledger.stats.operations - before.operations) / batches : 0;
  return { floorRuns, ledgerRuns, avgBatch };
}

async function benchDatabase(label: string, db: Database): Promise<void> {
  const prepared = await prepare(db);
  let key = 0;
  const nextKey = () => `bench-${db.kind}-${key++}`;
  console.log(`\n${label}`);
  console.log(
    `  ${'shape'.padEnd(28)} clients | ledger /s: min median max, p99: median (worst), batch | bare floor, the same | ledger/floor (medians) | load (1 min)`,
  );
  for (const shape of SHAPES) {
    for (const clients of CLIENTS) {
      const { floorRuns, ledgerRuns, avgBatch } = await benchCase(db, prepared, shape, clients, nextKey);
      const ratio = median(ledgerRuns.map((f) => f.perSecond)) / median(floorRuns.map((f) => f.perSecond));
      console.log(
        `  ${shape.name.padEnd(28)} ${String(clients).padStart(7)} | ${spread(ledgerRuns)}, batch ${avgBatch.toFixed(1).padStart(5)} | ${spread(floorRuns)} | ${ratio.toFixed(2).padStart(5)}x | ${loadavg()[0]?.toFixed(2)}`,
      );
    }
  }
  const reconciled = await prepared.ledger.reconcile();
  console.log(
    `  reconciliation after the run: ${reconciled.length === 0 ? 'every balance matches its postings' : `${reconciled.length} accounts off`}`,
  );
}

console.log(
  `ledger bench: ${RUNS} runs of ${SECONDS} s per case, Node ${process.versions.node}, ${new Date().toISOString()}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
if (WHERE !== 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'swx-bench-pglite-'));
  const lite = await openPglite(dir);
  await benchDatabase('PGlite (on disk)', lite);
  await lite.close();
  rmSync(dir, { recursive: true, force: true });
}
if (WHERE !== 'pglite') {
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
}
