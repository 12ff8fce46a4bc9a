// The deposit watcher under a full block: one block of the development chain (anvil from the npm
// registry) carrying N USDT transfers to N customers' deposit addresses. Three runs (a new block to
// N new customers each) on PGlite (on disk) and PostgreSQL, min / median / max of:
//   - seen:     the pass that reads the block and records the N deposits (confirming);
//   - credited: the pass at the network's confirmations that credits and locks all N (each one
//               ledger operation, the credit holding what it credits; all N in one ledger batch);
// beside two floors measured in the same run on the same database, with no ledger rules, holds or
// audit: the plain-update floor (one transaction: the same logs' rows into a plain table and N
// plain balance updates) and the COPY floor (one transaction: the rows the ledger writes per
// deposit, an entry, two postings and a hold, COPY-loaded into plain tables, and one set-based
// balance update). Then, against a running server (its wallet job polling every WALLET_POLL_MS,
// default 1000 ms), the time from the block reaching the credit depth to the customer's balance
// answering it, 5 times (min / median / max).
// Usage: node bench/wallet.ts [deposits, default 1000]
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { devSigner } from '../apps/server/src/platform/chain/development.ts';
import { rpcClient } from '../apps/server/src/platform/chain/rpc.ts';
import { localSigner } from '../apps/server/src/platform/chain/signer.ts';
import type { Hex } from '../apps/server/src/platform/chain.ts';
import { type Database, openPostgres, type Queryable } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';
import { createTestContext } from '../apps/server/src/test/context.ts';
import { testWallet } from '../apps/server/src/test/wallet.ts';
import { registerByApi } from '../tests/support/accounts.ts';
import { customerApi } from '../tests/support/api.ts';
import { startTestChain, type TestChain } from '../tests/support/chain.ts';
import { startServer } from '../tests/support/server.ts';
import { startInbox } from '../tests/support/smtp.ts';

const N = Number(process.argv[2] ?? 1000);
const RUNS = 3;
const AMOUNT = 150_000_000n;
const ARGON_PLACEHOLDER = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2g$YmVuY2hiZW5jaGJlbmNoYmVuY2g';

async function rpc(chain: TestChain, method: string, params: unknown[] = []): Promise<unknown> {
  return rpcClient(chain.url).request({ method: method as never, params: params as never });
}

/** N transfers from the faucet, all in one block (automine off, a raised block gas limit). */
async function fullBlock(chain: TestChain, addresses: Hex[]): Promise<bigint> {
  const faucet = localSigner(devSigner('faucet'), chain.chain.chainId, chain.chain.tokens.USDT);
  await rpc(chain, 'evm_setAutomine', [false]);
  await rpc(chain, 'evm_setBlockGasLimit', ['0x5f5e1000']);
  const first = await chain.chain.nonce(faucet.address);
  const signed = await Promise.all(
    addresses.map((to, i) =>
      faucet.sign({ asset: 'USDT', to: to.toLowerCase() as Hex, amount: AMOUNT, nonce: first + i }),
    ),
  );
  for (let i = 0; i < signed.length; i += 100)
    await Promise.all(signed.slice(i, i + 100).map((s) => chain.chain.broadcast(s.raw)));
  await rpc(chain, 'evm_mine');
  await rpc(chain, 'evm_setAutomine', [true]);
  const head = await chain.chain.head();
  const logs = await chain.chain.transfers(head, head);
  if (logs.length < N) throw new Error(`the block holds ${logs.length} transfers, not ${N}`);
  return head;
}

/** A database and how the COPY floor loads CSV rows into a table in a transaction. */
type Bench = {
  label: string;
  db: Database;
  copy: (tx: Queryable, table: string, csv: string) => Promise<void>;
};

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { min: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
};
const shown = (ms: number[]) => {
  const { min, median, max } = stats(ms);
  return `${min.toFixed(0)} / ${median.toFixed(0)} / ${max.toFixed(0)} ms`;
};

type Log = Awaited<ReturnType<TestChain['chain']['transfers']>>[number];

/** The plain-update floor: the same rows and balance changes, plainly, in one transaction. */
async function plainFloor(db: Database, rows: Log[], owner: Map<string, number>): Promise<number> {
  const t0 = performance.now();
  await db.transaction(async (tx) => {
    await tx.query(
      'INSERT INTO bench_floor_deposits SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::numeric[])',
      [
        rows.map((r) => r.txHash),
        rows.map((r) => r.logIndex),
        rows.map((r) => owner.get(r.to)),
        rows.map((r) => r.amount.toString()),
      ],
    );
    for (const r of rows)
      await tx.query('UPDATE bench_floor_balances SET balance = balance + $2 WHERE user_id = $1', [
        owner.get(r.to),
        r.amount.toString(),
      ]);
  });
  return performance.now() - t0;
}

/**
 * The COPY floor: what the ledger writes per deposit (an entry, two postings, a hold) bulk-loaded
 * into plain tables, and the balances and held amounts in one set-based update.
 */
async function copyFloor(
  db: Database,
  copy: Bench['copy'],
  rows: Log[],
  owner: Map<string, number>,
  run: number,
): Promise<number> {
  const t0 = performance.now();
  const at = new Date().toISOString();
  const key = (r: (typeof rows)[number]) => `r${run}:${r.txHash}:${r.logIndex}`;
  await db.transaction(async (tx) => {
    await copy(
      tx,
      'bench_copy_entries',
      rows.map((r) => `${key(r)},deposit,deposit:${key(r)},system,${at}`).join('\n'),
    );
    await copy(
      tx,
      'bench_copy_postings',
      rows
        .flatMap((r) => [`${key(r)},0,USDT,-${r.amount}`, `${key(r)},${owner.get(r.to)},USDT,${r.amount}`])
        .join('\n'),
    );
    await copy(
      tx,
      'bench_copy_holds',
      rows.map((r) => `${key(r)},${owner.get(r.to)},USDT,${r.amount},deposit:${key(r)}`).join('\n'),
    );
    await tx.query(
      `UPDATE bench_floor_balances b SET balance = b.balance + h.amount, held = b.held + h.amount
       FROM bench_copy_holds h WHERE h.account_id = b.user_id AND h.key LIKE $1`,
      [`r${run}:%`],
    );
  });
  return performance.now() - t0;
}

type Figures = Record<'seen' | 'credit' | 'plain' | 'copy', number[]>;

/** Min / median / max of the runs, with the ratios of the medians to the floors. */
function summary(label: string, figures: Figures): void {
  const credit = stats(figures.credit).median;
  console.log(
    `${label.padEnd(17)} min / median / max of ${RUNS} runs, ${N} deposits in one block:\n` +
      `  seen (recorded, confirming)           ${shown(figures.seen)}\n` +
      `  credited and locked                   ${shown(figures.credit)}   aim < 2000 ms, within 3x the plain-update floor\n` +
      `  plain-update floor                    ${shown(figures.plain)}   median ratio ${(credit / stats(figures.plain).median).toFixed(2)}x\n` +
      `  COPY floor (same rows, no rules)      ${shown(figures.copy)}   median ratio ${(credit / stats(figures.copy).median).toFixed(2)}x`,
  );
}

async function benchDatabase({ label, db, copy }: Bench, chain: TestChain): Promise<void> {
  await migrate(db);
  const ctx = await createTestContext(db);
  const { wallet } = testWallet(ctx, {
    chain: chain.chain,
    signer: chain.signer,
    ...(process.env.BENCH_DEBUG ? { logger: console as never } : {}),
  });
  await db.exec(
    `CREATE TABLE bench_floor_deposits (tx text, idx int, user_id bigint, amount numeric(78,0), PRIMARY KEY (tx, idx));
     CREATE TABLE bench_floor_balances (user_id bigint PRIMARY KEY, balance numeric(78,0) NOT NULL, held numeric(78,0) NOT NULL DEFAULT 0);
     CREATE TABLE bench_copy_entries (key text, kind text, reference text, actor text, created_at timestamptz);
     CREATE TABLE bench_copy_postings (entry_key text, account_id bigint, asset text, amount numeric(78,0));
     CREATE TABLE bench_copy_holds (key text, account_id bigint, asset text, amount numeric(78,0), reference text)`,
  );
  const figures: Figures = { seen: [], credit: [], plain: [], copy: [] };
  for (let run = 1; run <= RUNS; run++) {
    // N customers (rows only: registering N through argon2 would measure argon2).
    const users = await db.query<{ id: string }>(
      `INSERT INTO users (user_name, email, password_hash)
       SELECT 'bench' || g || '-' || $2, 'bench' || g || '-' || $2 || '@example.test', $1
       FROM generate_series(1, $3::int) g RETURNING id`,
      [ARGON_PLACEHOLDER, `${label.replace(/\W/g, '').toLowerCase()}r${run}`, N],
    );
    const ids = users.map((u) => Number(u.id));
    // Their live USDT wallets, as registration opens them.
    await ctx.ledger.customerAccounts('live', ids, 'USDT', 'wallet');
    const addresses: Hex[] = [];
    for (const id of ids)
      addresses.push((await wallet.deposits.address('live', id, 'USDT-EVM')).address as Hex);
    // The cursor at the head before the block; the run before unlocked (nothing else moves in the timed pass).
    await chain.dev.mine(13);
    await wallet.deposits.watch();
    const block = await fullBlock(chain, addresses);

    let t0 = performance.now();
    const seen = await wallet.deposits.watch();
    figures.seen.push(performance.now() - t0);
    if ((seen?.seen ?? 0) !== N) throw new Error(`the pass saw ${seen?.seen} deposits, not ${N}`);
    await chain.dev.mine(11);
    t0 = performance.now();
    await wallet.deposits.watch();
    figures.credit.push(performance.now() - t0);
    const credited = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM wallet_deposits
       WHERE state = 'credited' AND lock_hold_id IS NOT NULL AND user_id = ANY($1::bigint[])`,
      [ids],
    );
    if (Number(credited[0]?.n) !== N) throw new Error(`${credited[0]?.n} of ${N} credited and locked`);

    const logs = await chain.chain.transfers(block, block);
    const owner = new Map(addresses.map((a, i) => [a.toLowerCase(), ids[i] ?? 0]));
    const rows = logs.filter((l) => owner.has(l.to));
    await db.query('INSERT INTO bench_floor_balances (user_id, balance) SELECT unnest($1::bigint[]), 0', [
      ids,
    ]);

    figures.plain.push(await plainFloor(db, rows, owner));
    figures.copy.push(await copyFloor(db, copy, rows, owner, run));
    console.log(
      `${label} run ${run}: seen ${figures.seen.at(-1)?.toFixed(0)} ms, ${N} credited and locked ${figures.credit.at(-1)?.toFixed(0)} ms, ` +
        `plain-update floor ${figures.plain.at(-1)?.toFixed(0)} ms, COPY floor ${figures.copy.at(-1)?.toFixed(0)} ms`,
    );
  }
  summary(label, figures);
}

/** Block to balance, as the customer's screen reads it, against a running server. */
async function blockToBalance(chain: TestChain): Promise<void> {
  const inbox = await startInbox();
  const server = await startServer({ ...chain.env, SMTP_URL: `smtp://127.0.0.1:${inbox.port}` });
  try {
    const session = await registerByApi(server, inbox, 'bench.block@example.com');
    const me = customerApi(server, session, { book: 'live' });
    const { address } = await me.ok('getDepositAddress', { network: 'USDT-EVM' });
    const times: number[] = [];
    for (let i = 1; i <= 5; i++) {
      await chain.dev.send({ to: address as Hex, asset: 'USDT', amount: AMOUNT });
      await chain.dev.mine(10);
      const want = (AMOUNT * BigInt(i)) / 1_000_000n;
      const t0 = performance.now();
      await chain.dev.mine(1);
      for (;;) {
        const usdt = (await me.ok('getBalances')).balances.find((b) => b.asset === 'USDT');
        if (usdt && BigInt(usdt.balance.split('.')[0] ?? '0') >= want) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(
      `block to balance on the customer's screen (wallet job every 1000 ms, screen polled every 20 ms): ` +
        `min ${times[0]?.toFixed(0)} ms, median ${times[2]?.toFixed(0)} ms, max ${times[4]?.toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
    await inbox.close();
  }
}

/** BENCH_ONLY=pglite or postgres: one database only. */
const only = process.env.BENCH_ONLY;
const chainA = await startTestChain();
const dir = mkdtempSync(join(tmpdir(), 'swx-bench-wallet-'));
try {
  console.log(
    `The deposit watcher: one block with ${N} USDT transfers to ${N} customers (anvil, PGlite, PostgreSQL)`,
  );
  // PGlite on disk, opened as the platform opens it (integers and numerics as text), kept at hand
  // for the COPY floor (COPY FROM a blob, PGlite's own bulk load).
  const asText = (value: string) => value;
  const raw = await PGlite.create(join(dir, 'pglite'), { parsers: { 20: asText, 1700: asText } });
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <Row>(sql: string, params: readonly unknown[] = []) =>
      (await target.query<Row>(sql, params as unknown[])).rows,
    exec: async (sql: string) => {
      await target.exec(sql);
    },
  });
  const rawTx = new WeakMap<Queryable, Pick<PGlite, 'query'>>();
  const pglite: Database = {
    kind: 'pglite',
    ...wrap(raw),
    transaction: (work) =>
      raw.transaction((tx) => {
        const wrapped = wrap(tx);
        rawTx.set(wrapped, tx);
        return work(wrapped);
      }),
    close: () => raw.close(),
  };
  if (only !== 'postgres')
    await benchDatabase(
      {
        label: 'PGlite (on disk)',
        db: pglite,
        copy: async (tx, table, csv) => {
          const target = rawTx.get(tx) ?? raw;
          await target.query(`COPY ${table} FROM '/dev/blob' WITH (FORMAT csv)`, [], {
            blob: new Blob([csv]),
          });
        },
      },
      chainA,
    );
  await pglite.close();
} finally {
  await chainA.close();
  rmSync(dir, { recursive: true, force: true });
}

if (only === 'pglite') process.exit(0);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `swx_bench_wallet_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const chainB = await startTestChain();
const csvDir = mkdtempSync(join(tmpdir(), 'swx-bench-copy-'));
chmodSync(csvDir, 0o755);
try {
  const postgres = await openPostgres(url.toString());
  await benchDatabase(
    {
      label: 'PostgreSQL',
      db: postgres,
      // The server's own COPY from a file it reads (a local server, the bench's superuser).
      copy: async (tx, table, csv) => {
        const file = join(csvDir, `${table}.csv`);
        writeFileSync(file, csv, { mode: 0o644 });
        await tx.query(`COPY ${table} FROM '${file}' WITH (FORMAT csv)`);
      },
    },
    chainB,
  );
  await postgres.close();
  await blockToBalance(chainB);
} finally {
  await chainB.close();
  rmSync(csvDir, { recursive: true, force: true });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
