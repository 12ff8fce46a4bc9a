import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/* The SQL of the entries read back: an owner's entries and lines, an entry's postings. */

export type OwnerEntry = {
  entryId: number;
  kind: string;
  reference: string | null;
  reason: string | null;
  reversesEntryId: number | null;
  reversedBy: number | null;
  createdAt: string;
};

export type EntryLine = OwnerEntry & {
  asset: string;
  amount: bigint;
  accountKind: string;
};

/** Which of an owner's entries in a book to read, newest first: SQL parameters $1 to $8, in this order. */
type OwnerEntryFilter = {
  book: Book;
  ownerId: number;
  kind?: string;
  asset?: string;
  from?: string;
  to?: string;
  beforeId?: number;
  limit: number;
};

const ownerEntryParams = (filter: OwnerEntryFilter) => [
  filter.book,
  filter.ownerId,
  filter.kind ?? null,
  filter.asset ?? null,
  filter.from ?? null,
  filter.to ?? null,
  filter.beforeId ?? null,
  filter.limit,
];

/** An entry's own columns (of `ledger_entries e`), read into `OwnerEntry` by `ownerEntryOf`. */
const ENTRY_COLUMNS = `e.id AS entry_id, e.kind, e.reference, e.reason, e.reverses_entry_id,
            (SELECT r.id FROM ledger_entries r WHERE r.reverses_entry_id = e.id) AS reversed_by,
            e.created_at`;

/** The rest of the filter on `ledger_entries e` (kind, time range, before an id) and the page. */
const ENTRY_PAGE = `AND ($3::text IS NULL OR e.kind = $3)
       AND ($5::timestamptz IS NULL OR e.created_at >= $5)
       AND ($6::timestamptz IS NULL OR e.created_at < $6)
       AND ($7::bigint IS NULL OR e.id < $7)
     ORDER BY e.id DESC
     LIMIT $8`;

type EntryRow = {
  entry_id: string;
  kind: string;
  reference: string | null;
  reason: string | null;
  reverses_entry_id: string | null;
  reversed_by: string | null;
  created_at: Date;
};

const ownerEntryOf = (r: EntryRow): OwnerEntry => ({
  entryId: Number(r.entry_id),
  kind: r.kind,
  reference: r.reference,
  reason: r.reason,
  reversesEntryId: r.reverses_entry_id === null ? null : Number(r.reverses_entry_id),
  reversedBy: r.reversed_by === null ? null : Number(r.reversed_by),
  createdAt: new Date(r.created_at).toISOString(),
});

/** Entries that touched an owner's accounts in a book, newest first, with filters. */
export async function entryLinesOfOwner(db: Queryable, filter: OwnerEntryFilter): Promise<EntryLine[]> {
  const rows = await db.query<
    EntryRow & { asset: string; amount: string; account_kind: string; line_reference: string | null }
  >(
    `SELECT ${ENTRY_COLUMNS}, p.asset, p.amount, a.kind AS account_kind, p.reference AS line_reference
     FROM ledger_postings p
     JOIN ledger_accounts a ON a.id = p.account_id
     JOIN ledger_entries e ON e.id = p.entry_id
     WHERE a.owner_id = $2 AND a.book = $1
       AND ($4::text IS NULL OR p.asset = $4)
       ${ENTRY_PAGE}`,
    ownerEntryParams(filter),
  );
  // A compound entry's line carries its holding's reference: the customer's line shows it.
  return rows.map((r) => ({
    ...ownerEntryOf(r),
    reference: r.line_reference ?? r.reference,
    asset: r.asset,
    amount: BigInt(r.amount),
    accountKind: r.account_kind,
  }));
}

/**
 * The entries (not their lines) that touched an owner's accounts in a book, newest first: one
 * per economic event. `asset` keeps the entries with a posting of the owner's in that asset.
 */
export async function entriesOfOwner(db: Queryable, filter: OwnerEntryFilter): Promise<OwnerEntry[]> {
  const rows = await db.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS}
     FROM ledger_entries e
     WHERE e.id IN (SELECT p.entry_id FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
                    WHERE a.owner_id = $2 AND a.book = $1
                      AND ($4::text IS NULL OR p.asset = $4)
                      AND ($7::bigint IS NULL OR p.entry_id < $7))
       ${ENTRY_PAGE}`,
    ownerEntryParams(filter),
  );
  return rows.map(ownerEntryOf);
}

export type EntryPosting = {
  entryId: number;
  accountId: number;
  ownerId: number | null;
  accountKind: string;
  asset: string;
  amount: bigint;
  /** A compound entry's line (ledger.bulk.ts): its own key and reference; null on other postings. */
  lineKey: string | null;
  lineReference: string | null;
};

/** Every posting of the given entries with its account's owner and kind, by entry then account. */
export async function postingsOfEntries(db: Queryable, entryIds: readonly number[]): Promise<EntryPosting[]> {
  if (entryIds.length === 0) return [];
  const rows = await db.query<{
    entry_id: string;
    account_id: string;
    owner_id: string | null;
    kind: string;
    asset: string;
    amount: string;
    idempotency_key: string | null;
    reference: string | null;
  }>(
    `SELECT p.entry_id, p.account_id, a.owner_id, a.kind, p.asset, p.amount, p.idempotency_key, p.reference
     FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
     WHERE p.entry_id = ANY($1::bigint[])
     ORDER BY p.entry_id DESC, p.account_id`,
    [entryIds],
  );
  return rows.map((r) => ({
    entryId: Number(r.entry_id),
    accountId: Number(r.account_id),
    ownerId: r.owner_id === null ? null : Number(r.owner_id),
    accountKind: r.kind,
    asset: r.asset,
    amount: BigInt(r.amount),
    lineKey: r.idempotency_key,
    lineReference: r.reference,
  }));
}

export async function postingsOfEntry(
  db: Queryable,
  entryId: number,
): Promise<{ accountId: number; asset: string; amount: bigint; book: Book }[]> {
  const rows = await db.query<{ account_id: string; asset: string; amount: string; book: Book }>(
    'SELECT account_id, asset, amount, book FROM ledger_postings WHERE entry_id = $1 ORDER BY account_id',
    [entryId],
  );
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    asset: r.asset,
    amount: BigInt(r.amount),
    book: r.book,
  }));
}

export async function entryById(
  db: Queryable,
  id: number,
): Promise<{ id: number; book: Book; kind: string; reversedBy: number | null } | null> {
  const rows = await db.query<{ id: string; book: Book; kind: string; reversed_by: string | null }>(
    `SELECT e.id, e.book, e.kind, (SELECT r.id FROM ledger_entries r WHERE r.reverses_entry_id = e.id) AS reversed_by
     FROM ledger_entries e WHERE e.id = $1`,
    [id],
  );
  const r = rows[0];
  return r
    ? {
        id: Number(r.id),
        book: r.book,
        kind: r.kind,
        reversedBy: r.reversed_by === null ? null : Number(r.reversed_by),
      }
    : null;
}
