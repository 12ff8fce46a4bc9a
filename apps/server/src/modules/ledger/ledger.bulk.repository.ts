import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { type AccountRow, type RawAccount, toAccount } from './ledger.repository.ts';

/*
 * The SQL of a compound write (ledger.bulk.ts): which of a page's keys are already paid, and the
 * page's one write (its entries, their postings, the reservation's resolution, the balances).
 */

/**
 * Locks a page's accounts in id order (as `lockAccounts`) and answers only what the page's checks
 * need: the source's row, the other accounts not in `book` and the source's asset, and the ids
 * that name no account. A page of 2,000 lines reads back one row, not 2,001.
 */
export async function lockPageAccounts(
  tx: Queryable,
  ids: readonly number[],
  sourceId: number,
  book: Book,
): Promise<{ source: AccountRow | null; strays: Set<number>; missing: Set<number> }> {
  const rows = await tx.query<RawAccount & { what: 'source' | 'stray' | 'missing' }>(
    `WITH locked AS (
       SELECT id, book, owner_id, asset, kind, allow_negative, balance, held FROM ledger_accounts
       WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE
     ), source AS (SELECT * FROM locked WHERE id = $2)
     SELECT 'source' AS what, s.* FROM source s
     UNION ALL
     SELECT 'stray', l.* FROM locked l
     WHERE l.id <> $2 AND (l.book <> $3 OR l.asset IS DISTINCT FROM (SELECT asset FROM source))
     UNION ALL
     SELECT 'missing', m.id, NULL::text, NULL::bigint, NULL::text, NULL::text, NULL::boolean, NULL::numeric, NULL::numeric
     FROM unnest($1::bigint[]) AS m(id) WHERE NOT EXISTS (SELECT 1 FROM locked l WHERE l.id = m.id)`,
    [ids, sourceId, book],
  );
  const source = rows.find((r) => r.what === 'source');
  const idsOf = (what: 'stray' | 'missing') =>
    new Set(rows.filter((r) => r.what === what).map((r) => Number(r.id)));
  return { source: source ? toAccount(source) : null, strays: idsOf('stray'), missing: idsOf('missing') };
}

/** The keys among these that already name a payment: an entry's (one-entry-per-holding) or a compound posting's. */
export async function paidKeys(tx: Queryable, keys: readonly string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.query<{ key: string; entry_id: string }>(
    `SELECT idempotency_key AS key, id AS entry_id FROM ledger_entries WHERE idempotency_key = ANY($1::text[])
     UNION ALL
     SELECT idempotency_key, entry_id FROM ledger_postings
     WHERE idempotency_key IS NOT NULL AND idempotency_key = ANY($1::text[])`,
    [keys],
  );
  return new Map(rows.map((r) => [r.key, Number(r.entry_id)]));
}

/** One compound entry: the source's one debit and each line's credit, tied to it by its key. */
export type CompoundEntry = { key: string; requestHash: string; reference: string | null };
export type CompoundPosting = {
  entryKey: string;
  accountId: number;
  amount: bigint;
  /** A holding's key and reference on its own posting; null on the source's debit. */
  key: string | null;
  reference: string | null;
};

export type CompoundWrite = {
  book: Book;
  kind: string;
  asset: string;
  actor: string;
  entries: readonly CompoundEntry[];
  postings: readonly CompoundPosting[];
  /** The page's reservation leaving pending: posted by the first entry, or voided (nothing left to pay). */
  resolution: { holdId: number; status: 'posted' | 'voided'; key: string } | null;
  deltas: readonly { accountId: number; balance: bigint; held: bigint }[];
  at: string;
};

/**
 * Writes a page in ONE statement: its entries, their postings (joined by the entry's key), the
 * reservation's resolution and the net balance changes. The database checks at the end of the
 * statement that every entry nets to zero per asset, that no key names two payments and that no
 * customer account ends below zero. Answers each new entry's id and time by key.
 */
export async function writeCompound(
  tx: Queryable,
  w: CompoundWrite,
): Promise<Map<string, { id: number; createdAt: string }>> {
  const rows = await tx.query<{ id: string; key: string; created_at: Date }>(
    `WITH new_entries AS (
       INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, reference, actor, created_at)
       SELECT $1, $2, u.key, u.hash, u.reference, $3, $4::timestamptz
       FROM unnest($5::text[], $6::text[], $7::text[]) AS u(key, hash, reference)
       RETURNING id, idempotency_key, created_at
     ), new_postings AS (
       INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount, idempotency_key, reference)
       SELECT e.id, p.account_id, $1, $8, p.amount, p.key, p.reference
       FROM unnest($9::text[], $10::bigint[], $11::numeric[], $12::text[], $13::text[])
         AS p(entry_key, account_id, amount, key, reference)
       JOIN new_entries e ON e.idempotency_key = p.entry_key
     ), resolved AS (
       UPDATE ledger_holds h
       SET status = $15, resolution_key = $16, resolved_at = $4::timestamptz,
           posted_entry_id = (SELECT e.id FROM new_entries e WHERE e.idempotency_key = $17)
       WHERE h.id = $14::bigint
     ), balances AS (
       UPDATE ledger_accounts a SET balance = a.balance + d.balance, held = a.held + d.held
       FROM unnest($18::bigint[], $19::numeric[], $20::numeric[]) AS d(account_id, balance, held)
       -- = ANY gives the planner the primary key's index: without it, it hashes every account.
       WHERE a.id = d.account_id AND a.id = ANY($18::bigint[])
     )
     SELECT id, idempotency_key AS key, created_at FROM new_entries`,
    [
      w.book,
      w.kind,
      w.actor,
      w.at,
      w.entries.map((e) => e.key),
      w.entries.map((e) => e.requestHash),
      w.entries.map((e) => e.reference),
      w.asset,
      w.postings.map((p) => p.entryKey),
      w.postings.map((p) => p.accountId),
      w.postings.map((p) => p.amount.toString()),
      w.postings.map((p) => p.key),
      w.postings.map((p) => p.reference),
      w.resolution?.holdId ?? null,
      w.resolution?.status ?? null,
      w.resolution?.key ?? null,
      w.resolution?.status === 'posted' ? (w.entries[0]?.key ?? null) : null,
      w.deltas.map((d) => d.accountId),
      w.deltas.map((d) => d.balance.toString()),
      w.deltas.map((d) => d.held.toString()),
    ],
  );
  return new Map(
    rows.map((r) => [r.key, { id: Number(r.id), createdAt: new Date(r.created_at).toISOString() }]),
  );
}
