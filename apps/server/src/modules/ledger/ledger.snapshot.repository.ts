import type { Book } from '@swx/contract';
import type { Database } from '../../platform/db.ts';

/** One customer account's balance at a snapshot (held included: held is part of the balance). */
export type SnapshotAccount = { ownerId: number; asset: string; kind: string; balance: bigint };

/**
 * Every customer account of a book that is not zero, read in one REPEATABLE READ, READ ONLY
 * transaction: one snapshot of the database, so an entry committed while it reads is in every
 * account it touched or in none; with the database's own time of that snapshot.
 */
export async function customerSnapshot(
  db: Database,
  book: Book,
): Promise<{ at: string; accounts: SnapshotAccount[] }> {
  return db.transaction(async (tx) => {
    await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const [time] = await tx.query<{ at: string }>(
      `SELECT to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`,
    );
    const rows = await tx.query<{ owner_id: string; asset: string; kind: string; balance: string }>(
      `SELECT owner_id, asset, kind, balance FROM ledger_accounts
       WHERE book = $1 AND owner_id IS NOT NULL AND balance <> 0 ORDER BY asset, owner_id, kind`,
      [book],
    );
    return {
      at: time?.at ?? '',
      accounts: rows.map((r) => ({
        ownerId: Number(r.owner_id),
        asset: r.asset,
        kind: r.kind,
        balance: BigInt(r.balance),
      })),
    };
  });
}
