import type { UploadPurpose } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/**
 * Who owns an upload: a customer (their id), or someone who is not a customer named by the module
 * that takes it (`support_visitor:12`, `staff:3`).
 */
export type UploadOwner = number | string;
export type UploadContentType = 'image/jpeg' | 'image/png' | 'application/pdf';

/** The column an owner is kept in, and its value. */
const ownerColumn = (owner: UploadOwner) => (typeof owner === 'number' ? 'owner_id' : 'owner_ref');

export type UploadRow = {
  id: string;
  /** The customer who owns it; null when `ownerRef` does. */
  ownerId: number | null;
  ownerRef: string | null;
  purpose: UploadPurpose;
  contentType: UploadContentType;
  /** Null only for KYC photos stored before the uploads table (migration 0021). */
  size: number | null;
  width: number;
  height: number;
  storageKey: string;
  createdAt: string;
  usedFor: string | null;
};

type RawUpload = {
  id: string;
  owner_id: string | null;
  owner_ref: string | null;
  purpose: UploadPurpose;
  content_type: UploadContentType;
  size: string | null;
  width: number;
  height: number;
  storage_key: string;
  created_at: Date | string;
  used_for: string | null;
};

const COLUMNS =
  'id, owner_id, owner_ref, purpose, content_type, size, width, height, storage_key, created_at, used_for';

const toUpload = (r: RawUpload): UploadRow => ({
  id: r.id,
  ownerId: r.owner_id === null ? null : Number(r.owner_id),
  ownerRef: r.owner_ref,
  purpose: r.purpose,
  contentType: r.content_type,
  size: r.size === null ? null : Number(r.size),
  width: r.width,
  height: r.height,
  storageKey: r.storage_key,
  createdAt: new Date(r.created_at).toISOString(),
  usedFor: r.used_for,
});

export async function insertUpload(
  db: Queryable,
  u: Omit<UploadRow, 'createdAt' | 'usedFor' | 'size' | 'ownerId' | 'ownerRef'> & {
    owner: UploadOwner;
    size: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO uploads (id, ${ownerColumn(u.owner)}, purpose, content_type, size, width, height, storage_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [u.id, u.owner, u.purpose, u.contentType, u.size, u.width, u.height, u.storageKey],
  );
}

export async function findUpload(db: Queryable, id: string): Promise<UploadRow | null> {
  const rows = await db.query<RawUpload>(`SELECT ${COLUMNS} FROM uploads WHERE id = $1`, [id]);
  return rows[0] ? toUpload(rows[0]) : null;
}

/** An owner's upload's row: is it theirs? */
export const ownedBy = (row: UploadRow | undefined, owner: UploadOwner) =>
  row !== undefined && (typeof owner === 'number' ? row.ownerId === owner : row.ownerRef === owner);

export async function findUploads(db: Queryable, ids: string[]): Promise<UploadRow[]> {
  const rows = await db.query<RawUpload>(`SELECT ${COLUMNS} FROM uploads WHERE id = ANY($1::text[])`, [ids]);
  return rows.map(toUpload);
}

/**
 * Marks the given uploads taken by `usedFor`, each only if it is the owner's, unused and of the
 * purpose named for it; answers the ids taken (the caller checks it got them all). Rows are
 * locked in id order, so two takers of overlapping sets never deadlock.
 */
export async function takeUploads(
  db: Queryable,
  owner: UploadOwner,
  wanted: { id: string; purpose: UploadPurpose }[],
  usedFor: string,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH wanted AS (
       SELECT * FROM unnest($2::text[], $3::text[]) AS w(id, purpose)
     ), locked AS (
       SELECT u.id FROM uploads u JOIN wanted w ON w.id = u.id AND w.purpose = u.purpose
       WHERE u.${ownerColumn(owner)} = $1 AND u.used_at IS NULL ORDER BY u.id FOR UPDATE OF u
     )
     UPDATE uploads SET used_for = $4, used_at = now() WHERE id IN (SELECT id FROM locked) RETURNING id`,
    [owner, wanted.map((w) => w.id), wanted.map((w) => w.purpose), usedFor],
  );
  return rows.map((r) => r.id);
}

/**
 * Deletes an owner's unused uploads of a purpose beyond the newest `keep`, answering their storage
 * keys (the caller deletes the files). Bounds what a customer can leave lying in storage.
 */
export async function deleteUnusedBeyond(
  db: Queryable,
  owner: UploadOwner,
  purpose: UploadPurpose,
  keep: number,
): Promise<string[]> {
  const rows = await db.query<{ storage_key: string }>(
    `DELETE FROM uploads WHERE id IN (
       SELECT id FROM uploads WHERE ${ownerColumn(owner)} = $1 AND purpose = $2 AND used_at IS NULL
       ORDER BY created_at DESC, id DESC OFFSET $3
     ) AND used_at IS NULL RETURNING storage_key`,
    [owner, purpose, keep],
  );
  return rows.map((r) => r.storage_key);
}
