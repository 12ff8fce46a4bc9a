import type { Queryable } from './db.ts';

/** SQL of the database file store (storage.postgres.ts): one row per file. */
export async function insertStoredFile(
  db: Queryable,
  file: { key: string; contentType: string; bytes: Uint8Array },
): Promise<void> {
  await db.query('INSERT INTO stored_files (key, content_type, bytes) VALUES ($1, $2, $3)', [
    file.key,
    file.contentType,
    Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
  ]);
}

export async function selectStoredFile(
  db: Queryable,
  key: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  const rows = await db.query<{ bytes: Uint8Array; content_type: string }>(
    'SELECT bytes, content_type FROM stored_files WHERE key = $1',
    [key],
  );
  const row = rows[0];
  if (!row) return null;
  const bytes = Buffer.isBuffer(row.bytes)
    ? row.bytes
    : Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
  return { bytes, contentType: row.content_type };
}

export async function deleteStoredFile(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM stored_files WHERE key = $1', [key]);
}
