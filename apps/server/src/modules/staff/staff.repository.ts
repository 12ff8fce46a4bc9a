import type { StaffRole } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

export type StaffRow = {
  id: number;
  email: string;
  role: StaffRole;
  passwordHash: string;
  passwordOneTime: boolean;
  passwordExpired: boolean;
  status: 'active' | 'disabled';
  totpSecretEnc: string | null;
  enrolled: boolean;
  totpLastStep: number;
  createdAt: string;
};

type RawStaff = {
  id: string;
  email: string;
  role: StaffRole;
  password_hash: string;
  password_one_time: boolean;
  password_expired: boolean;
  status: 'active' | 'disabled';
  totp_secret_enc: string | null;
  enrolled: boolean;
  totp_last_step: string;
  created_at: Date | string;
};
const COLUMNS = `id, email, role, password_hash, password_one_time,
  coalesce(password_expires_at <= now(), false) AS password_expired, status, totp_secret_enc,
  totp_enabled_at IS NOT NULL AS enrolled, totp_last_step, created_at`;
const toStaff = (r: RawStaff): StaffRow => ({
  id: Number(r.id),
  email: r.email,
  role: r.role,
  passwordHash: r.password_hash,
  passwordOneTime: r.password_one_time,
  passwordExpired: r.password_expired,
  status: r.status,
  totpSecretEnc: r.totp_secret_enc,
  enrolled: r.enrolled,
  totpLastStep: Number(r.totp_last_step),
  createdAt: new Date(r.created_at).toISOString(),
});

export async function insertStaff(
  db: Queryable,
  staff: {
    email: string;
    role: StaffRole;
    passwordHash: string;
    ttlSeconds: number;
    createdBy: number | null;
  },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO staff (email, role, password_hash, password_one_time, password_expires_at, created_by)
     VALUES ($1, $2, $3, true, now() + $4 * interval '1 second', $5) RETURNING id`,
    [staff.email, staff.role, staff.passwordHash, staff.ttlSeconds, staff.createdBy],
  );
  return Number(rows[0]?.id);
}

export async function findStaffByEmail(db: Queryable, email: string): Promise<StaffRow | null> {
  const rows = await db.query<RawStaff>(`SELECT ${COLUMNS} FROM staff WHERE email = $1`, [email]);
  return rows[0] ? toStaff(rows[0]) : null;
}

export async function findStaffById(db: Queryable, id: number, lock = false): Promise<StaffRow | null> {
  const rows = await db.query<RawStaff>(
    `SELECT ${COLUMNS} FROM staff WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toStaff(rows[0]) : null;
}

export async function listStaff(db: Queryable): Promise<StaffRow[]> {
  const rows = await db.query<RawStaff>(`SELECT ${COLUMNS} FROM staff ORDER BY id LIMIT 500`);
  return rows.map(toStaff);
}

/** A new pending authenticator secret; false when the account is enrolled already. */
export async function savePendingStaffTotp(
  db: Queryable,
  staffId: number,
  secretEnc: string,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE staff SET totp_secret_enc = $2, totp_last_step = 0
     WHERE id = $1 AND totp_enabled_at IS NULL RETURNING id`,
    [staffId, secretEnc],
  );
  return rows.length > 0;
}

/**
 * Turns the pending authenticator on at the step of its first code and, with a one-time password,
 * sets the chosen password. False when the account was enrolled meanwhile or the step is old.
 */
export async function enrolStaff(
  db: Queryable,
  staffId: number,
  step: number,
  passwordHash: string | null,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE staff SET totp_enabled_at = now(), totp_last_step = $2,
       password_hash = coalesce($3, password_hash),
       password_one_time = CASE WHEN $3::text IS NULL THEN password_one_time ELSE false END,
       password_expires_at = CASE WHEN $3::text IS NULL THEN password_expires_at ELSE NULL END
     WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret_enc IS NOT NULL AND totp_last_step < $2
     RETURNING id`,
    [staffId, step, passwordHash],
  );
  return rows.length > 0;
}

/** Records the step of an accepted code; false when that step (or a later one) was used. */
/** Every staff member's sealed two-step secret (a key rotation seals them again). */
export async function sealedStaffSecrets(db: Queryable): Promise<{ staffId: number; secretEnc: string }[]> {
  const rows = await db.query<{ id: string; totp_secret_enc: string }>(
    'SELECT id, totp_secret_enc FROM staff WHERE totp_secret_enc IS NOT NULL ORDER BY id',
  );
  return rows.map((r) => ({ staffId: Number(r.id), secretEnc: r.totp_secret_enc }));
}

/** The same secret sealed again (under the current key); false when it changed meanwhile. */
export async function resealStaffTotp(
  db: Queryable,
  staffId: number,
  was: string,
  sealed: string,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE staff SET totp_secret_enc = $3 WHERE id = $1 AND totp_secret_enc = $2 RETURNING id',
    [staffId, was, sealed],
  );
  return rows.length > 0;
}

export async function advanceStaffTotpStep(db: Queryable, staffId: number, step: number): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE staff SET totp_last_step = $2
     WHERE id = $1 AND totp_enabled_at IS NOT NULL AND totp_last_step < $2 RETURNING id`,
    [staffId, step],
  );
  return rows.length > 0;
}

export async function insertStaffChallenge(
  db: Queryable,
  challenge: { challengeHash: string; staffId: number; purpose: 'totp' | 'enrol'; ttlSeconds: number },
): Promise<void> {
  // Only the newest challenge of an account is usable.
  await db.query('DELETE FROM staff_challenges WHERE staff_id = $1', [challenge.staffId]);
  await db.query(
    `INSERT INTO staff_challenges (challenge_hash, staff_id, purpose, expires_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 second')`,
    [challenge.challengeHash, challenge.staffId, challenge.purpose, challenge.ttlSeconds],
  );
}

/** A usable challenge of a purpose (not expired, not used, attempts left), locked for checking. */
export async function lockStaffChallenge(
  db: Queryable,
  challengeHash: string,
  purpose: 'totp' | 'enrol',
  maxAttempts: number,
): Promise<{ staffId: number } | null> {
  const rows = await db.query<{ staff_id: string }>(
    `SELECT staff_id FROM staff_challenges
     WHERE challenge_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() AND attempts < $3
     FOR UPDATE`,
    [challengeHash, purpose, maxAttempts],
  );
  return rows[0] ? { staffId: Number(rows[0].staff_id) } : null;
}

export async function recordStaffChallengeAttempt(
  db: Queryable,
  challengeHash: string,
  used: boolean,
): Promise<void> {
  await db.query(
    `UPDATE staff_challenges SET attempts = attempts + 1, used_at = CASE WHEN $2 THEN now() ELSE used_at END
     WHERE challenge_hash = $1`,
    [challengeHash, used],
  );
}

export async function insertStaffSession(
  db: Queryable,
  session: {
    id: string;
    staffId: number;
    tokenHash: string;
    userAgent: string;
    ip: string;
    idleSeconds: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO staff_sessions (id, staff_id, token_hash, user_agent, ip, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 second')`,
    [
      session.id,
      session.staffId,
      session.tokenHash,
      session.userAgent.slice(0, 300),
      session.ip.slice(0, 64),
      session.idleSeconds,
    ],
  );
}

export type StaffSessionRow = {
  sessionId: string;
  staffId: number;
  email: string;
  role: StaffRole;
  idleSeconds: number;
};

/** The live session of a token hash; expired sessions and disabled or unenrolled staff give nothing. */
export async function findStaffSession(db: Queryable, tokenHash: string): Promise<StaffSessionRow | null> {
  const rows = await db.query<{ id: string; staff_id: string; email: string; role: StaffRole; idle: string }>(
    `SELECT s.id, s.staff_id, f.email, f.role, extract(epoch FROM now() - s.last_seen_at)::bigint AS idle
     FROM staff_sessions s JOIN staff f ON f.id = s.staff_id
     WHERE s.token_hash = $1 AND s.expires_at > now() AND f.status = 'active' AND f.totp_enabled_at IS NOT NULL`,
    [tokenHash],
  );
  const r = rows[0];
  return r
    ? {
        sessionId: r.id,
        staffId: Number(r.staff_id),
        email: r.email,
        role: r.role,
        idleSeconds: Number(r.idle),
      }
    : null;
}

/** Sliding idle expiry, never past the absolute limit counted from the session's start. */
export async function touchStaffSession(
  db: Queryable,
  sessionId: string,
  idleSeconds: number,
  maxSeconds: number,
): Promise<void> {
  await db.query(
    `UPDATE staff_sessions SET last_seen_at = now(),
       expires_at = least(now() + $2 * interval '1 second', created_at + $3 * interval '1 second')
     WHERE id = $1`,
    [sessionId, idleSeconds, maxSeconds],
  );
}

export async function deleteStaffSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('DELETE FROM staff_sessions WHERE id = $1', [sessionId]);
}

/**
 * Locks the admin accounts that can act (active and enrolled) in id order and returns their ids:
 * the last-admin guard. An admin who has not enrolled yet does not count.
 */
export async function lockActiveAdmins(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM staff WHERE role = 'admin' AND status = 'active' AND totp_enabled_at IS NOT NULL
     ORDER BY id FOR UPDATE`,
  );
  return rows.map((r) => Number(r.id));
}

/** Sets a staff member's role and status; null when there is no such account. */
export async function updateStaffAccount(
  db: Queryable,
  id: number,
  change: { role: StaffRole; status: 'active' | 'disabled' },
): Promise<StaffRow | null> {
  const rows = await db.query<RawStaff>(
    `UPDATE staff SET role = $2, status = $3 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, change.role, change.status],
  );
  return rows[0] ? toStaff(rows[0]) : null;
}

/** Forgets the authenticator: the next sign-in enrols a new one. */
export async function clearStaffTotp(db: Queryable, id: number): Promise<StaffRow | null> {
  const rows = await db.query<RawStaff>(
    `UPDATE staff SET totp_enabled_at = NULL, totp_secret_enc = NULL, totp_last_step = 0
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ? toStaff(rows[0]) : null;
}

/** Ends every session and pending sign-in step of a staff member. */
export async function endStaffSessions(db: Queryable, staffId: number): Promise<void> {
  await db.query('DELETE FROM staff_sessions WHERE staff_id = $1', [staffId]);
  await db.query('DELETE FROM staff_challenges WHERE staff_id = $1', [staffId]);
}

/** Emails of some staff members by id. */
export async function staffEmailsOf(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  const rows = await db.query<{ id: string; email: string }>(
    'SELECT id, email FROM staff WHERE id = ANY($1::bigint[])',
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.id), r.email]));
}
