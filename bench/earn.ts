// One day's earn settlement of N investments (default 100,000) through the real path:
// EarnService.runDaily → the settlement runner → the ledger's compound entries (one per page of
// holdings: the owed account debited once, each customer's wallet credited by its own posting, the
// income rows, the reservation and the audit in one transaction per page), on PostgreSQL (fsync
// and synchronous commit on) and on PGlite (in memory), a fresh database per run.
// Beside it, in the same run and database:
// - the conventional peer: a loop that posts one entry per transaction (entry, two postings, two
//   balance updates, commit) into the same ledger tables, timed over LOOP entries (default 20,000;
//   5,000 on PGlite) and projected to N at its measured rate;
// - the floor: the same rows (the pages' entries, every posting, every income row) bulk-loaded with
//   COPY into tables without rules (no key, index, trigger or check), what the database itself
//   takes to store them.
// Each figure is min / median / max of RUNS runs (default 3).
// Usage: node bench/earn.ts [investments, default 100000] [loop entries, default 20000] [runs, default 3] [engines, default postgres,pglite]
import { writeFileSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { SETTLEMENT_PAGE } from '../apps/server/src/modules/products/settlement.ts';
import { type Database, openPglite } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';
import { benchDatabase, earnSettlementDay } from './earn-day.ts';

const N = Number(process.argv[2] ?? 100_000);
const LOOP = Number(process.argv[3] ?? 20_000);
const RUNS = Number(process.argv[4] ?? 3);
const ENGINES = (process.argv[5] ?? 'postgres,pglite').split(',') as ('postgres' | 'pglite')[];
const PAGE = SETTLEMENT_PAGE; // the settlement runner's page

/** `settledRssMb`: the process's peak RSS when the day was settled, before the loop and the floor. */
type Run = { settleMs: number; loopRate: number; floorMs: number; settledRssMb: number };
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** The peer: one entry per transaction, the conventional way, into the same tables. */
async function loop(db: Database, owed: number, expected: bigint, entries: number): Promise<number> {
  const wallets = await db.query<{ id: string }>(
    `SELECT id FROM ledger_accounts WHERE kind = 'wallet' AND book = 'demo' AND owner_id IS NOT NULL ORDER BY id LIMIT $1`,
    [entries],
  );
  const l0 = performance.now();
  for (let i = 0; i < entries; i++) {
    const accountId = Number(wallets[i % wallets.length]?.id);
    await db.transaction(async (tx) => {
      const [entry] = await tx.query<{ id: string }>(
        `INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, reference, actor)
         VALUES ('demo', 'earn_payout', $1, 'bench', 'bench', 'bench') RETURNING id`,
        [`bench-loop:${i}`],
      );
      await tx.query(
        `INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount) VALUES
         ($1, $2, 'demo', 'USDT', $3), ($1, $4, 'demo', 'USDT', $5)`,
        [entry?.id, owed, (-expected).toString(), accountId, expected.toString()],
      );
      await tx.query('UPDATE ledger_accounts SET balance = balance - $2 WHERE id = $1', [
        owed,
        expected.toString(),
      ]);
      await tx.query('UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1', [
        accountId,
        expected.toString(),
      ]);
    });
  }
  return entries / ((performance.now() - l0) / 1000);
}

/** The same rows as the settlement wrote, as CSV: the pages' entries, all postings, all income rows. */
function floorRows(n: number): { entries: string; postings: string; incomes: string } {
  const pages = Math.ceil(n / PAGE);
  const at = '2027-06-02T00:05:00Z';
  const e: string[] = [];
  const p: string[] = [];
  const i: string[] = [];
  for (let page = 0; page < pages; page++) {
    const entryId = page + 1;
    e.push(
      `${entryId},demo,earn_payout,bulk:settle:earn.1:${page * PAGE + 1}:2027-06-01,${'f'.repeat(64)},settlement:earn.1:2027-06-01,system,${at}`,
    );
    const size = Math.min(PAGE, n - page * PAGE);
    p.push(`${entryId},1,demo,USDT,${-328_767n * BigInt(size)},,`);
    for (let k = 0; k < size; k++) {
      const h = page * PAGE + k + 1;
      p.push(`${entryId},${h + 100},demo,USDT,328767,settle:earn.1:${h}:2027-06-01,earn:1:${h}`);
      i.push(`${h},2027-06-01,328767,${entryId}`);
    }
  }
  return { entries: `${e.join('\n')}\n`, postings: `${p.join('\n')}\n`, incomes: `${i.join('\n')}\n` };
}

const FLOOR_TABLES = `
  CREATE TABLE floor_entries (id bigint, book text, kind text, idempotency_key text, request_hash text, reference text, actor text, created_at timestamptz);
  CREATE TABLE floor_postings (entry_id bigint, account_id bigint, book text, asset text, amount numeric(78,0), idempotency_key text, reference text);
  CREATE TABLE floor_incomes (investment_id bigint, day date, amount_minor numeric(78,0), entry_id bigint);`;

/** PostgreSQL: COPY from files the server reads (the bench's server is local), in one transaction. */
async function floorPostgres(db: Database, n: number): Promise<number> {
  const rows = floorRows(n);
  const files = Object.entries(rows).map(([name, csv]) => {
    const path = `/tmp/swx-bench-floor-${process.pid}-${name}.csv`;
    writeFileSync(path, csv, { mode: 0o644 });
    return { table: `floor_${name}`, path };
  });
  try {
    await db.exec(FLOOR_TABLES);
    const f0 = performance.now();
    await db.transaction(async (tx) => {
      for (const { table, path } of files) await tx.query(`COPY ${table} FROM '${path}' (FORMAT csv)`);
    });
    return performance.now() - f0;
  } finally {
    for (const { path } of files) await unlink(path).catch(() => undefined);
  }
}

/** PGlite: COPY from a blob, in one transaction, on an in-memory database like the run's. */
async function floorPglite(n: number): Promise<number> {
  const rows = floorRows(n);
  const db = await PGlite.create('memory://');
  try {
    await db.exec(FLOOR_TABLES);
    const blobs = Object.entries(rows).map(([name, csv]) => ({
      table: `floor_${name}`,
      blob: new Blob([csv]),
    }));
    const f0 = performance.now();
    await db.transaction(async (tx) => {
      for (const { table, blob } of blobs)
        await tx.query(`COPY ${table} FROM '/dev/blob' (FORMAT csv)`, [], { blob });
    });
    return performance.now() - f0;
  } finally {
    await db.close();
  }
}

async function once(engine: 'postgres' | 'pglite'): Promise<Run> {
  if (engine === 'postgres') {
    const { db, drop } = await benchDatabase('earn');
    try {
      const { settleMs, owed, expected } = await earnSettlementDay(db, N);
      const settledRssMb = peakRssMb();
      const loopRate = await loop(db, owed, expected, LOOP);
      return { settleMs, loopRate, floorMs: await floorPostgres(db, N), settledRssMb };
    } finally {
      await drop();
    }
  }
  const db = await openPglite(undefined);
  try {
    await migrate(db);
    const { settleMs, owed, expected } = await earnSettlementDay(db, N);
    const settledRssMb = peakRssMb();
    const loopRate = await loop(db, owed, expected, Math.min(LOOP, 5_000));
    return { settleMs, loopRate, floorMs: await floorPglite(N), settledRssMb };
  } finally {
    await db.close();
  }
}

const spread = (values: number[], format: (v: number) => string) => {
  const s = values.toSorted((a, b) => a - b);
  const median = s[Math.floor(s.length / 2)] ?? 0;
  return `${format(s[0] ?? 0)} / ${format(median)} / ${format(s.at(-1) ?? 0)}`;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (r: number) => `${Math.round(r).toLocaleString('en')}/s`;
const times = (r: number) => `${r.toFixed(1)}×`;

for (const engine of ENGINES) {
  const runs: Run[] = [];
  for (let r = 0; r < RUNS; r++) {
    runs.push(await once(engine));
    const last = runs.at(-1);
    console.log(
      `${engine} run ${r + 1}: settlement ${seconds(last?.settleMs ?? 0)} (peak RSS by then ${last?.settledRssMb} MB), loop ${rate(last?.loopRate ?? 0)}, floor ${seconds(last?.floorMs ?? 0)}`,
    );
  }
  const settleRates = runs.map((r) => N / (r.settleMs / 1000));
  console.log('');
  console.log(
    `one day's earn settlement of ${N.toLocaleString('en')} investments on ${engine} (min / median / max of ${RUNS})`,
  );
  console.log(
    `  settlement (runner + compound entries): ${spread(
      runs.map((r) => r.settleMs),
      seconds,
    )}  (${spread(settleRates, rate)} payments)`,
  );
  console.log(
    `  loop, one entry per transaction:        ${spread(
      runs.map((r) => r.loopRate),
      rate,
    )}  (→ ${spread(
      runs.map((r) => (N / r.loopRate) * 1000),
      seconds,
    )} for ${N.toLocaleString('en')})`,
  );
  console.log(
    `  ratio to the loop of the same run:      ${spread(
      runs.map((r, i) => (settleRates[i] ?? 0) / r.loopRate),
      times,
    )}`,
  );
  console.log(
    `  COPY floor (same rows, no rules):       ${spread(
      runs.map((r) => r.floorMs),
      seconds,
    )}`,
  );
  console.log(
    `  settlement / floor:                     ${spread(
      runs.map((r) => r.settleMs / r.floorMs),
      times,
    )}`,
  );
  console.log(
    `  node peak RSS: ${peakRssMb()} MB (${spread(
      runs.map((r) => r.settledRssMb),
      (v) => `${v} MB`,
    )} when each day was settled)`,
  );
  console.log('');
}
