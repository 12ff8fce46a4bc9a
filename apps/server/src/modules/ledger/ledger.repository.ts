import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** SQL of the ledger. Amounts cross this boundary as bigint; the database holds numeric(78,0). */

export type { Book };

export type AccountRow = {
  id: number;
  book: Book;
  ownerId: number | null;
  asset: string;
  kind: string;
  allowNegative: boolean;
  balance: bigint;
  held: bigint;
};

type RawAccount = {
  id: string;
  book: Book;
  owner_id: string | null;
  asset: string;
  kind: string;
  allow_negative: boolean;
  balance: string;
  held: string;
};

const toAccount = (r: RawAccount): AccountRow => ({
  id: Number(r.id),
  book: r.book,
  ownerId: r.owner_id === null ? null : Number(r.owner_id),
  asset: r.asset,
  kind: r.kind,
  allowNegative: r.allow_negative,
  balance: BigInt(r.balance),
  held: BigInt(r.held),
});

export async function listAssets(db: Queryable): Promise<{ code: string; scale: number }[]> {
  return db.query<{ code: string; scale: number }>('SELECT code, scale FROM ledger_assets ORDER BY code');
}

/** Creates the account when missing; returns its id either way. */
export async function ensureAccount(
  db: Queryable,
  account: { book: Book; ownerId: number | null; asset: string; kind: string; allowNegative: boolean },
): Promise<number> {
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO ledger_accounts (book, owner_id, asset, kind, allow_negative) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (book, coalesce(owner_id, 0), asset, kind) DO NOTHING RETURNING id`,
    [account.book, account.ownerId, account.asset, account.kind, account.allowNegative],
  );
  if (inserted[0]) return Number(inserted[0].id);
  const found = await db.query<{ id: string }>(
    'SELECT id FROM ledger_accounts WHERE book = $1 AND coalesce(owner_id, 0) = coalesce($2::bigint, 0) AND asset = $3 AND kind = $4',
    [account.book, account.ownerId, account.asset, account.kind],
  );
  if (!found[0]) throw new Error('account vanished after insert conflict');
  return Number(found[0].id);
}

/** Customer accounts of one kind for many owners, created where missing: owner id → account id. */
export async function ensureCustomerAccounts(
  db: Queryable,
  book: Book,
  ownerIds: readonly number[],
  asset: string,
  kind: string,
): Promise<Map<number, number>> {
  if (ownerIds.length === 0) return new Map();
  await db.query(
    `INSERT INTO ledger_accounts (book, owner_id, asset, kind, allow_negative)
     SELECT $1, o, $3, $4, false FROM unnest($2::bigint[]) o
     ON CONFLICT (book, coalesce(owner_id, 0), asset, kind) DO NOTHING`,
    [book, ownerIds, asset, kind],
  );
  const rows = await db.query<{ id: string; owner_id: string }>(
    `SELECT id, owner_id FROM ledger_accounts
     WHERE book = $1 AND owner_id = ANY($2::bigint[]) AND asset = $3 AND kind = $4`,
    [book, ownerIds, asset, kind],
  );
  return new Map(rows.map((r) => [Number(r.owner_id), Number(r.id)]));
}

/** Locks accounts in id order (the same order everywhere, so batches never deadlock). */
export async function lockAccounts(tx: Queryable, ids: readonly number[]): Promise<AccountRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx.query<RawAccount>(
    `SELECT id, book, owner_id, asset, kind, allow_negative, balance, held FROM ledger_accounts
     WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows.map(toAccount);
}

/**
 * Locks accounts in id order (as `lockAccounts`) and reads which of `entryKeys` already name an
 * entry, in ONE statement: a batch's first step in one round trip. Both read the statement's
 * snapshot: after waiting for a lock another node's batch held, an entry that batch committed
 * under one of the keys is not seen here, and inserting it again fails on the key's unique index
 * (the batcher then retries each operation alone, and the retry replays it).
 */
export async function lockAccountsReadingKeys(
  tx: Queryable,
  ids: readonly number[],
  entryKeys: readonly string[],
): Promise<{ accounts: AccountRow[]; entries: StoredEntry[] }> {
  if (entryKeys.length === 0) return { accounts: await lockAccounts(tx, ids), entries: [] };
  const rows = await tx.query<
    RawAccount & {
      what: 'account' | 'entry';
      idempotency_key: string;
      request_hash: string;
      created_at: Date;
    }
  >(
    `WITH locked AS (
       SELECT id, book, owner_id, asset, kind, allow_negative, balance, held FROM ledger_accounts
       WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE
     )
     SELECT 'account' AS what, id, book, owner_id, asset, kind, allow_negative, balance, held,
       NULL AS idempotency_key, NULL AS request_hash, NULL::timestamptz AS created_at
     FROM locked
     UNION ALL
     SELECT 'entry', id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, idempotency_key, request_hash, created_at
     FROM ledger_entries WHERE idempotency_key = ANY($2::text[])`,
    [ids, entryKeys],
  );
  const accounts: AccountRow[] = [];
  const entries: StoredEntry[] = [];
  for (const r of rows) {
    if (r.what === 'account') accounts.push(toAccount(r));
    else
      entries.push({
        id: Number(r.id),
        idempotencyKey: r.idempotency_key,
        requestHash: r.request_hash,
        createdAt: new Date(r.created_at).toISOString(),
      });
  }
  return { accounts, entries };
}

export async function accountsOfOwner(db: Queryable, book: Book, ownerId: number): Promise<AccountRow[]> {
  const rows = await db.query<RawAccount>(
    `SELECT id, book, owner_id, asset, kind, allow_negative, balance, held FROM ledger_accounts
     WHERE book = $1 AND owner_id = $2 ORDER BY asset, kind`,
    [book, ownerId],
  );
  return rows.map(toAccount);
}

/** Customer accounts of one kind whose balance is not zero (e.g. margin held in open positions). */
export async function nonZeroAccountsOfKind(
  db: Queryable,
  kind: string,
  asset: string,
): Promise<AccountRow[]> {
  const rows = await db.query<RawAccount>(
    `SELECT id, book, owner_id, asset, kind, allow_negative, balance, held FROM ledger_accounts
     WHERE kind = $1 AND asset = $2 AND owner_id IS NOT NULL AND balance <> 0 ORDER BY id`,
    [kind, asset],
  );
  return rows.map(toAccount);
}

/** What customers hold in a book, per asset (every customer account: wallets and margins, held included). */
export async function customerTotals(db: Queryable, book: Book): Promise<Map<string, bigint>> {
  const rows = await db.query<{ asset: string; total: string }>(
    `SELECT asset, sum(balance)::text AS total FROM ledger_accounts
     WHERE book = $1 AND owner_id IS NOT NULL GROUP BY asset`,
    [book],
  );
  return new Map(rows.map((r) => [r.asset, BigInt(r.total)]));
}

export async function accountById(db: Queryable, id: number): Promise<AccountRow | null> {
  const rows = await db.query<RawAccount>(
    'SELECT id, book, owner_id, asset, kind, allow_negative, balance, held FROM ledger_accounts WHERE id = $1',
    [id],
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

/**
 * An account and which of `keys` name an entry, in one statement: one snapshot, so a payment is
 * either in both (its key and its effect on the balance) or in neither.
 */
export async function accountWithUsedKeys(
  db: Queryable,
  accountId: number,
  keys: readonly string[],
): Promise<{ account: AccountRow; usedKeys: Set<string> } | null> {
  const rows = await db.query<RawAccount & { used_keys: string[] | null }>(
    `SELECT id, book, owner_id, asset, kind, allow_negative, balance, held,
       (SELECT array_agg(idempotency_key) FROM ledger_entries WHERE idempotency_key = ANY($2::text[])) AS used_keys
     FROM ledger_accounts WHERE id = $1`,
    [accountId, keys],
  );
  const row = rows[0];
  return row ? { account: toAccount(row), usedKeys: new Set(row.used_keys ?? []) } : null;
}

export type StoredEntry = { id: number; idempotencyKey: string; requestHash: string; createdAt: string };

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
       INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, reference, actor, reason, reverses_entry_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
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
       SET status = r.status, resolution_key = r.resolution_key, posted_entry_id = e.id, resolved_at = now()
       FROM unnest($22::bigint[], $23::text[], $24::text[]) AS r(hold_id, status, resolution_key)
       LEFT JOIN new_entries e ON e.idempotency_key = r.resolution_key
       WHERE h.id = r.hold_id
     ), balances AS (
       UPDATE ledger_accounts a SET balance = a.balance + d.balance, held = a.held + d.held
       FROM unnest($25::bigint[], $26::numeric[], $27::numeric[]) AS d(account_id, balance, held)
       WHERE a.id = d.account_id
     )
     SELECT 'entry' AS what, id, idempotency_key AS key, created_at FROM new_entries
     UNION ALL
     SELECT 'hold', id, idempotency_key, NULL FROM new_holds`,
    [
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
    ],
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
  const rows = await db.query<EntryRow & { asset: string; amount: string; account_kind: string }>(
    `SELECT ${ENTRY_COLUMNS}, p.asset, p.amount, a.kind AS account_kind
     FROM ledger_postings p
     JOIN ledger_accounts a ON a.id = p.account_id
     JOIN ledger_entries e ON e.id = p.entry_id
     WHERE a.owner_id = $2 AND a.book = $1
       AND ($4::text IS NULL OR p.asset = $4)
       ${ENTRY_PAGE}`,
    ownerEntryParams(filter),
  );
  return rows.map((r) => ({
    ...ownerEntryOf(r),
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
  }>(
    `SELECT p.entry_id, p.account_id, a.owner_id, a.kind, p.asset, p.amount
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

/** Accounts whose stored balance or held amount differs from what their postings and pending holds say. */
export async function reconcileAccounts(
  db: Queryable,
): Promise<{ accountId: number; balance: bigint; postings: bigint; held: bigint; pending: bigint }[]> {
  const rows = await db.query<{
    id: string;
    balance: string;
    postings: string;
    held: string;
    pending: string;
  }>(
    `SELECT a.id, a.balance, coalesce(p.total, 0) AS postings, a.held, coalesce(h.total, 0) AS pending
     FROM ledger_accounts a
     LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_postings GROUP BY account_id) p ON p.account_id = a.id
     LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_holds WHERE status = 'pending' GROUP BY account_id) h ON h.account_id = a.id
     WHERE a.balance <> coalesce(p.total, 0) OR a.held <> coalesce(h.total, 0)
     ORDER BY a.id`,
  );
  return rows.map((r) => ({
    accountId: Number(r.id),
    balance: BigInt(r.balance),
    postings: BigInt(r.postings),
    held: BigInt(r.held),
    pending: BigInt(r.pending),
  }));
}

/** Sums of postings per book and asset (must all be zero) and customer accounts below zero (must be none). */
export async function ledgerInvariants(
  db: Queryable,
): Promise<{ unbalanced: { book: string; asset: string; total: bigint }[]; negativeCustomers: number[] }> {
  const unbalanced = await db.query<{ book: string; asset: string; total: string }>(
    'SELECT book, asset, sum(amount) AS total FROM ledger_postings GROUP BY book, asset HAVING sum(amount) <> 0',
  );
  const negative = await db.query<{ id: string }>(
    'SELECT id FROM ledger_accounts WHERE owner_id IS NOT NULL AND (balance < 0 OR balance - held < 0)',
  );
  return {
    unbalanced: unbalanced.map((r) => ({ book: r.book, asset: r.asset, total: BigInt(r.total) })),
    negativeCustomers: negative.map((r) => Number(r.id)),
  };
}
