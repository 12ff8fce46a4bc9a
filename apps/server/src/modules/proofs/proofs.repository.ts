import type { ProofAssets } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { Sums } from './proofs.tree.ts';

/** SQL of proofs: `proof_roots` (one signed root per day and asset) and `proof_leaves` (its leaves, in order). */

export type RootRow = {
  day: string;
  asset: string;
  takenAt: string;
  rootHash: string;
  leafCount: number;
  totals: Sums;
  keyId: string;
  publicKey: string;
  message: string;
  signature: string;
  assets: ProofAssets | null;
};
export type LeafRow = { position: number; customerId: number; hash: Buffer; sums: Sums };

type RawRoot = {
  day: string;
  asset: string;
  taken_at: string;
  root_hash: string;
  leaf_count: number;
  balance: string;
  earn: string;
  smart: string;
  loan: string;
  key_id: string;
  public_key: string;
  message: string;
  signature: string;
  assets: ProofAssets | null;
};

const ROOT_COLUMNS = `to_char(day, 'YYYY-MM-DD') AS day, asset,
  to_char(taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS taken_at, root_hash, leaf_count,
  balance, earn, smart, loan, key_id, public_key, message, signature, assets`;

const toRoot = (r: RawRoot): RootRow => ({
  day: r.day,
  asset: r.asset,
  takenAt: r.taken_at,
  rootHash: r.root_hash,
  leafCount: Number(r.leaf_count),
  totals: [BigInt(r.balance), BigInt(r.earn), BigInt(r.smart), BigInt(r.loan)],
  keyId: r.key_id,
  publicKey: r.public_key,
  message: r.message,
  signature: r.signature,
  assets: r.assets,
});

export async function insertRoot(tx: Queryable, root: RootRow): Promise<void> {
  await tx.query(
    `INSERT INTO proof_roots (day, asset, taken_at, root_hash, leaf_count, balance, earn, smart, loan,
       key_id, public_key, message, signature, assets)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      root.day,
      root.asset,
      root.takenAt,
      root.rootHash,
      root.leafCount,
      ...root.totals.map(String),
      root.keyId,
      root.publicKey,
      root.message,
      root.signature,
      root.assets === null ? null : JSON.stringify(root.assets),
    ],
  );
}

/** The leaves of one tree, a few thousand rows a statement. */
export async function insertLeaves(
  tx: Queryable,
  day: string,
  asset: string,
  leaves: readonly LeafRow[],
): Promise<void> {
  const CHUNK = 5000;
  for (let from = 0; from < leaves.length; from += CHUNK) {
    const part = leaves.slice(from, from + CHUNK);
    await tx.query(
      `INSERT INTO proof_leaves (day, asset, position, customer_id, leaf_hash, balance, earn, smart, loan)
       SELECT $1::date, $2, p, c, decode(h, 'hex'), b, e, s, l
       FROM unnest($3::int[], $4::bigint[], $5::text[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[])
         AS t(p, c, h, b, e, s, l)`,
      [
        day,
        asset,
        part.map((l) => l.position),
        part.map((l) => l.customerId),
        part.map((l) => l.hash.toString('hex')),
        ...[0, 1, 2, 3].map((i) => part.map((l) => String(l.sums[i]))),
      ],
    );
  }
}

export async function dayExists(db: Queryable, day: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM proof_roots WHERE day = $1 LIMIT 1', [day]);
  return rows.length > 0;
}

export async function rootsOf(db: Queryable, day: string): Promise<RootRow[]> {
  const rows = await db.query<RawRoot>(
    `SELECT ${ROOT_COLUMNS} FROM proof_roots WHERE day = $1 ORDER BY asset`,
    [day],
  );
  return rows.map(toRoot);
}

export async function rootOf(db: Queryable, day: string, asset: string): Promise<RootRow | null> {
  const rows = await db.query<RawRoot>(
    `SELECT ${ROOT_COLUMNS} FROM proof_roots WHERE day = $1 AND asset = $2`,
    [day, asset],
  );
  return rows[0] ? toRoot(rows[0]) : null;
}

/** The days published, newest first. */
export async function publishedDays(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ day: string }>(
    `SELECT DISTINCT to_char(day, 'YYYY-MM-DD') AS day FROM proof_roots ORDER BY day DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.day);
}

type RawLeaf = {
  position: number;
  customer_id: string;
  leaf_hash: Uint8Array;
  balance: string;
  earn: string;
  smart: string;
  loan: string;
};
const toLeaf = (r: RawLeaf): LeafRow => ({
  position: Number(r.position),
  customerId: Number(r.customer_id),
  hash: Buffer.from(r.leaf_hash),
  sums: [BigInt(r.balance), BigInt(r.earn), BigInt(r.smart), BigInt(r.loan)],
});

export async function leavesOf(db: Queryable, day: string, asset: string): Promise<LeafRow[]> {
  const rows = await db.query<RawLeaf>(
    `SELECT position, customer_id, leaf_hash, balance, earn, smart, loan FROM proof_leaves
     WHERE day = $1 AND asset = $2 ORDER BY position`,
    [day, asset],
  );
  return rows.map(toLeaf);
}

export async function leafOf(
  db: Queryable,
  day: string,
  asset: string,
  customerId: number,
): Promise<LeafRow | null> {
  const rows = await db.query<RawLeaf>(
    `SELECT position, customer_id, leaf_hash, balance, earn, smart, loan FROM proof_leaves
     WHERE day = $1 AND asset = $2 AND customer_id = $3`,
    [day, asset, customerId],
  );
  return rows[0] ? toLeaf(rows[0]) : null;
}
