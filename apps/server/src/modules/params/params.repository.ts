import type { Queryable } from '../../platform/db.ts';

export async function findPublicParam(
  db: Queryable,
  key: string,
): Promise<{ key: string; value: string } | null> {
  const rows = await db.query<{ key: string; value: string }>(
    'SELECT key, value FROM system_params WHERE key = $1 AND is_public',
    [key],
  );
  return rows[0] ?? null;
}

export async function findParam(db: Queryable, key: string): Promise<string | null> {
  const rows = await db.query<{ value: string }>('SELECT value FROM system_params WHERE key = $1', [key]);
  return rows[0]?.value ?? null;
}

/** Inserts defaults that are missing; a value staff changed is left alone. */
export async function insertMissingParams(
  db: Queryable,
  params: readonly { key: string; value: string; isPublic: boolean; description: string }[],
): Promise<void> {
  for (const p of params) {
    await db.query(
      `INSERT INTO system_params (key, value, is_public, description) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO NOTHING`,
      [p.key, p.value, p.isPublic, p.description],
    );
  }
}
