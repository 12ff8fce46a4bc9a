import type { Queryable } from '../../platform/db.ts';

export type AlertRow = {
  id: number;
  kind: string;
  message: string;
  data: string;
  createdAt: string;
  mailedAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
};

type RawAlert = {
  id: string;
  kind: string;
  message: string;
  data: string;
  created_at: Date | string;
  mailed_at: Date | string | null;
  acknowledged_at: Date | string | null;
  acknowledged_by: string | null;
  resolved_at: Date | string | null;
  resolved_by: string | null;
};

const time = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const toAlert = (r: RawAlert): AlertRow => ({
  id: Number(r.id),
  kind: r.kind,
  message: r.message,
  data: r.data,
  createdAt: new Date(r.created_at).toISOString(),
  mailedAt: time(r.mailed_at),
  acknowledgedAt: time(r.acknowledged_at),
  acknowledgedBy: r.acknowledged_by,
  resolvedAt: time(r.resolved_at),
  resolvedBy: r.resolved_by,
});
const COLUMNS =
  'id, kind, message, data, created_at, mailed_at, acknowledged_at, acknowledged_by, resolved_at, resolved_by';

const STATE_FILTER = {
  open: 'acknowledged_at IS NULL AND resolved_at IS NULL',
  acknowledged: 'acknowledged_at IS NOT NULL AND resolved_at IS NULL',
  resolved: 'resolved_at IS NOT NULL',
} as const;

/** Alerts in one state, newest first; `beforeId` continues after the last id of the page before. */
export async function alertsIn(
  db: Queryable,
  state: keyof typeof STATE_FILTER,
  limit: number,
  beforeId: number | null,
): Promise<AlertRow[]> {
  const rows = await db.query<RawAlert>(
    `SELECT ${COLUMNS} FROM staff_alerts
     WHERE ${STATE_FILTER[state]} AND ($2::bigint IS NULL OR id < $2)
     ORDER BY id DESC LIMIT $1`,
    [limit, beforeId],
  );
  return rows.map(toAlert);
}

export async function alertById(db: Queryable, id: number, forUpdate = false): Promise<AlertRow | null> {
  const rows = await db.query<RawAlert>(
    `SELECT ${COLUMNS} FROM staff_alerts WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toAlert(rows[0]) : null;
}

/** Acknowledges an open alert; false when it is not open. */
export async function acknowledgeAlert(db: Queryable, id: number, actor: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE staff_alerts SET acknowledged_at = now(), acknowledged_by = $2
     WHERE id = $1 AND acknowledged_at IS NULL AND resolved_at IS NULL RETURNING id`,
    [id, actor],
  );
  return rows.length > 0;
}

/** Resolves an alert not resolved yet; false when it is. */
export async function resolveAlert(db: Queryable, id: number, actor: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE staff_alerts SET resolved_at = now(), resolved_by = $2 WHERE id = $1 AND resolved_at IS NULL RETURNING id',
    [id, actor],
  );
  return rows.length > 0;
}

/** Alerts whose mail has not gone out yet, oldest first. */
export async function unmailedAlerts(db: Queryable, limit: number): Promise<AlertRow[]> {
  const rows = await db.query<RawAlert>(
    `SELECT ${COLUMNS} FROM staff_alerts WHERE mailed_at IS NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows.map(toAlert);
}

/** Marks an alert mailed, once: false when another node marked it first. */
export async function markMailed(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE staff_alerts SET mailed_at = now() WHERE id = $1 AND mailed_at IS NULL RETURNING id',
    [id],
  );
  return rows.length > 0;
}

/** The unresolved alert of a recurring cause (kind and key), locked; null when there is none. */
export async function unresolvedByKey(db: Queryable, kind: string, key: string): Promise<number | null> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM staff_alerts WHERE kind = $1 AND dedupe_key = $2 AND resolved_at IS NULL FOR UPDATE',
    [kind, key],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

export async function setAlertKey(db: Queryable, id: number, key: string): Promise<void> {
  await db.query('UPDATE staff_alerts SET dedupe_key = $2 WHERE id = $1', [id, key]);
}

/** Releases an alert whose mail failed, for the next run. */
export async function unmarkMailed(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE staff_alerts SET mailed_at = NULL WHERE id = $1', [id]);
}
