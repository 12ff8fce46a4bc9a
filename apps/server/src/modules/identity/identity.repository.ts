import type { Queryable } from '../../platform/db.ts';

/** What a one-time code is for: registering, resetting a password, confirming a withdrawal. */
export type CodePurpose = 'register' | 'reset' | 'withdrawal';

export type UserRow = {
  id: number;
  userName: string;
  email: string | null;
  /** E.164, for accounts opened by phone. */
  phone: string | null;
  passwordHash: string;
  status: 'active' | 'locked';
  language: string;
};

type RawUser = {
  id: string;
  user_name: string;
  email: string | null;
  phone: string | null;
  password_hash: string;
  status: 'active' | 'locked';
  language: string;
};
const toUser = (r: RawUser): UserRow => ({
  id: Number(r.id),
  userName: r.user_name,
  email: r.email,
  phone: r.phone,
  passwordHash: r.password_hash,
  status: r.status,
  language: r.language,
});

/** A user by login name: their username, or their email address. */
export async function findUserByLogin(db: Queryable, login: string): Promise<UserRow | null> {
  const rows = await db.query<RawUser>(
    'SELECT id, user_name, email, phone, password_hash, status, language FROM users WHERE lower(user_name) = lower($1) OR email = lower($1) ORDER BY id LIMIT 1',
    [login],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** A user by phone number (E.164). */
export async function findUserByPhone(db: Queryable, phone: string): Promise<UserRow | null> {
  const rows = await db.query<RawUser>(
    'SELECT id, user_name, email, phone, password_hash, status, language FROM users WHERE phone = $1',
    [phone],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** Whether a phone number (E.164) belongs to an account, as its phone or as its name. */
export async function phoneTaken(db: Queryable, phone: string): Promise<boolean> {
  const rows = await db.query<{ taken: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM users WHERE phone = $1 OR lower(user_name) = lower($1)) AS taken',
    [phone],
  );
  return rows[0]?.taken ?? false;
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
  user: {
    userName: string;
    email: string | null;
    phone?: string | null;
    passwordHash: string;
    language: string;
  },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO users (user_name, email, phone, password_hash, language) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [user.userName, user.email, user.phone ?? null, user.passwordHash, user.language],
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
): Promise<{
  sessionId: string;
  userId: number;
  userName: string;
  lastSeenSeconds: number;
  expiresInMs: number;
} | null> {
  const rows = await db.query<{
    id: string;
    user_id: string;
    user_name: string;
    idle: string;
    left_ms: string;
  }>(
    `SELECT s.id, s.user_id, u.user_name, extract(epoch FROM now() - s.last_seen_at)::bigint AS idle,
       (extract(epoch FROM s.expires_at - now()) * 1000)::bigint AS left_ms
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > now() AND u.status = 'active'`,
    [tokenHash],
  );
  const r = rows[0];
  return r
    ? {
        sessionId: r.id,
        userId: Number(r.user_id),
        userName: r.user_name,
        lastSeenSeconds: Number(r.idle),
        expiresInMs: Number(r.left_ms),
      }
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
    purpose: CodePurpose;
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

/** The newest usable code for a channel, target and purpose, locked for checking. */
export async function latestCode(
  db: Queryable,
  channel: 'email' | 'sms',
  target: string,
  purpose: CodePurpose,
): Promise<{ id: number; codeHash: string; attempts: number } | null> {
  const rows = await db.query<{ id: string; code_hash: string; attempts: number }>(
    `SELECT id, code_hash, attempts FROM verification_codes
     WHERE target = $1 AND purpose = $2 AND channel = $3 AND used_at IS NULL AND expires_at > now()
     ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [target, purpose, channel],
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

/**
 * A new password hash; every session of the user ends with it, except `keepSessionId` (the one
 * that changed it), and so do pending login challenges (they proved the old password).
 */
export async function replacePassword(
  db: Queryable,
  userId: number,
  passwordHash: string,
  keepSessionId: string | null = null,
): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, password_changed_at = now() WHERE id = $1', [
    userId,
    passwordHash,
  ]);
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [
    userId,
    keepSessionId,
  ]);
  await db.query('DELETE FROM login_challenges WHERE user_id = $1', [userId]);
}

/**
 * The last change that weakens an account's guard: a password change or reset, or two-step
 * removal; null when there was none. The password the account was opened with is no change
 * (`password_changed_at` starts at `created_at`), so opening an account locks nothing.
 */
export async function lastSecurityChange(db: Queryable, userId: number): Promise<string | null> {
  const rows = await db.query<{ at: string | Date | null }>(
    `SELECT greatest(CASE WHEN password_changed_at > created_at THEN password_changed_at END, two_step_removed_at) AS at
     FROM users WHERE id = $1`,
    [userId],
  );
  const at = rows[0]?.at ?? null;
  return at === null ? null : new Date(at).toISOString();
}

export async function findUserById(db: Queryable, id: number): Promise<UserRow | null> {
  const rows = await db.query<RawUser>(
    'SELECT id, user_name, email, phone, password_hash, status, language FROM users WHERE id = $1',
    [id],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export type SessionRow = {
  id: string;
  userAgent: string;
  ip: string;
  createdAt: Date;
  lastSeenAt: Date;
};

/** The live sessions of a user, most recently used first. */
export async function listUserSessions(db: Queryable, userId: number): Promise<SessionRow[]> {
  const rows = await db.query<{
    id: string;
    user_agent: string;
    ip: string;
    created_at: Date | string;
    last_seen_at: Date | string;
  }>(
    `SELECT id, user_agent, ip, created_at, last_seen_at FROM sessions
     WHERE user_id = $1 AND expires_at > now() ORDER BY last_seen_at DESC, created_at DESC LIMIT 100`,
    [userId],
  );
  return rows.map((r) => ({
    id: r.id,
    userAgent: r.user_agent,
    ip: r.ip,
    createdAt: new Date(r.created_at),
    lastSeenAt: new Date(r.last_seen_at),
  }));
}

/** Ends one session of a user; false when the user has no session of that id. */
export async function deleteUserSession(db: Queryable, userId: number, sessionId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'DELETE FROM sessions WHERE id = $1 AND user_id = $2 RETURNING id',
    [sessionId, userId],
  );
  return rows.length > 0;
}

export type TotpRow = { secretEnc: string; enabled: boolean; lastStep: number };

export async function findTotp(db: Queryable, userId: number, lock = false): Promise<TotpRow | null> {
  const rows = await db.query<{ secret_enc: string; enabled: boolean; last_step: string }>(
    `SELECT secret_enc, enabled_at IS NOT NULL AS enabled, last_step FROM totp_credentials WHERE user_id = $1${
      lock ? ' FOR UPDATE' : ''
    }`,
    [userId],
  );
  const r = rows[0];
  return r ? { secretEnc: r.secret_enc, enabled: r.enabled, lastStep: Number(r.last_step) } : null;
}

/** A new pending secret, replacing an earlier pending one; false when 2FA is already enabled. */
export async function savePendingTotp(db: Queryable, userId: number, secretEnc: string): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    `INSERT INTO totp_credentials (user_id, secret_enc) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, last_step = 0, created_at = now()
     WHERE totp_credentials.enabled_at IS NULL
     RETURNING user_id`,
    [userId, secretEnc],
  );
  return rows.length > 0;
}

/** Turns a pending secret on at the step its first code matched; false when it was not pending. */
export async function activateTotp(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    `UPDATE totp_credentials SET enabled_at = now(), last_step = $2
     WHERE user_id = $1 AND enabled_at IS NULL AND last_step < $2 RETURNING user_id`,
    [userId, step],
  );
  return rows.length > 0;
}

/** Records the step of an accepted code; false when that step (or a later one) was used already. */
export async function advanceTotpStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    `UPDATE totp_credentials SET last_step = $2
     WHERE user_id = $1 AND enabled_at IS NOT NULL AND last_step < $2 RETURNING user_id`,
    [userId, step],
  );
  return rows.length > 0;
}

/** Every customer's sealed two-step secret (a key rotation seals them again). */
export async function sealedTotpSecrets(db: Queryable): Promise<{ userId: number; secretEnc: string }[]> {
  const rows = await db.query<{ user_id: string; secret_enc: string }>(
    'SELECT user_id, secret_enc FROM totp_credentials ORDER BY user_id',
  );
  return rows.map((r) => ({ userId: Number(r.user_id), secretEnc: r.secret_enc }));
}

/** The same secret sealed again (under the current key); false when it changed meanwhile. */
export async function resealTotp(
  db: Queryable,
  userId: number,
  was: string,
  sealed: string,
): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    'UPDATE totp_credentials SET secret_enc = $3 WHERE user_id = $1 AND secret_enc = $2 RETURNING user_id',
    [userId, was, sealed],
  );
  return rows.length > 0;
}

/** Two-step verification off: the secret and every recovery code go.
/** Two-step sign-in turned off: its secret and codes go, and the removal is recorded (it locks withdrawal addresses). */
export async function deleteTotp(db: Queryable, userId: number): Promise<void> {
  await db.query('UPDATE users SET two_step_removed_at = now() WHERE id = $1', [userId]);
  await db.query('DELETE FROM totp_credentials WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM login_challenges WHERE user_id = $1', [userId]);
}

export async function replaceRecoveryCodes(
  db: Queryable,
  userId: number,
  codeHashes: string[],
): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  await db.query(
    'INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, h FROM unnest($2::text[]) AS h',
    [userId, codeHashes],
  );
}

/** Uses a recovery code once; false when it is unknown or was used already. */
export async function consumeRecoveryCode(db: Queryable, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE recovery_codes SET used_at = now()
     WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
    [userId, codeHash],
  );
  return rows.length > 0;
}

export async function countRecoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function insertChallenge(
  db: Queryable,
  challenge: { challengeHash: string; userId: number; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO login_challenges (challenge_hash, user_id, expires_at)
     VALUES ($1, $2, now() + $3 * interval '1 second')`,
    [challenge.challengeHash, challenge.userId, challenge.ttlSeconds],
  );
  // Expired challenges of anyone are of no use; a few are swept on every new one.
  await db.query(
    `DELETE FROM login_challenges WHERE challenge_hash IN
       (SELECT challenge_hash FROM login_challenges WHERE expires_at < now() - interval '1 hour' LIMIT 50)`,
  );
}

/** A usable challenge (not expired, not used, attempts left), locked for checking. */
export async function lockChallenge(
  db: Queryable,
  challengeHash: string,
  maxAttempts: number,
): Promise<{ userId: number; attempts: number } | null> {
  const rows = await db.query<{ user_id: string; attempts: number }>(
    `SELECT user_id, attempts FROM login_challenges
     WHERE challenge_hash = $1 AND used_at IS NULL AND expires_at > now() AND attempts < $2
     FOR UPDATE`,
    [challengeHash, maxAttempts],
  );
  const r = rows[0];
  return r ? { userId: Number(r.user_id), attempts: r.attempts } : null;
}

export async function recordChallengeAttempt(
  db: Queryable,
  challengeHash: string,
  used: boolean,
): Promise<void> {
  await db.query(
    `UPDATE login_challenges SET attempts = attempts + 1, used_at = CASE WHEN $2 THEN now() ELSE used_at END
     WHERE challenge_hash = $1`,
    [challengeHash, used],
  );
}

/** A lock link's token (its SHA-256), for one security event of a user, usable until it expires. */
export async function insertLockToken(
  db: Queryable,
  token: { tokenHash: string; userId: number; event: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO account_lock_tokens (token_hash, user_id, event, expires_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 second')`,
    [token.tokenHash, token.userId, token.event, token.ttlSeconds],
  );
}

/** Uses a lock link once: the user it locks, or null when unknown, used or expired. */
export async function useLockToken(
  db: Queryable,
  tokenHash: string,
): Promise<{ userId: number; event: string } | null> {
  const rows = await db.query<{ user_id: string; event: string }>(
    `UPDATE account_lock_tokens SET used_at = now()
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
     RETURNING user_id, event`,
    [tokenHash],
  );
  const row = rows[0];
  return row ? { userId: Number(row.user_id), event: row.event } : null;
}
