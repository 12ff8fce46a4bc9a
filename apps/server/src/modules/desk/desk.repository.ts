import type { Queryable } from '../../platform/db.ts';

/** SQL of the back office's customer view: the lock and unlock record of a customer. */
export async function insertStatusChange(
  db: Queryable,
  change: { userId: number; staffId: number; action: 'lock' | 'unlock'; reason: string },
): Promise<void> {
  await db.query(
    'INSERT INTO customer_status_changes (user_id, staff_id, action, reason) VALUES ($1, $2, $3, $4)',
    [change.userId, change.staffId, change.action, change.reason],
  );
}

export async function statusHistory(
  db: Queryable,
  userId: number,
): Promise<{ action: 'lock' | 'unlock'; reason: string; staffEmail: string; at: string }[]> {
  const rows = await db.query<{
    action: 'lock' | 'unlock';
    reason: string;
    email: string;
    created_at: Date | string;
  }>(
    `SELECT c.action, c.reason, f.email, c.created_at FROM customer_status_changes c
     JOIN staff f ON f.id = c.staff_id WHERE c.user_id = $1 ORDER BY c.id DESC LIMIT 50`,
    [userId],
  );
  return rows.map((r) => ({
    action: r.action,
    reason: r.reason,
    staffEmail: r.email,
    at: new Date(r.created_at).toISOString(),
  }));
}
