import type { Queryable } from '../../../platform/db.ts';

/** SQL of the donation log: `nft_donation_log` (the leaves, append-only) and `nft_tree_heads`. */

export type LeafRow = {
  seq: number;
  kind: 'sale' | 'payout';
  dropId: number | null;
  tokenId: string | null;
  asset: string;
  amount: bigint;
  txHash: string | null;
  at: string;
  leafData: Buffer;
};

export type HeadRow = {
  size: number;
  root: Buffer;
  signedAt: string;
  keyId: string;
  publicKey: string;
  signature: string;
};

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const LEAF_COLUMNS = `seq::text, kind, drop_id::text, token_id::text, asset, amount::text, tx_hash,
  to_char(at AT TIME ZONE 'UTC', ${ISO_MS}) AS at, leaf_data`;

type RawLeaf = {
  seq: string;
  kind: 'sale' | 'payout';
  drop_id: string | null;
  token_id: string | null;
  asset: string;
  amount: string;
  tx_hash: string | null;
  at: string;
  leaf_data: Uint8Array;
};

const leafRow = (r: RawLeaf): LeafRow => ({
  seq: Number(r.seq),
  kind: r.kind,
  dropId: r.drop_id === null ? null : Number(r.drop_id),
  tokenId: r.token_id,
  asset: r.asset,
  amount: BigInt(r.amount),
  txHash: r.tx_hash,
  at: r.at,
  leafData: Buffer.from(r.leaf_data),
});

/** Serializes appends and tree heads (held until the transaction ends): the log grows one leaf at a time. */
export async function lockLog(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(49049)');
}

/** The number of leaves (they are numbered 0 … size − 1 without a gap). */
export async function logSize(db: Queryable): Promise<number> {
  // Leaves are numbered from 0 without gaps (the table's trigger): the size is the last seq + 1,
  // read from the primary key, not a count of the whole log.
  const rows = await db.query<{ size: string }>(
    'SELECT coalesce(max(seq) + 1, 0)::text AS size FROM nft_donation_log',
  );
  return Number(rows[0]?.size ?? 0);
}

export async function insertLeaf(tx: Queryable, leaf: LeafRow): Promise<void> {
  await tx.query(
    `INSERT INTO nft_donation_log (seq, kind, drop_id, token_id, asset, amount, tx_hash, at, leaf_data)
     VALUES ($1, $2, $3, $4::numeric, $5, $6::numeric, $7, $8::timestamptz, $9)`,
    [
      leaf.seq,
      leaf.kind,
      leaf.dropId,
      leaf.tokenId,
      leaf.asset,
      leaf.amount.toString(),
      leaf.txHash,
      leaf.at,
      leaf.leafData,
    ],
  );
}

/** The leaves' bytes, 0 … size − 1 in order. */
export async function leafData(db: Queryable, size: number): Promise<Buffer[]> {
  const rows = await db.query<{ leaf_data: Uint8Array }>(
    'SELECT leaf_data FROM nft_donation_log WHERE seq < $1 ORDER BY seq',
    [size],
  );
  return rows.map((r) => Buffer.from(r.leaf_data));
}

export async function leafAt(db: Queryable, seq: number): Promise<LeafRow | null> {
  const rows = await db.query<RawLeaf>(`SELECT ${LEAF_COLUMNS} FROM nft_donation_log WHERE seq = $1`, [seq]);
  return rows[0] ? leafRow(rows[0]) : null;
}

/**
 * Leaves newest first, below `before` (a seq) when given; a drop's only (its sale) when `dropId`
 * is given, read through `nft_donation_log_drop` (0054), not by paging through the whole log.
 */
export async function leavesPage(
  db: Queryable,
  before: number | null,
  limit: number,
  dropId: number | null = null,
): Promise<LeafRow[]> {
  const rows =
    dropId === null
      ? await db.query<RawLeaf>(
          `SELECT ${LEAF_COLUMNS} FROM nft_donation_log WHERE ($1::bigint IS NULL OR seq < $1)
           ORDER BY seq DESC LIMIT $2`,
          [before, limit],
        )
      : await db.query<RawLeaf>(
          `SELECT ${LEAF_COLUMNS} FROM nft_donation_log
           WHERE drop_id = $3 AND ($1::bigint IS NULL OR seq < $1)
           ORDER BY seq DESC LIMIT $2`,
          [before, limit, dropId],
        );
  return rows.map(leafRow);
}

/** The sum of the amounts of an asset per kind (a drop's only, when given). */
export async function sumsByKind(
  db: Queryable,
  asset: string,
  dropId: number | null,
): Promise<Map<string, bigint>> {
  const rows = await db.query<{ kind: string; total: string }>(
    `SELECT kind, sum(amount)::text AS total FROM nft_donation_log
     WHERE asset = $1 AND ($2::bigint IS NULL OR drop_id = $2) GROUP BY kind`,
    [asset, dropId],
  );
  return new Map(rows.map((r) => [r.kind, BigInt(r.total)]));
}

const HEAD_COLUMNS = `size::text, root, to_char(signed_at AT TIME ZONE 'UTC', ${ISO_MS}) AS signed_at,
  key_id, public_key, signature`;
type RawHead = {
  size: string;
  root: Uint8Array;
  signed_at: string;
  key_id: string;
  public_key: string;
  signature: string;
};
const headRow = (r: RawHead): HeadRow => ({
  size: Number(r.size),
  root: Buffer.from(r.root),
  signedAt: r.signed_at,
  keyId: r.key_id,
  publicKey: r.public_key,
  signature: r.signature,
});

export async function insertHead(tx: Queryable, head: HeadRow): Promise<void> {
  await tx.query(
    `INSERT INTO nft_tree_heads (size, root, signed_at, key_id, public_key, signature)
     VALUES ($1, $2, $3::timestamptz, $4, $5, $6)`,
    [head.size, head.root, head.signedAt, head.keyId, head.publicKey, head.signature],
  );
}

/** The latest head published (of `size` leaves, when given), or null. */
export async function latestHead(db: Queryable, size: number | null): Promise<HeadRow | null> {
  const rows = await db.query<RawHead>(
    `SELECT ${HEAD_COLUMNS} FROM nft_tree_heads WHERE ($1::bigint IS NULL OR size = $1)
     ORDER BY signed_at DESC, id DESC LIMIT 1`,
    [size],
  );
  return rows[0] ? headRow(rows[0]) : null;
}

/** The heads published, newest first. */
export async function headsPage(db: Queryable, limit: number): Promise<HeadRow[]> {
  const rows = await db.query<RawHead>(
    `SELECT ${HEAD_COLUMNS} FROM nft_tree_heads ORDER BY signed_at DESC, id DESC LIMIT $1`,
    [limit],
  );
  return rows.map(headRow);
}
