import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/* The SQL of a ledger batch (ledger.batch.ts): the holds it locks and reads, and its one write. */

export type HoldRow = {
  id: number;
  accountId: number;
  book: Book;
  asset: string;
  amount: bigint;
  status: 'pending' | 'posted' | 'voided';
  idempotencyKey: string;
  requestHash: string;
  resolutionKey: string | null;
  postedEntryId: number | null;
};

type RawHold = {
  id: string;
  account_id: string;
  book: Book;
  asset: string;
  amount: string;
  status: HoldRow['status'];
  idempotency_key: string;
  request_hash: string;
  resolution_key: string | null;
  posted_entry_id: string | null;
};

const toHold = (r: RawHold): HoldRow => ({
  id: Number(r.id),
  accountId: Number(r.account_id),
  book: r.book,
  asset: r.asset,
  amount: BigInt(r.amount),
  status: r.status,
  idempotencyKey: r.idempotency_key,
  requestHash: r.request_hash,
  resolutionKey: r.resolution_key,
  postedEntryId: r.posted_entry_id === null ? null : Number(r.posted_entry_id),
});

const HOLD_COLUMNS =
  'id, account_id, book, asset, amount, status, idempotency_key, request_hash, resolution_key, posted_entry_id';

export async function lockHolds(tx: Queryable, ids: readonly number[]): Promise<HoldRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx.query<RawHold>(
    `SELECT ${HOLD_COLUMNS} FROM ledger_holds WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows.map(toHold);
}

export async function holdsByKeys(tx: Queryable, keys: readonly string[]): Promise<HoldRow[]> {
  if (keys.length === 0) return [];
  const rows = await tx.query<RawHold>(
    `SELECT ${HOLD_COLUMNS} FROM ledger_holds WHERE idempotency_key = ANY($1::text[])`,
    [keys],
  );
  return rows.map(toHold);
}

export async function holdsByResolutionKeys(tx: Queryable, keys: readonly string[]): Promise<HoldRow[]> {
  if (keys.length === 0) return [];
  const rows = await tx.query<RawHold>(
    `SELECT ${HOLD_COLUMNS} FROM ledger_holds WHERE resolution_key = ANY($1::text[])`,
    [keys],
  );
  return rows.map(toHold);
}

export type NewEntry = {
  book: Book;
  kind: string;
  idempotencyKey: string;
  requestHash: string;
  reference: string | null;
  actor: string;
  reason: string | null;
  reversesEntryId: number | null;
};

/** A posting of a new entry, tied to its entry by the entry's idempotency key. */
export type NewPosting = { entryKey: string; accountId: number; book: Book; asset: string; amount: bigint };

export type NewHold = {
  accountId: number;
  book: Book;
  asset: string;
  amount: bigint;
  idempotencyKey: string;
  requestHash: string;
  reference: string | null;
  actor: string;
};

/** A hold leaving pending; a posted one names the entry (by key) that moved its money. */
export type HoldResolution = { holdId: number; status: 'posted' | 'voided'; resolutionKey: string };

export type BatchWrite = {
  entries: readonly NewEntry[];
  postings: readonly NewPosting[];
  holds: readonly NewHold[];
  resolutions: readonly HoldResolution[];
  /** Each account's net change over the batch: CHECK constraints see only the final values. */
  deltas: readonly { accountId: number; balance: bigint; held: bigint }[];
  /** When the batch is written, on the service clock (ISO): its entries' and resolved holds' time. */
  at: string;
};

/**
 * Writes a whole batch in ONE statement: entries, their postings (joined by key), new holds,
 * resolved holds and the net balance changes. The database checks, at the end of the statement,
 * that every entry nets to zero per asset, that foreign keys hold (no entry mixes books) and that
 * no customer account ends below zero. Returns new entry and hold ids by idempotency key.
 */
export async function writeBatch(
  tx: Queryable,
  batch: BatchWrite,
): Promise<{ entries: Map<string, { id: number; createdAt: string }>; holds: Map<string, number> }> {
  const rows = await tx.query<{ what: 'entry' | 'hold'; id: string; key: string; created_at: Date | null }>(
    `WITH new_entries AS (
       INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, reference, actor, reason, reverses_entry_id, created_at)
       SELECT u.*, $28::timestamptz FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[]) AS u
       RETURNING id, idempotency_key, created_at
     ), new_postings AS (
       INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount)
       SELECT e.id, p.account_id, p.book, p.asset, p.amount
       FROM unnest($9::text[], $10::bigint[], $11::text[], $12::text[], $13::numeric[]) AS p(entry_key, account_id, book, asset, amount)
       JOIN new_entries e ON e.idempotency_key = p.entry_key
     ), new_holds AS (
       INSERT INTO ledger_holds (account_id, book, asset, amount, idempotency_key, request_hash, reference, actor)
       SELECT * FROM unnest($14::bigint[], $15::text[], $16::text[], $17::numeric[], $18::text[], $19::text[], $20::text[], $21::text[])
       RETURNING id, idempotency_key
     ), resolved AS (
       UPDATE ledger_holds h
       SET status = r.status, resolution_key = r.resolution_key, posted_entry_id = e.id, resolved_at = $28::timestamptz
       FROM unnest($22::bigint[], $23::text[], $24::text[]) AS r(hold_id, status, resolution_key)
       LEFT JOIN new_entries e ON e.idempotency_key = r.resolution_key
       WHERE h.id = r.hold_id
     ), balances AS (
       UPDATE ledger_accounts a SET balance = a.balance + d.balance, held = a.held + d.held
       FROM unnest($25::bigint[], $26::numeric[], $27::numeric[]) AS d(account_id, balance, held)
       -- = ANY gives the planner the primary key's index: without it, it may hash every account.
       WHERE a.id = d.account_id AND a.id = ANY($25::bigint[])
     )
     SELECT 'entry' AS what, id, idempotency_key AS key, created_at FROM new_entries
     UNION ALL
     SELECT 'hold', id, idempotency_key, NULL FROM new_holds`,
    batchParams(batch),
  );
  const entries = new Map<string, { id: number; createdAt: string }>();
  const holds = new Map<string, number>();
  for (const r of rows) {
    if (r.what === 'entry')
      entries.set(r.key, { id: Number(r.id), createdAt: new Date(r.created_at ?? 0).toISOString() });
    else holds.set(r.key, Number(r.id));
  }
  return { entries, holds };
}

/** The write's parameters, $1 to $27: one array per column; $28 the batch's time. */
function batchParams(batch: BatchWrite): unknown[] {
  return [
    batch.entries.map((e) => e.book),
    batch.entries.map((e) => e.kind),
    batch.entries.map((e) => e.idempotencyKey),
    batch.entries.map((e) => e.requestHash),
    batch.entries.map((e) => e.reference),
    batch.entries.map((e) => e.actor),
    batch.entries.map((e) => e.reason),
    batch.entries.map((e) => e.reversesEntryId),
    batch.postings.map((p) => p.entryKey),
    batch.postings.map((p) => p.accountId),
    batch.postings.map((p) => p.book),
    batch.postings.map((p) => p.asset),
    batch.postings.map((p) => p.amount.toString()),
    batch.holds.map((h) => h.accountId),
    batch.holds.map((h) => h.book),
    batch.holds.map((h) => h.asset),
    batch.holds.map((h) => h.amount.toString()),
    batch.holds.map((h) => h.idempotencyKey),
    batch.holds.map((h) => h.requestHash),
    batch.holds.map((h) => h.reference),
    batch.holds.map((h) => h.actor),
    batch.resolutions.map((r) => r.holdId),
    batch.resolutions.map((r) => r.status),
    batch.resolutions.map((r) => r.resolutionKey),
    batch.deltas.map((d) => d.accountId),
    batch.deltas.map((d) => d.balance.toString()),
    batch.deltas.map((d) => d.held.toString()),
    batch.at,
  ];
}
