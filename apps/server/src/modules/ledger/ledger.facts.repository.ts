import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/*
 * SQL of the ledger's facts about customers' activity, for programmes that reward it (invites):
 * the fees collected from each customer per day, the first entry of some kinds, the reversals of
 * some kinds in a time window. Entries are found by time through the BRIN index on created_at.
 */

export type FeeDay = { ownerId: number; day: string; asset: string; fee: bigint };

/**
 * The tail of a query whose first CTE `src` (id, day) names entries: per customer, day and asset,
 * what the `fees` system accounts were credited (net) by those entries that debited exactly one
 * customer, that customer (`$5`: only these customers, or null for all). One pass over the entries'
 * postings, the payer found by a window over each entry: no join of an aggregate per row, whose
 * estimate (one fees account, few postings) once led the planner into a loop over every entry.
 */
const FEES_BY_PAYER = `, x AS (
       SELECT src.day, p.asset, p.amount, a.owner_id, a.kind,
         min(a.owner_id) FILTER (WHERE p.amount < 0) OVER w AS payer,
         max(a.owner_id) FILTER (WHERE p.amount < 0) OVER w AS payer_max
       FROM src JOIN ledger_postings p ON p.entry_id = src.id JOIN ledger_accounts a ON a.id = p.account_id
       WINDOW w AS (PARTITION BY p.entry_id)
     )
     SELECT payer AS owner_id, day, asset, sum(amount)::text AS fee FROM x
     WHERE owner_id IS NULL AND kind = 'fees' AND payer = payer_max
       AND ($5::bigint[] IS NULL OR payer = ANY($5::bigint[]))
     GROUP BY 1, 2, 3`;

async function feesByPayer(db: Queryable, src: string, params: unknown[]): Promise<FeeDay[]> {
  const rows = await db.query<{ owner_id: string; day: string; asset: string; fee: string }>(
    `WITH src AS (${src})${FEES_BY_PAYER}`,
    params,
  );
  return rows.map((r) => ({ ownerId: Number(r.owner_id), day: r.day, asset: r.asset, fee: BigInt(r.fee) }));
}

/**
 * Per customer, UTC day and asset: what the `fees` system accounts of `book` were credited (net)
 * in entries of `kinds` created in [from, to) that debited exactly one customer, that customer's.
 */
export function feesByOwnerDay(
  db: Queryable,
  q: { book: Book; from: string; to: string; kinds: readonly string[]; ownerIds: readonly number[] | null },
): Promise<FeeDay[]> {
  return feesByPayer(
    db,
    `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM ledger_entries
     WHERE book = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz AND kind = ANY($4::text[])`,
    [q.book, q.from, q.to, q.kinds, q.ownerIds],
  );
}

/**
 * Per customer: when their first entry of `kinds` in `book` that credited (`credit`) or debited
 * one of their accounts was made, leaving out entries since reversed.
 */
export async function firstEntryAt(
  db: Queryable,
  q: { book: Book; ownerIds: readonly number[]; kinds: readonly string[]; credit: boolean },
): Promise<Map<number, string>> {
  if (q.ownerIds.length === 0) return new Map();
  const rows = await db.query<{ owner_id: string; at: Date | string }>(
    `SELECT a.owner_id, min(e.created_at) AS at
     FROM ledger_accounts a
     JOIN ledger_postings p ON p.account_id = a.id
     JOIN ledger_entries e ON e.id = p.entry_id
     WHERE a.book = $1 AND a.owner_id = ANY($2::bigint[]) AND e.kind = ANY($3::text[])
       AND CASE WHEN $4::boolean THEN p.amount > 0 ELSE p.amount < 0 END
       AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_entry_id = e.id)
     GROUP BY a.owner_id`,
    [q.book, q.ownerIds, q.kinds, q.credit],
  );
  return new Map(rows.map((r) => [Number(r.owner_id), new Date(r.at).toISOString()]));
}

/** The customers whose entries of `kind` in `book` (that credited them) were reversed in [from, to), and when. */
export async function reversalsOfCredits(
  db: Queryable,
  q: { book: Book; kind: string; from: string; to: string },
): Promise<{ ownerId: number; at: string }[]> {
  const rows = await db.query<{ owner_id: string; at: Date | string }>(
    `SELECT a.owner_id, max(r.created_at) AS at
     FROM ledger_entries r
     JOIN ledger_entries o ON o.id = r.reverses_entry_id AND o.kind = $2
     JOIN ledger_postings p ON p.entry_id = o.id AND p.amount > 0
     JOIN ledger_accounts a ON a.id = p.account_id AND a.owner_id IS NOT NULL
     WHERE r.book = $1 AND r.kind = 'reversal' AND r.created_at >= $3::timestamptz AND r.created_at < $4::timestamptz
     GROUP BY a.owner_id`,
    [q.book, q.kind, q.from, q.to],
  );
  return rows.map((r) => ({ ownerId: Number(r.owner_id), at: new Date(r.at).toISOString() }));
}

/**
 * Of these customers, those with an entry of `kinds` in `book` crediting them made before `before`
 * and not reversed before `before` (e.g. a live deposit that still stands at a day's end).
 */
export async function ownersWithStandingCredit(
  db: Queryable,
  q: { book: Book; ownerIds: readonly number[]; kinds: readonly string[]; before: string },
): Promise<Set<number>> {
  if (q.ownerIds.length === 0) return new Set();
  const rows = await db.query<{ owner_id: string }>(
    `SELECT DISTINCT a.owner_id
     FROM ledger_accounts a
     JOIN ledger_postings p ON p.account_id = a.id AND p.amount > 0
     JOIN ledger_entries e ON e.id = p.entry_id
     WHERE a.book = $1 AND a.owner_id = ANY($2::bigint[]) AND e.kind = ANY($3::text[]) AND e.created_at < $4::timestamptz
       AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_entry_id = e.id AND r.created_at < $4::timestamptz)`,
    [q.book, q.ownerIds, q.kinds, q.before],
  );
  return new Set(rows.map((r) => Number(r.owner_id)));
}

/** A fee given back: the reversal of an entry that collected `fee` from one customer on `day`. */
export type FeeReversal = { ownerId: number; day: string; asset: string; fee: bigint };

/**
 * The reversals made in [from, to) of entries of `kinds` in `book` that debited exactly one
 * customer: per customer, the original entry's UTC day and asset, what the `fees` accounts were
 * credited (net) by the entries reversed (the fee the reversal gave back).
 */
export function feeReversals(
  db: Queryable,
  q: { book: Book; from: string; to: string; kinds: readonly string[] },
): Promise<FeeReversal[]> {
  return feesByPayer(
    db,
    `SELECT e.id, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
     FROM ledger_entries r JOIN ledger_entries e ON e.id = r.reverses_entry_id
     WHERE r.book = $1 AND r.kind = 'reversal' AND r.created_at >= $2::timestamptz AND r.created_at < $3::timestamptz
       AND e.kind = ANY($4::text[])`,
    [q.book, q.from, q.to, q.kinds, null],
  );
}
