import type { Queryable } from '../../platform/db.ts';

/* The SQL the hot wallet's follower (wallet.hot.ts) shares between withdrawals and sends (migration 0058). */

/** Where each kind of hot wallet transaction is kept: its table, its key column, its unmined state. */
const HOT_TABLES = {
  withdrawal: { table: 'wallet_withdrawals', key: 'id', open: 'sent' },
  send: { table: 'wallet_hot_sends', key: 'key', open: 'pending' },
} as const;

/**
 * A replacement of the same nonce at a higher fee, stored iff `previous` is still the newest hash
 * (the earlier one kept in `replaced`): false when another pass stored one first.
 */
export async function replaceHotTx(
  db: Queryable,
  kind: keyof typeof HOT_TABLES,
  key: string | number,
  previous: string,
  next: { rawTx: string; txHash: string; block: bigint },
): Promise<boolean> {
  const { table, key: column, open } = HOT_TABLES[kind];
  const rows = await db.query(
    `UPDATE ${table} SET raw_tx = $3, tx_hash = $4, bumped_block = $5, bumps = bumps + 1,
       replaced = replaced || tx_hash
     WHERE ${column} = $1 AND tx_hash = $2 AND state = '${open}' RETURNING ${column}`,
    [key, previous, next.rawTx, next.txHash, next.block.toString()],
  );
  return rows.length > 0;
}
