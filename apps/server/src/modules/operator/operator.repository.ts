import type { Queryable } from '../../platform/db.ts';

export type OperatorRow = { settings: unknown; updated_at: Date | string; updated_by_email: string | null };

export async function findOperatorSettings(db: Queryable): Promise<OperatorRow | null> {
  const rows = await db.query<OperatorRow>(
    `SELECT o.settings, o.updated_at, s.email AS updated_by_email
     FROM operator_settings o LEFT JOIN staff s ON s.id = o.updated_by
     WHERE o.id = 1`,
  );
  return rows[0] ?? null;
}

/** The previous settings, locked for this transaction (so two saves apply one after the other). */
export async function lockOperatorSettings(db: Queryable): Promise<unknown | null> {
  const rows = await db.query<{ settings: unknown }>(
    'SELECT settings FROM operator_settings WHERE id = 1 FOR UPDATE',
  );
  return rows[0]?.settings ?? null;
}

export async function saveOperatorSettings(db: Queryable, settings: unknown, staffId: number): Promise<void> {
  await db.query(
    `INSERT INTO operator_settings (id, settings, updated_at, updated_by) VALUES (1, $1::jsonb, now(), $2)
     ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now(), updated_by = EXCLUDED.updated_by`,
    [JSON.stringify(settings), staffId],
  );
}
