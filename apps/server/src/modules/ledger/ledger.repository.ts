import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/**
 * SQL of the ledger. Amounts cross this boundary as bigint; the database holds numeric(78,0). Here:
 * accounts and the checks of the whole journal; a batch's holds and its one write in
 * `ledger.batch.repository.ts`; the entries read back in `ledger.entries.repository.ts`.
 */

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

export type RawAccount = {
  id: string;
  book: Book;
  owner_id: string | null;
  asset: string;
  kind: string;
  allow_negative: boolean;
  balance: string;
  held: string;
};

export const toAccount = (r: RawAccount): AccountRow => ({
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

/**
 * The platform's own accounts (no owner, allowed below zero), created where missing, in two
 * statements for the whole set (a server start names 64): `book:asset:kind` → account id.
 */
export async function ensureSystemAccountSet(
  db: Queryable,
  accounts: readonly { book: Book; asset: string; kind: string }[],
): Promise<Map<string, number>> {
  if (accounts.length === 0) return new Map();
  const rows = await db.query<{ id: string; book: string; asset: string; kind: string }>(
    `WITH wanted AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS w(book, asset, kind)),
     inserted AS (
       INSERT INTO ledger_accounts (book, owner_id, asset, kind, allow_negative)
       SELECT w.book, NULL, w.asset, w.kind, true FROM wanted w
       WHERE NOT EXISTS (
         SELECT 1 FROM ledger_accounts a
         WHERE a.owner_id IS NULL AND a.book = w.book AND a.asset = w.asset AND a.kind = w.kind)
       ON CONFLICT (book, coalesce(owner_id, 0), asset, kind) DO NOTHING
       RETURNING id, book, asset, kind
     )
     SELECT a.id, a.book, a.asset, a.kind FROM ledger_accounts a
     JOIN wanted w ON a.owner_id IS NULL AND a.book = w.book AND a.asset = w.asset AND a.kind = w.kind
     UNION ALL
     SELECT id, book, asset, kind FROM inserted`,
    [accounts.map((a) => a.book), accounts.map((a) => a.asset), accounts.map((a) => a.kind)],
  );
  const ids = new Map(rows.map((r) => [`${r.book}:${r.asset}:${r.kind}`, Number(r.id)]));
  // One raced with another node's start (its insert conflicted, and this statement's snapshot
  // cannot see that row): those few are read one by one.
  for (const a of accounts) {
    const key = `${a.book}:${a.asset}:${a.kind}`;
    if (!ids.has(key))
      ids.set(
        key,
        await ensureAccount(db, {
          book: a.book,
          ownerId: null,
          asset: a.asset,
          kind: a.kind,
          allowNegative: true,
        }),
      );
  }
  return ids;
}

/**
 * Customer accounts of one kind for many owners, created where missing: owner id → account id.
 * Read first and insert only the missing ones: an insert that finds its row (ON CONFLICT DO
 * NOTHING) still costs a speculative insertion per owner, and most owners already have theirs.
 */
export async function ensureCustomerAccounts(
  db: Queryable,
  book: Book,
  ownerIds: readonly number[],
  asset: string,
  kind: string,
): Promise<Map<number, number>> {
  if (ownerIds.length === 0) return new Map();
  const read = async (owners: readonly number[]) =>
    db.query<{ id: string; owner_id: string }>(
      `SELECT id, owner_id FROM ledger_accounts
       WHERE book = $1 AND owner_id = ANY($2::bigint[]) AND asset = $3 AND kind = $4`,
      [book, owners, asset, kind],
    );
  const found = new Map((await read(ownerIds)).map((r) => [Number(r.owner_id), Number(r.id)]));
  const missing = ownerIds.filter((o) => !found.has(o));
  if (missing.length === 0) return found;
  await db.query(
    `INSERT INTO ledger_accounts (book, owner_id, asset, kind, allow_negative)
     SELECT $1, o, $3, $4, false FROM unnest($2::bigint[]) o
     ON CONFLICT (book, coalesce(owner_id, 0), asset, kind) DO NOTHING`,
    [book, missing, asset, kind],
  );
  for (const r of await read(missing)) found.set(Number(r.owner_id), Number(r.id));
  return found;
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
 * The request hash read back for a key that names a compound entry's posting (a bulk run's
 * line, ledger.bulk.ts): a transfer under that key replays that entry (ledger.plan.ts).
 */
export const COMPOUND_LINE = 'compound-line';

/**
 * Locks accounts in id order (as `lockAccounts`) and reads which of `entryKeys` already name an
 * entry (its own key, or a compound entry's posting key: `COMPOUND_LINE`), in ONE statement: a
 * batch's first step in one round trip. Both read the statement's snapshot: after waiting for a
 * lock another node's batch held, an entry that batch committed under one of the keys is not seen
 * here, and inserting it again fails on the key's unique index or the keys' trigger (0053; the
 * batcher then retries each operation alone, and the retry replays it).
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
     FROM ledger_entries WHERE idempotency_key = ANY($2::text[])
     UNION ALL
     SELECT 'entry', e.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, p.idempotency_key, '${COMPOUND_LINE}', e.created_at
     FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id
     WHERE p.idempotency_key IS NOT NULL AND p.idempotency_key = ANY($2::text[])`,
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

/** An account's pending holds summed by the first part of their reference (`deposit:12` → `deposit`; none → null). */
export type PendingHolds = { accountId: number; prefix: string | null; amount: bigint };

/**
 * A customer's accounts in a book and their pending holds summed by reference prefix, in ONE
 * statement: one snapshot, so each account's holds add up to its held figure.
 */
export async function accountsOfOwnerWithHolds(
  db: Queryable,
  book: Book,
  ownerId: number,
): Promise<{ accounts: AccountRow[]; holds: PendingHolds[] }> {
  const rows = await db.query<RawAccount & { what: 'account' | 'hold'; prefix: string | null }>(
    `SELECT 'account' AS what, id, book, owner_id, asset, kind, allow_negative, balance, held, NULL AS prefix
     FROM ledger_accounts WHERE book = $1 AND owner_id = $2
     UNION ALL
     SELECT 'hold', h.account_id, NULL, NULL, NULL, NULL, NULL, sum(h.amount), NULL, split_part(h.reference, ':', 1)
     FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
     WHERE a.book = $1 AND a.owner_id = $2 AND h.status = 'pending'
     GROUP BY h.account_id, split_part(h.reference, ':', 1)`,
    [book, ownerId],
  );
  const accounts: AccountRow[] = [];
  const holds: PendingHolds[] = [];
  for (const r of rows) {
    if (r.what === 'account') accounts.push(toAccount(r));
    else holds.push({ accountId: Number(r.id), prefix: r.prefix, amount: BigInt(r.balance) });
  }
  return { accounts, holds };
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
       (SELECT array_agg(k) FROM (
          SELECT idempotency_key AS k FROM ledger_entries WHERE idempotency_key = ANY($2::text[])
          UNION ALL
          SELECT idempotency_key FROM ledger_postings
          WHERE idempotency_key IS NOT NULL AND idempotency_key = ANY($2::text[])) used) AS used_keys
     FROM ledger_accounts WHERE id = $1`,
    [accountId, keys],
  );
  const row = rows[0];
  return row ? { account: toAccount(row), usedKeys: new Set(row.used_keys ?? []) } : null;
}

export type StoredEntry = { id: number; idempotencyKey: string; requestHash: string; createdAt: string };

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
