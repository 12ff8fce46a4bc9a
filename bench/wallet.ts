// The deposit watcher under a full block: one block of the development chain (anvil from the npm
// registry) carrying N USDT transfers to N customers' deposit addresses. Prints, on PGlite (on
// disk) and PostgreSQL:
//   - seen:     the pass that reads the block and records the N deposits (confirming);
//   - credited: the pass at the network's confirmations that credits and locks all N through the
//               ledger (2N ledger requests, group-committed);
// beside a peer measured in the same run on the same database: the bare floor, one transaction
// that reads the same logs' rows into a plain table and applies N plain balance updates (no ledger
// rules, no holds, no audit). Then, against a running server (its wallet job polling every
// WALLET_POLL_MS, default 1000 ms), the time from the block reaching the credit depth to the
// customer's balance answering it, 5 times (min / median / max).
// Usage: node bench/wallet.ts [deposits, default 1000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { devSigner } from '../apps/server/src/platform/chain/development.ts';
import { rpcClient } from '../apps/server/src/platform/chain/rpc.ts';
import { localSigner } from '../apps/server/src/platform/chain/signer.ts';
import type { Hex } from '../apps/server/src/platform/chain.ts';
import { type Database, openPglite, openPostgres } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';
import { createTestContext } from '../apps/server/src/test/context.ts';
import { testWallet } from '../apps/server/src/test/wallet.ts';
import { registerByApi } from '../tests/support/accounts.ts';
import { customerApi } from '../tests/support/api.ts';
import { startTestChain, type TestChain } from '../tests/support/chain.ts';
import { startServer } from '../tests/support/server.ts';
import { startInbox } from '../tests/support/smtp.ts';

const N = Number(process.argv[2] ?? 1000);
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
    addresses.map((to, i) => faucet.sign({ asset: 'USDT', to, amount: AMOUNT, nonce: first + i })),
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

async function benchDatabase(label: string, db: Database, chain: TestChain): Promise<void> {
  await migrate(db);
  const ctx = await createTestContext(db);
  const { wallet } = testWallet(ctx, {
    chain: chain.chain,
    signer: chain.signer,
    ...(process.env.BENCH_DEBUG ? { logger: console as never } : {}),
  });
  // N customers (rows only: registering N through argon2 would measure argon2).
  const users = await db.query<{ id: string }>(
    `INSERT INTO users (user_name, email, password_hash)
     SELECT 'bench' || g || '-' || $2, 'bench' || g || '-' || $2 || '@example.test', $1
     FROM generate_series(1, $3::int) g RETURNING id`,
    [ARGON_PLACEHOLDER, label.replace(/\W/g, '').toLowerCase(), N],
  );
  const ids = users.map((u) => Number(u.id));
  const addresses: Hex[] = [];
  for (const id of ids)
    addresses.push((await wallet.deposits.address('live', id, 'USDT-EVM')).address as Hex);
  await wallet.deposits.watch(); // the cursor at the head before the block
  await fullBlock(chain, addresses);

  let t0 = performance.now();
  const seen = await wallet.deposits.watch();
  const seenMs = performance.now() - t0;
  await chain.dev.mine(11);
  t0 = performance.now();
  await wallet.deposits.watch();
  const creditMs = performance.now() - t0;
  const credited = await db.query<{ n: string }>(
    "SELECT count(*)::text AS n FROM wallet_deposits WHERE state = 'credited' AND lock_hold_id IS NOT NULL",
  );

  // The floor: the same rows and balance changes, plainly, in one transaction.
  await db.exec(
    'CREATE TABLE bench_floor_deposits (tx text, idx int, user_id bigint, amount numeric(78,0), PRIMARY KEY (tx, idx)); CREATE TABLE bench_floor_balances (user_id bigint PRIMARY KEY, balance numeric(78,0) NOT NULL)',
  );
  await db.query('INSERT INTO bench_floor_balances SELECT unnest($1::bigint[]), 0', [ids]);
  const head = await chain.chain.head();
  t0 = performance.now();
  const logs = await chain.chain.transfers(head - 11n, head - 11n);
  await db.transaction(async (tx) => {
    const owner = new Map(addresses.map((a, i) => [a.toLowerCase(), ids[i]]));
    const rows = logs.filter((l) => owner.has(l.to));
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
  const floorMs = performance.now() - t0;
  console.log(
    `${label.padEnd(22)} ${String(seen?.seen ?? 0).padStart(5)} seen in ${seenMs.toFixed(0).padStart(5)} ms   ` +
      `${credited[0]?.n} credited and locked in ${creditMs.toFixed(0).padStart(5)} ms   ` +
      `bare floor (rows + balances, one transaction) ${floorMs.toFixed(0).padStart(5)} ms`,
  );
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

const chainA = await startTestChain();
const dir = mkdtempSync(join(tmpdir(), 'swx-bench-wallet-'));
try {
  console.log(
    `The deposit watcher: one block with ${N} USDT transfers to ${N} customers (anvil, PGlite, PostgreSQL)`,
  );
  const pglite = await openPglite(join(dir, 'pglite'));
  await benchDatabase('PGlite (on disk)', pglite, chainA);
  await pglite.close();
} finally {
  await chainA.close();
  rmSync(dir, { recursive: true, force: true });
}

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `swx_bench_wallet_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const chainB = await startTestChain();
try {
  const postgres = await openPostgres(url.toString());
  await benchDatabase('PostgreSQL', postgres, chainB);
  await postgres.close();
  await blockToBalance(chainB);
} finally {
  await chainB.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
