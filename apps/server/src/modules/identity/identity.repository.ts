import type { Queryable } from '../../platform/db.ts';

export type UserRow = {
  id: number;
  userName: string;
  email: string | null;
  passwordHash: string;
  status: 'active' | 'locked';
  language: string;
};

type RawUser = {
  id: string;
  user_name: string;
  email: string | null;
  password_hash: string;
  status: 'active' | 'locked';
  language: string;
};
const toUser = (r: RawUser): UserRow => ({
  id: Number(r.id),
  userName: r.user_name,
  email: r.email,
  passwordHash: r.password_hash,
  status: r.status,
  language: r.language,
});

/** A user by login name: their username, or their email address. */
export async function findUserByLogin(db: Queryable, login: string): Promise<UserRow | null> {
  const rows = await db.query<RawUser>(
    'SELECT id, user_name, email, password_hash, status, language FROM users WHERE lower(user_name) = lower($1) OR email = lower($1) ORDER BY id LIMIT 1',
    [login],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function userNameOrEmailTaken(
  db: Queryable,
  userName: string,
  email: string | null,
): Promise<{ userName: boolean; email: boolean }> {
  const rows = await db.query<{ name_taken: boolean; email_taken: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE lower(user_name) = lower($1) OR email = lower($1)) AS name_taken,
            EXISTS (SELECT 1 FROM users WHERE $2::text IS NOT NULL AND (email = lower($2) OR lower(user_name) = lower($2))) AS email_taken`,
    [userName, email],
  );
  return { userName: rows[0]?.name_taken ?? false, email: rows[0]?.email_taken ?? false };
}

export async function insertUser(
  db: Queryable,
  user: { userName: string; email: string | null; passwordHash: string; language: string },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO users (user_name, email, password_hash, language) VALUES ($1, $2, $3, $4) RETURNING id',
    [user.userName, user.email, user.passwordHash, user.language],
  );
  return Number(rows[0]?.id);
}

export async function insertSession(
  db: Queryable,
  session: {
    id: string;
    userId: number;
    tokenHash: string;
    userAgent: string;
    ip: string;
    ttlSeconds: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id, user_id, token_hash, user_agent, ip, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 second')`,
    [
      session.id,
      session.userId,
      session.tokenHash,
      session.userAgent.slice(0, 300),
      session.ip.slice(0, 64),
      session.ttlSeconds,
    ],
  );
}

/** The live session of a token hash, with its user; expired sessions and locked users give nothing. */
export async function findSession(
  db: Queryable,
  tokenHash: string,
): Promise<{ sessionId: string; userId: number; userName: string; lastSeenSeconds: number } | null> {
  const rows = await db.query<{ id: string; user_id: string; user_name: string; idle: string }>(
    `SELECT s.id, s.user_id, u.user_name, extract(epoch FROM now() - s.last_seen_at)::bigint AS idle
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > now() AND u.status = 'active'`,
    [tokenHash],
  );
  const r = rows[0];
  return r
    ? { sessionId: r.id, userId: Number(r.user_id), userName: r.user_name, lastSeenSeconds: Number(r.idle) }
    : null;
}

/** Sliding expiry: a session in use is renewed. */
export async function touchSession(db: Queryable, sessionId: string, ttlSeconds: number): Promise<void> {
  await db.query(
    "UPDATE sessions SET last_seen_at = now(), expires_at = now() + $2 * interval '1 second' WHERE id = $1",
    [sessionId, ttlSeconds],
  );
}

export async function deleteSession(db: Queryable, sessionId: string, userId: number): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2', [sessionId, userId]);
}

export async function countSessionsByTokenHash(db: Queryable, tokenHash: string): Promise<number> {
  const rows = await db.query<{ n: string }>('SELECT count(*) AS n FROM sessions WHERE token_hash = $1', [
    tokenHash,
  ]);
  return Number(rows[0]?.n ?? 0);
}

export async function insertCode(
  db: Queryable,
  code: {
    channel: 'email' | 'sms';
    target: string;
    purpose: 'register' | 'reset';
    codeHash: string;
    ttlSeconds: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO verification_codes (channel, target, purpose, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + $5 * interval '1 second')`,
    [code.channel, code.target, code.purpose, code.codeHash, code.ttlSeconds],
  );
}

/** The newest usable code for a target and purpose, locked for checking. */
export async function latestCode(
  db: Queryable,
  target: string,
  purpose: 'register' | 'reset',
): Promise<{ id: number; codeHash: string; attempts: number } | null> {
  const rows = await db.query<{ id: string; code_hash: string; attempts: number }>(
    `SELECT id, code_hash, attempts FROM verification_codes
     WHERE target = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
     ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [target, purpose],
  );
  const r = rows[0];
  return r ? { id: Number(r.id), codeHash: r.code_hash, attempts: r.attempts } : null;
}

export async function recordCodeAttempt(db: Queryable, id: number, used: boolean): Promise<void> {
  await db.query(
    'UPDATE verification_codes SET attempts = attempts + 1, used_at = CASE WHEN $2 THEN now() ELSE used_at END WHERE id = $1',
    [id, used],
  );
}

export async function countUsers(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: string }>('SELECT count(*) AS n FROM users');
  return Number(rows[0]?.n ?? 0);
}

/** A new password hash; every session of the user ends with it. */
export async function replacePassword(db: Queryable, userId: number, passwordHash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, password_changed_at = now() WHERE id = $1', [
    userId,
    passwordHash,
  ]);
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
}
