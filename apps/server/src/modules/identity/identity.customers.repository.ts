import type { Queryable } from '../../platform/db.ts';

export type CustomerRow = {
  id: number;
  userName: string;
  email: string | null;
  status: 'active' | 'locked';
  language: string;
  createdAt: string;
};

type RawCustomer = {
  id: string;
  user_name: string;
  email: string | null;
  status: 'active' | 'locked';
  language: string;
  created_at: Date | string;
};
const toCustomer = (r: RawCustomer): CustomerRow => ({
  id: Number(r.id),
  userName: r.user_name,
  email: r.email,
  status: r.status,
  language: r.language,
  createdAt: new Date(r.created_at).toISOString(),
});
const COLUMNS = 'id, user_name, email, status, language, created_at';

/**
 * Customers matching a staff search: the exact id, or a username or email containing the text
 * (case-insensitive, LIKE wildcards in the text taken literally). Newest first.
 */
export async function searchCustomers(
  db: Queryable,
  text: string,
  limit: number,
  beforeId: number | null = null,
): Promise<CustomerRow[]> {
  const id = /^\d{1,15}$/.test(text) ? Number(text) : null;
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.query<RawCustomer>(
    `SELECT ${COLUMNS} FROM users
     WHERE ($1::text = '' OR id = $2::bigint OR lower(user_name) LIKE $3 OR email LIKE $3)
       AND ($5::bigint IS NULL OR id < $5)
     ORDER BY id DESC LIMIT $4`,
    [text, id, pattern, limit, beforeId],
  );
  return rows.map(toCustomer);
}

export async function findCustomer(db: Queryable, id: number): Promise<CustomerRow | null> {
  const rows = await db.query<RawCustomer>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ? toCustomer(rows[0]) : null;
}

/** The languages of some customers by id (one read for a block of deposits' notices). */
export async function languagesOf(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  const rows = await db.query<{ id: string; language: string }>(
    'SELECT id, language FROM users WHERE id = ANY($1::bigint[])',
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.id), r.language]));
}

/** Usernames of some customers by id. */
export async function userNamesOf(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  const rows = await db.query<{ id: string; user_name: string }>(
    'SELECT id, user_name FROM users WHERE id = ANY($1::bigint[])',
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.id), r.user_name]));
}

export async function countLiveSessions(db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM sessions WHERE user_id = $1 AND expires_at > now()',
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Sets a customer's status; locking also ends every session and pending login challenge. Returns
 * false when the customer does not exist or already has that status.
 */
export async function setCustomerStatus(
  db: Queryable,
  userId: number,
  status: 'active' | 'locked',
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE users SET status = $2 WHERE id = $1 AND status <> $2 RETURNING id',
    [userId, status],
  );
  if (rows.length === 0) return false;
  if (status === 'locked') {
    await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
    await db.query('DELETE FROM login_challenges WHERE user_id = $1', [userId]);
  }
  return true;
}
