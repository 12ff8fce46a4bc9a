import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/* SQL of an owner's balances at a past instant and of who was active in a window (statements). */

export type KindBalance = { asset: string; kind: string; balance: bigint };

/**
 * An owner's balances in `book` per asset and account kind as they stood at `at`: the sum of
 * their postings in entries created before it (statements: opening and closing balances).
 */
export async function ownerBalancesAt(
  db: Queryable,
  q: { book: Book; ownerId: number; at: string },
): Promise<KindBalance[]> {
  const rows = await db.query<{ asset: string; kind: string; balance: string }>(
    `SELECT p.asset, a.kind, sum(p.amount)::text AS balance
     FROM ledger_postings p
     JOIN ledger_accounts a ON a.id = p.account_id
     JOIN ledger_entries e ON e.id = p.entry_id
     WHERE a.book = $1 AND a.owner_id = $2 AND e.created_at < $3::timestamptz
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [q.book, q.ownerId, q.at],
  );
  return rows.map((r) => ({ asset: r.asset, kind: r.kind, balance: BigInt(r.balance) }));
}

/** The customers (and assets) of `book` with a posting in an entry created in [from, to). */
export async function ownersActiveIn(
  db: Queryable,
  q: { book: Book; from: string; to: string },
): Promise<{ ownerId: number; asset: string }[]> {
  const rows = await db.query<{ owner_id: string; asset: string }>(
    `SELECT DISTINCT a.owner_id, p.asset
     FROM ledger_entries e
     JOIN ledger_postings p ON p.entry_id = e.id
     JOIN ledger_accounts a ON a.id = p.account_id AND a.owner_id IS NOT NULL
     WHERE e.book = $1 AND e.created_at >= $2::timestamptz AND e.created_at < $3::timestamptz
     ORDER BY 1, 2`,
    [q.book, q.from, q.to],
  );
  return rows.map((r) => ({ ownerId: Number(r.owner_id), asset: r.asset }));
}
