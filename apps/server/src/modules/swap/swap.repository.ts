import type { Book, SwapAsset } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/**
 * SQL of swap pairs and swaps. Amounts cross this boundary as bigint; the database holds numeric.
 * Every time written (`at`) is the service's clock, given by the caller: never the database's `now()`.
 */
export type PairRow = {
  from: SwapAsset;
  to: SwapAsset;
  minMinor: bigint;
  maxMinor: bigint;
  feePpm: bigint;
  enabled: boolean;
  updatedAt: string;
  /** The staff member who changed it last, by email; null for the seeded settings. */
  updatedBy: string | null;
};

export type SwapRow = {
  id: number;
  userId: number;
  book: Book;
  from: SwapAsset;
  to: SwapAsset;
  amount: bigint;
  gross: bigint;
  spread: bigint;
  fee: bigint;
  receive: bigint;
  rate: string;
  price: string;
  feePpm: bigint;
  quoteTime: number;
  requestId: string;
  entryId: number;
  createdAt: string;
};

/** A swap as the entry's attachment carries it (everything but what the database assigns). */
export type NewSwap = Omit<SwapRow, 'id' | 'entryId' | 'createdAt'>;

type Raw = Record<string, string | number | boolean | Date | null>;

const big = (v: unknown): bigint => BigInt(v as string);
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

const PAIR_COLUMNS = `p.from_asset, p.to_asset, p.min_minor, p.max_minor, p.fee_rate_ppm, p.enabled,
  p.updated_at, s.email AS updated_by`;

function pairOf(r: Raw): PairRow {
  return {
    from: r.from_asset as SwapAsset,
    to: r.to_asset as SwapAsset,
    minMinor: big(r.min_minor),
    maxMinor: big(r.max_minor),
    feePpm: big(r.fee_rate_ppm),
    enabled: Boolean(r.enabled),
    updatedAt: iso(r.updated_at),
    updatedBy: r.updated_by === null ? null : String(r.updated_by),
  };
}

/** Every pair, in a stable order (by `from`, then `to`, in the assets' order of listing). */
export async function listPairs(db: Queryable): Promise<PairRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${PAIR_COLUMNS} FROM swap_pairs p LEFT JOIN staff s ON s.id = p.updated_by
     ORDER BY array_position(ARRAY['USDT','USDC','BTC','ETH'], p.from_asset),
              array_position(ARRAY['USDT','USDC','BTC','ETH'], p.to_asset)`,
  );
  return rows.map(pairOf);
}

export async function pairOfAssets(db: Queryable, from: SwapAsset, to: SwapAsset): Promise<PairRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${PAIR_COLUMNS} FROM swap_pairs p LEFT JOIN staff s ON s.id = p.updated_by
     WHERE p.from_asset = $1 AND p.to_asset = $2`,
    [from, to],
  );
  return rows[0] ? pairOf(rows[0]) : null;
}

/** Changes a pair's settings; the row before the change, or null when there is no such pair. */
export async function updatePair(
  tx: Queryable,
  change: Pick<PairRow, 'from' | 'to' | 'minMinor' | 'maxMinor' | 'feePpm' | 'enabled'> & { staffId: number },
  at: string,
): Promise<PairRow | null> {
  const before = await tx.query<Raw>(
    `SELECT ${PAIR_COLUMNS} FROM swap_pairs p LEFT JOIN staff s ON s.id = p.updated_by
     WHERE p.from_asset = $1 AND p.to_asset = $2 FOR UPDATE OF p`,
    [change.from, change.to],
  );
  if (!before[0]) return null;
  await tx.query(
    `UPDATE swap_pairs SET min_minor = $3, max_minor = $4, fee_rate_ppm = $5, enabled = $6,
       updated_at = $8, updated_by = $7
     WHERE from_asset = $1 AND to_asset = $2`,
    [
      change.from,
      change.to,
      change.minMinor.toString(),
      change.maxMinor.toString(),
      change.feePpm.toString(),
      change.enabled,
      change.staffId,
      at,
    ],
  );
  return pairOf(before[0]);
}

const SWAP_COLUMNS = `id, user_id, book, from_asset, to_asset, amount_minor, gross_minor, spread_minor,
  fee_minor, receive_minor, rate, price, fee_rate_ppm, quote_time, request_id, entry_id, created_at`;

function swapOf(r: Raw): SwapRow {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    book: r.book as Book,
    from: r.from_asset as SwapAsset,
    to: r.to_asset as SwapAsset,
    amount: big(r.amount_minor),
    gross: big(r.gross_minor),
    spread: big(r.spread_minor),
    fee: big(r.fee_minor),
    receive: big(r.receive_minor),
    rate: String(r.rate),
    price: String(r.price),
    feePpm: big(r.fee_rate_ppm),
    quoteTime: Number(r.quote_time),
    requestId: String(r.request_id),
    entryId: Number(r.entry_id),
    createdAt: iso(r.created_at),
  };
}

/** Inserts the swaps of a batch of `swap` entries (one statement), in the ledger's transaction. */
export async function insertSwaps(
  tx: Queryable,
  rows: readonly { entryId: number; data: NewSwap }[],
  at: string,
): Promise<Map<number, SwapRow>> {
  const col = <T>(pick: (s: NewSwap) => T) => rows.map((r) => pick(r.data));
  const inserted = await tx.query<Raw>(
    `INSERT INTO swaps (user_id, book, from_asset, to_asset, amount_minor, gross_minor, spread_minor,
       fee_minor, receive_minor, rate, price, fee_rate_ppm, quote_time, request_id, entry_id, created_at)
     SELECT *, $16::timestamptz FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[],
       $7::numeric[], $8::numeric[], $9::numeric[], $10::text[], $11::text[], $12::bigint[], $13::bigint[],
       $14::text[], $15::bigint[])
     RETURNING ${SWAP_COLUMNS}`,
    [
      col((s) => s.userId),
      col((s) => s.book),
      col((s) => s.from),
      col((s) => s.to),
      col((s) => s.amount.toString()),
      col((s) => s.gross.toString()),
      col((s) => s.spread.toString()),
      col((s) => s.fee.toString()),
      col((s) => s.receive.toString()),
      col((s) => s.rate),
      col((s) => s.price),
      col((s) => s.feePpm.toString()),
      col((s) => s.quoteTime),
      col((s) => s.requestId),
      rows.map((r) => r.entryId),
      at,
    ],
  );
  return new Map(inserted.map((r) => [Number(r.entry_id), swapOf(r)]));
}

export async function swapByRequest(
  db: Queryable,
  userId: number,
  book: Book,
  requestId: string,
): Promise<SwapRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${SWAP_COLUMNS} FROM swaps WHERE user_id = $1 AND book = $2 AND request_id = $3`,
    [userId, book, requestId],
  );
  return rows[0] ? swapOf(rows[0]) : null;
}

export async function swapByEntry(db: Queryable, entryId: number): Promise<SwapRow | null> {
  const rows = await db.query<Raw>(`SELECT ${SWAP_COLUMNS} FROM swaps WHERE entry_id = $1`, [entryId]);
  return rows[0] ? swapOf(rows[0]) : null;
}

export async function swapsOfEntries(db: Queryable, entryIds: readonly number[]): Promise<SwapRow[]> {
  const rows = await db.query<Raw>(`SELECT ${SWAP_COLUMNS} FROM swaps WHERE entry_id = ANY($1::bigint[])`, [
    [...entryIds],
  ]);
  return rows.map(swapOf);
}

/** A customer's swaps in one book, newest first, below the `before` id (keyset). */
export async function swapsOf(
  db: Queryable,
  userId: number,
  book: Book,
  before: number | null,
  limit: number,
): Promise<SwapRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${SWAP_COLUMNS} FROM swaps
     WHERE user_id = $1 AND book = $2 AND ($3::bigint IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
    [userId, book, before, limit],
  );
  return rows.map(swapOf);
}
