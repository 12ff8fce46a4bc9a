import type { Queryable } from '../../platform/db.ts';

/* The SQL of the hot wallet's sends for other products (`wallet_hot_sends`, migrations 0056, 0058). */

export type HotSendState = 'pending' | 'confirmed' | 'reverted' | 'dropped';

export type HotSendRow = {
  key: string;
  chainId: number;
  asset: string;
  to: string;
  amount: bigint;
  nonce: number;
  rawTx: string;
  txHash: string;
  sentBlock: bigint | null;
  replaced: string[];
  bumps: number;
  bumpedBlock: bigint | null;
  state: HotSendState;
};

type Raw = {
  key: string;
  chain_id: string;
  asset: string;
  to_address: string;
  amount: string;
  nonce: number;
  raw_tx: string;
  tx_hash: string;
  sent_block: string | null;
  replaced: string[];
  bumps: number;
  bumped_block: string | null;
  state: HotSendState;
};

const COLUMNS = `key, chain_id::text, asset, to_address, amount::text, nonce, raw_tx, tx_hash, sent_block::text,
  replaced, bumps, bumped_block::text, state`;
const big = (v: string | null) => (v === null ? null : BigInt(v));

const rowOf = (r: Raw): HotSendRow => ({
  key: r.key,
  chainId: Number(r.chain_id),
  asset: r.asset,
  to: r.to_address,
  amount: BigInt(r.amount),
  nonce: Number(r.nonce),
  rawTx: r.raw_tx,
  txHash: r.tx_hash,
  sentBlock: big(r.sent_block),
  replaced: r.replaced,
  bumps: Number(r.bumps),
  bumpedBlock: big(r.bumped_block),
  state: r.state,
});

/** The send of a key (locked until the transaction ends when `lock`: one signer per key). */
export async function hotSendByKey(db: Queryable, key: string, lock = false): Promise<HotSendRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM wallet_hot_sends WHERE key = $1${lock ? ' FOR UPDATE' : ''}`,
    [key],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/** Serializes the signing of one key (held until the transaction ends), before its row exists. */
export async function lockHotSendKey(tx: Queryable, key: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('wallet_hot_sends:' || $1))", [key]);
}

/** Stores a signed send (before it is broadcast). */
export async function insertHotSend(
  tx: Queryable,
  row: Omit<HotSendRow, 'replaced' | 'bumps' | 'bumpedBlock' | 'state'>,
  at: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO wallet_hot_sends (key, chain_id, asset, to_address, amount, nonce, raw_tx, tx_hash, created_at)
     VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9::timestamptz)`,
    [row.key, row.chainId, row.asset, row.to, row.amount.toString(), row.nonce, row.rawTx, row.txHash, at],
  );
}

/** The head block at its (first) broadcast, kept once: an unmined send is broadcast again after some blocks. */
export async function markBroadcast(db: Queryable, key: string, block: bigint): Promise<void> {
  await db.query('UPDATE wallet_hot_sends SET sent_block = $2 WHERE key = $1 AND sent_block IS NULL', [
    key,
    block.toString(),
  ]);
}

/** The end of a send: the hash mined (the newest one; the others kept in `replaced`) or dropped. */
export async function endHotSend(
  db: Queryable,
  key: string,
  state: HotSendState,
  txHash: string,
): Promise<void> {
  await db.query(
    `UPDATE wallet_hot_sends SET state = $2,
       replaced = CASE WHEN tx_hash = $3 THEN replaced ELSE array_append(array_remove(replaced, $3), tx_hash) END,
       tx_hash = $3
     WHERE key = $1 AND state = 'pending'`,
    [key, state, txHash],
  );
}

/** What the pending sends carry per asset (money on its way out of the hot wallet). */
export async function pendingHotSendsByAsset(db: Queryable): Promise<Map<string, bigint>> {
  const rows = await db.query<{ asset: string; total: string }>(
    "SELECT asset, sum(amount)::text AS total FROM wallet_hot_sends WHERE state = 'pending' GROUP BY asset",
  );
  return new Map(rows.map((r) => [r.asset, BigInt(r.total)]));
}
