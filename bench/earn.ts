// One day's earn settlement of N investments (default 100,000) on PostgreSQL (fsync and
// synchronous commit on), through the real path: EarnService.runDaily → the settlement runner →
// the ledger's group-commit batcher (one entry per investment with its income row, from the
// product's owed account to each customer's wallet). Beside it, in the same run and database, the
// conventional peer: a loop that posts one entry per transaction (entry, two postings, two balance
// updates, commit) into the same ledger tables, timed over LOOP entries (default 20,000) and
// projected to N at its measured rate.
// Usage: node bench/earn.ts [investments, default 100000] [loop entries, default 20000]
import pg from 'pg';
import { benchDatabase, earnSettlementDay } from './earn-day.ts';

const N = Number(process.argv[2] ?? 100_000);
const LOOP = Number(process.argv[3] ?? 20_000);

const { db, url, drop } = await benchDatabase('earn');
try {
  const { setupMs, settleMs, owed, expected } = await earnSettlementDay(db, N);
  console.log(`setup: ${N.toLocaleString('en')} investments in ${Math.round(setupMs)} ms`);

  // The peer: one entry per transaction, the conventional way, into the same tables.
  const wallets = await db.query<{ id: string }>(
    `SELECT id FROM ledger_accounts WHERE kind = 'wallet' AND book = 'demo' AND owner_id IS NOT NULL ORDER BY id LIMIT $1`,
    [LOOP],
  );
  const client = new pg.Client({ connectionString: url });
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
  await drop();
}
