import { createHash, randomBytes, randomInt } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import {
  Code,
  type StaffInfo,
  type StaffListItem,
  type StaffRef,
  type StaffRole,
  type StaffSignInStep,
} from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { KeyRing, PurposeKeys } from '../../platform/keys.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { AuditService } from '../audit/audit.service.ts';
import {
  base32Encode,
  matchTotp,
  newTotpSecret,
  openSecret,
  otpauthUri,
  type ResealReport,
  resealAll,
  sealSecret,
} from '../identity/identity.totp.ts';
import {
  advanceStaffTotpStep,
  clearStaffTotp,
  deleteStaffSession,
  endStaffSessions,
  enrolStaff,
  findStaffByEmail,
  findStaffById,
  findStaffSession,
  insertStaff,
  insertStaffChallenge,
  insertStaffSession,
  listStaff,
  lockActiveAdmins,
  lockStaffChallenge,
  recordStaffChallengeAttempt,
  resealStaffTotp,
  type StaffRow,
  savePendingStaffTotp,
  sealedStaffSecrets,
  staffEmailsOf,
  touchStaffSession,
  updateStaffAccount,
} from './staff.repository.ts';

/** argon2id with OWASP's minimum, as for customers. */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** A staff session ends after 30 idle minutes, and 12 hours after sign-in whatever happens. */
export const STAFF_SESSION_IDLE_SECONDS = 30 * 60;
export const STAFF_SESSION_MAX_SECONDS = 12 * 3600;
const TOUCH_AFTER_SECONDS = 60;
/** A one-time password is good for 72 hours, then an admin makes a new account. */
export const ONE_TIME_PASSWORD_TTL_SECONDS = 72 * 3600;
export const STAFF_CHALLENGE_TTL_SECONDS = 300;
export const STAFF_CHALLENGE_MAX_ATTEMPTS = 5;

/** Staff limits, counted apart from customers' (their own keys). */
export const STAFF_LIMITS = {
  signInPerAccount: { limit: 5, windowMs: 15 * 60_000 },
  signInPerAddress: { limit: 20, windowMs: 15 * 60_000 },
  codePerAccount: { limit: 10, windowMs: 15 * 60_000 },
} as const;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The staff member behind a request's token. */
export type StaffSession = { staffId: number; email: string; role: StaffRole; sessionId: string };
export type StaffClient = { ip: string; userAgent: string };

/** 20 characters of a 32-letter alphabet without look-alikes (100 bits), in groups of 4. */
function newOneTimePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let text = '';
  for (let i = 0; i < 20; i++) text += alphabet[randomInt(0, alphabet.length)];
  return text.replace(/(.{4})(?=.)/g, '$1-');
}

export const actorOf = (session: { staffId: number }) => `staff:${session.staffId}`;

/** The staff id of an actor text `staff:<id>`, else null. */
export function staffIdOfActor(actor: string | null): number | null {
  const match = actor ? /^staff:(\d{1,15})$/.exec(actor) : null;
  return match ? Number(match[1]) : null;
}

const listItemOf = (r: StaffRow): StaffListItem => ({
  id: r.id,
  email: r.email,
  role: r.role,
  status: r.status,
  enrolled: r.enrolled,
  createdAt: r.createdAt,
});

/**
 * Staff accounts of the back office: created by an operator command or an admin with a one-time
 * password; every account enrols an authenticator (TOTP) at its first sign-in and signs in with
 * password and code after that. Sessions are opaque random tokens stored as SHA-256, in their own
 * table, so a customer token is no staff token and the other way round. Every action is audited
 * with the actor `staff:<id>`.
 */
export class StaffService {
  private readonly db: Database;
  private readonly audit: AuditService;
  private readonly limiter: RateLimiter;
  /** The staff secrets' own keys (platform/keys.ts): a customer's sealed secret never opens here. */
  private readonly totpKeys: PurposeKeys;
  private readonly now: () => number;
  private dummyHash: Promise<string> | null = null;

  constructor(deps: {
    db: Database;
    audit: AuditService;
    rateLimiter: RateLimiter;
    keys: KeyRing;
    now?: () => number;
  }) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.limiter = deps.rateLimiter;
    this.totpKeys = deps.keys.purpose('staff-totp-seal');
    this.now = deps.now ?? Date.now;
  }

  /** After a key rotation: every staff secret under the previous master sealed under the current one. */
  async resealSecrets(): Promise<ResealReport> {
    const rows = (await sealedStaffSecrets(this.db)).map((r) => ({
      owner: r.staffId,
      secretEnc: r.secretEnc,
    }));
    return resealAll(this.totpKeys, 'staff-totp', rows, (staffId, was, sealed) =>
      resealStaffTotp(this.db, staffId, was, sealed),
    );
  }

  private async limit(key: string, rule: { limit: number; windowMs: number }): Promise<void> {
    const verdict = await this.limiter.hit(key, rule.limit, rule.windowMs);
    if (!verdict.allowed)
      throw new ApiError(Code.TOO_MANY_REQUESTS, {
        retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000),
      });
  }

  /**
   * Creates a staff account with a one-time password (shown once, valid 72 hours). `by` is the
   * admin who made it, or null for the operator command.
   */
  async create(
    input: { email: string; role: StaffRole },
    by: StaffSession | null,
  ): Promise<{ staff: StaffInfo; oneTimePassword: string }> {
    const email = input.email.trim().toLowerCase();
    const oneTimePassword = newOneTimePassword();
    const passwordHash = await argonHash(oneTimePassword, ARGON2);
    try {
      const id = await this.db.transaction(async (tx) => {
        const staffId = await insertStaff(tx, {
          email,
          role: input.role,
          passwordHash,
          ttlSeconds: ONE_TIME_PASSWORD_TTL_SECONDS,
          createdBy: by?.staffId ?? null,
        });
        await this.audit.appendInTx(tx, [
          {
            actor: by ? actorOf(by) : 'operator',
            action: 'staff.created',
            subject: `staff:${staffId}`,
            data: { email, role: input.role },
          },
        ]);
        return staffId;
      });
      return { staff: { id, email, role: input.role }, oneTimePassword };
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new ApiError(Code.EMAIL_EXISTS);
      throw error;
    }
  }

  async list(by: StaffSession): Promise<StaffListItem[]> {
    await this.record(by, 'staff.listed', 'staff', {});
    const rows = await listStaff(this.db);
    return rows.map(listItemOf);
  }

  /** The active staff of some roles: who an alert for those roles is mailed to. */
  async activeOfRoles(
    roles: readonly StaffRole[],
  ): Promise<{ id: number; email: string; role: StaffRole }[]> {
    const rows = await listStaff(this.db);
    return rows
      .filter((r) => r.status === 'active' && roles.includes(r.role))
      .map((r) => ({ id: r.id, email: r.email, role: r.role }));
  }

  /**
   * An admin changes a staff member's role or disables / enables the account, audited in the
   * same transaction. Disabling ends the account's sessions. Refused (10008): disabling yourself,
   * and any change that would leave no active, enrolled admin; unknown id 10028.
   */
  async update(
    by: StaffSession,
    id: number,
    change: { role?: StaffRole | undefined; status?: 'active' | 'disabled' | undefined },
  ): Promise<StaffListItem> {
    if (id === by.staffId && change.status === 'disabled') throw new ApiError(Code.WRONG_USER_STATUS);
    return this.db.transaction(async (tx) => {
      // Admins first, in id order, then the account: every change takes the locks in one order.
      const admins = await lockActiveAdmins(tx);
      const before = await findStaffById(tx, id, true);
      if (!before) throw new ApiError(Code.NOT_FOUND);
      const role = change.role ?? before.role;
      const status = change.status ?? before.status;
      const wasAdmin = admins.includes(id);
      const staysAdmin = role === 'admin' && status === 'active';
      if (wasAdmin && !staysAdmin && admins.filter((a) => a !== id).length === 0)
        throw new ApiError(Code.WRONG_USER_STATUS);
      const after = await updateStaffAccount(tx, id, { role, status });
      if (!after) throw new ApiError(Code.NOT_FOUND);
      const events = [];
      if (role !== before.role)
        events.push({
          actor: actorOf(by),
          action: 'staff.role_changed',
          subject: `staff:${id}`,
          data: { from: before.role, to: role },
        });
      if (status !== before.status) {
        if (status === 'disabled') await endStaffSessions(tx, id);
        events.push({
          actor: actorOf(by),
          action: status === 'disabled' ? 'staff.disabled' : 'staff.enabled',
          subject: `staff:${id}`,
          data: {},
        });
      }
      await this.audit.appendInTx(tx, events);
      return listItemOf(after);
    });
  }

  /**
   * Resets a staff member's two-step verification: the authenticator is forgotten, their sessions
   * end, and their next sign-in (with their password) enrols a new one. Not for yourself (10008).
   */
  async resetTotp(by: StaffSession, id: number): Promise<StaffListItem> {
    if (id === by.staffId) throw new ApiError(Code.WRONG_USER_STATUS);
    return this.db.transaction(async (tx) => {
      const after = await clearStaffTotp(tx, id);
      if (!after) throw new ApiError(Code.NOT_FOUND);
      await endStaffSessions(tx, id);
      await this.audit.appendInTx(tx, [
        { actor: actorOf(by), action: 'staff.totp_reset', subject: `staff:${id}`, data: {} },
      ]);
      return listItemOf(after);
    });
  }

  /** Staff members by id, as others see them (email); unknown ids are left out. */
  async refsOf(ids: number[]): Promise<Map<number, StaffRef>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const emails = await staffEmailsOf(this.db, unique);
    return new Map([...emails].map(([id, email]) => [id, { id, email }]));
  }

  /** A staff member's id by email, or null. */
  async findIdByEmail(email: string): Promise<number | null> {
    return (await findStaffByEmail(this.db, email))?.id ?? null;
  }

  /** The staff member behind an actor text `staff:<id>`, or null. */
  async refOfActor(actor: string | null): Promise<StaffRef | null> {
    const id = staffIdOfActor(actor);
    return id === null ? null : ((await this.refsOf([id])).get(id) ?? null);
  }

  /** First step: email and password. Unknown email and wrong password answer the same 10004. */
  async signIn(input: { email: string; password: string }, client: StaffClient): Promise<StaffSignInStep> {
    const email = input.email.trim().toLowerCase();
    await this.limit(`staff:signin:addr:${client.ip}`, STAFF_LIMITS.signInPerAddress);
    await this.limit(`staff:signin:account:${email}`, STAFF_LIMITS.signInPerAccount);
    const staff = await findStaffByEmail(this.db, email);
    if (!staff) {
      this.dummyHash ??= argonHash('not a password', ARGON2);
      await argonVerify(await this.dummyHash, input.password).catch(() => false);
      throw new ApiError(Code.WRONG_PASSWORD);
    }
    if (!(await argonVerify(staff.passwordHash, input.password).catch(() => false))) {
      await this.audit.append([
        {
          actor: actorOf({ staffId: staff.id }),
          action: 'staff.sign_in_failed',
          subject: `staff:${staff.id}`,
          data: { ip: client.ip },
        },
      ]);
      throw new ApiError(Code.WRONG_PASSWORD);
    }
    if (staff.status !== 'active') throw new ApiError(Code.ABNORMAL_USER_STATUS);
    if (staff.passwordOneTime && staff.passwordExpired) throw new ApiError(Code.WRONG_USER_STATUS);
    const challenge = randomBytes(32).toString('base64url');
    if (staff.enrolled) {
      await insertStaffChallenge(this.db, {
        challengeHash: sha256(challenge),
        staffId: staff.id,
        purpose: 'totp',
        ttlSeconds: STAFF_CHALLENGE_TTL_SECONDS,
      });
      return { step: 'totp', challenge };
    }
    const secret = newTotpSecret();
    if (
      !(await savePendingStaffTotp(
        this.db,
        staff.id,
        sealSecret(this.totpKeys, staff.id, secret, 'staff-totp'),
      ))
    )
      throw new ApiError(Code.WRONG_USER_STATUS);
    await insertStaffChallenge(this.db, {
      challengeHash: sha256(challenge),
      staffId: staff.id,
      purpose: 'enrol',
      ttlSeconds: STAFF_CHALLENGE_TTL_SECONDS,
    });
    const text = base32Encode(secret);
    return {
      step: 'enrol',
      challenge,
      secret: text,
      uri: otpauthUri(text, staff.email, 'SWX staff'),
      newPasswordRequired: staff.passwordOneTime,
    };
  }

  /**
   * First sign-in: a code from the new authenticator confirms it, and a one-time password is
   * replaced by the chosen one. Wrong code 10091; unknown, used or exhausted challenge 10028.
   */
  async enrol(
    input: { challenge: string; code: string; newPassword?: string | undefined },
    client: StaffClient,
  ): Promise<{ token: string; staff: StaffInfo }> {
    await this.limit(`staff:signin:addr:${client.ip}`, STAFF_LIMITS.signInPerAddress);
    const newHash = input.newPassword ? await argonHash(input.newPassword, ARGON2) : null;
    const challengeHash = sha256(input.challenge);
    const outcome = await this.db.transaction(async (tx) => {
      const challenge = await lockStaffChallenge(tx, challengeHash, 'enrol', STAFF_CHALLENGE_MAX_ATTEMPTS);
      if (!challenge) return { kind: 'gone' as const };
      await this.limit(`staff:code:${challenge.staffId}`, STAFF_LIMITS.codePerAccount);
      const staff = await findStaffById(tx, challenge.staffId, true);
      if (!staff || staff.enrolled || !staff.totpSecretEnc || staff.status !== 'active') {
        await recordStaffChallengeAttempt(tx, challengeHash, true);
        return { kind: 'gone' as const };
      }
      if (staff.passwordOneTime && !newHash) return { kind: 'needPassword' as const };
      const { secret } = openSecret(this.totpKeys, staff.id, staff.totpSecretEnc, 'staff-totp');
      const step = matchTotp(secret, input.code.trim(), this.now(), staff.totpLastStep);
      const ok =
        step !== null && (await enrolStaff(tx, staff.id, step, staff.passwordOneTime ? newHash : null));
      await recordStaffChallengeAttempt(tx, challengeHash, ok);
      if (!ok) return { kind: 'wrong' as const };
      const events = [
        {
          actor: actorOf({ staffId: staff.id }),
          action: 'staff.totp_enrolled',
          subject: `staff:${staff.id}`,
          data: {},
        },
      ];
      if (staff.passwordOneTime)
        events.push({
          actor: actorOf({ staffId: staff.id }),
          action: 'staff.password_set',
          subject: `staff:${staff.id}`,
          data: {},
        });
      await this.audit.appendInTx(tx, events);
      return { kind: 'ok' as const, staff };
    });
    if (outcome.kind === 'gone') throw new ApiError(Code.NOT_FOUND);
    if (outcome.kind === 'wrong') throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    if (outcome.kind === 'needPassword')
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'newPassword', issue: 'required' }]);
    return this.startSession(outcome.staff, client);
  }

  /** Second step of every later sign-in: the authenticator code. */
  async verifyCode(
    input: { challenge: string; code: string },
    client: StaffClient,
  ): Promise<{ token: string; staff: StaffInfo }> {
    await this.limit(`staff:signin:addr:${client.ip}`, STAFF_LIMITS.signInPerAddress);
    const challengeHash = sha256(input.challenge);
    const outcome = await this.db.transaction(async (tx) => {
      const challenge = await lockStaffChallenge(tx, challengeHash, 'totp', STAFF_CHALLENGE_MAX_ATTEMPTS);
      if (!challenge) return { kind: 'gone' as const };
      await this.limit(`staff:code:${challenge.staffId}`, STAFF_LIMITS.codePerAccount);
      const staff = await findStaffById(tx, challenge.staffId, true);
      if (!staff?.enrolled || !staff.totpSecretEnc || staff.status !== 'active') {
        await recordStaffChallengeAttempt(tx, challengeHash, true);
        return { kind: 'gone' as const };
      }
      const sealed = staff.totpSecretEnc;
      const { secret, stale } = openSecret(this.totpKeys, staff.id, sealed, 'staff-totp');
      const step = matchTotp(secret, input.code.trim(), this.now(), staff.totpLastStep);
      const ok = step !== null && (await advanceStaffTotpStep(tx, staff.id, step));
      // Sealed under the previous master (a rotation): sealed again under the current one.
      if (ok && stale)
        await resealStaffTotp(
          tx,
          staff.id,
          sealed,
          sealSecret(this.totpKeys, staff.id, secret, 'staff-totp'),
        );
      await recordStaffChallengeAttempt(tx, challengeHash, ok);
      return ok ? { kind: 'ok' as const, staff } : { kind: 'wrong' as const, staffId: staff.id };
    });
    if (outcome.kind === 'gone') throw new ApiError(Code.NOT_FOUND);
    if (outcome.kind === 'wrong') {
      await this.audit.append([
        {
          actor: actorOf(outcome),
          action: 'staff.code_failed',
          subject: `staff:${outcome.staffId}`,
          data: { ip: client.ip },
        },
      ]);
      throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    }
    return this.startSession(outcome.staff, client);
  }

  private async startSession(
    staff: StaffRow,
    client: StaffClient,
  ): Promise<{ token: string; staff: StaffInfo }> {
    const token = randomBytes(32).toString('base64url');
    const sessionId = randomBytes(12).toString('hex');
    await this.db.transaction(async (tx) => {
      await insertStaffSession(tx, {
        id: sessionId,
        staffId: staff.id,
        tokenHash: sha256(token),
        userAgent: client.userAgent,
        ip: client.ip,
        idleSeconds: STAFF_SESSION_IDLE_SECONDS,
      });
      await this.audit.appendInTx(tx, [
        {
          actor: actorOf({ staffId: staff.id }),
          action: 'staff.signed_in',
          subject: `staff_session:${sessionId}`,
          data: { ip: client.ip },
        },
      ]);
    });
    return { token, staff: { id: staff.id, email: staff.email, role: staff.role } };
  }

  /** A token to its staff session, or null (customer tokens are not in this table). */
  readonly resolveSession = async (token: string): Promise<StaffSession | null> => {
    const session = await findStaffSession(this.db, sha256(token));
    if (!session) return null;
    if (session.idleSeconds > TOUCH_AFTER_SECONDS)
      await touchStaffSession(
        this.db,
        session.sessionId,
        STAFF_SESSION_IDLE_SECONDS,
        STAFF_SESSION_MAX_SECONDS,
      );
    return {
      staffId: session.staffId,
      email: session.email,
      role: session.role,
      sessionId: session.sessionId,
    };
  };

  async signOut(session: StaffSession): Promise<void> {
    await this.db.transaction(async (tx) => {
      await deleteStaffSession(tx, session.sessionId);
      await this.audit.appendInTx(tx, [
        {
          actor: actorOf(session),
          action: 'staff.signed_out',
          subject: `staff_session:${session.sessionId}`,
          data: {},
        },
      ]);
    });
  }

  /** Appends one staff action to the audit log, in `tx` when given. */
  async record(
    session: StaffSession,
    action: string,
    subject: string,
    data: unknown,
    tx?: Queryable,
  ): Promise<void> {
    const event = { actor: actorOf(session), action, subject, data };
    if (tx) await this.audit.appendInTx(tx, [event]);
    else await this.audit.append([event]);
  }
}
