import { randomBytes } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { Code, type StaffInfo, type StaffSignInStep } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { limit } from '../../platform/ratelimit.ts';
import {
  base32Encode,
  matchTotp,
  newTotpSecret,
  openSecret,
  otpauthUri,
  sealSecret,
} from '../identity/identity.totp.ts';
import {
  advanceStaffTotpStep,
  deleteStaffSession,
  enrolStaff,
  findStaffByEmail,
  findStaffById,
  findStaffSession,
  insertStaffChallenge,
  insertStaffSession,
  lockStaffChallenge,
  recordStaffChallengeAttempt,
  resealStaffTotp,
  type StaffRow,
  savePendingStaffTotp,
  touchStaffSession,
} from './staff.repository.ts';
import {
  ARGON2,
  actorOf,
  STAFF_CHALLENGE_MAX_ATTEMPTS,
  STAFF_CHALLENGE_TTL_SECONDS,
  STAFF_LIMITS,
  STAFF_SESSION_IDLE_SECONDS,
  STAFF_SESSION_MAX_SECONDS,
  type StaffClient,
  type StaffContext,
  type StaffSession,
  sha256,
} from './staff.shared.ts';

/*
 * Signing in and sessions: password, then the authenticator (enrolled at the first sign-in), then
 * an opaque session token stored as SHA-256; resolving and ending a session.
 */

const TOUCH_AFTER_SECONDS = 60;

/** First step: email and password. Unknown email and wrong password answer the same 10004. */
export async function signIn(
  ctx: StaffContext,
  input: { email: string; password: string },
  client: StaffClient,
): Promise<StaffSignInStep> {
  const email = input.email.trim().toLowerCase();
  await limit(ctx, `staff:signin:addr:${client.ip}`, STAFF_LIMITS.signInPerAddress);
  await limit(ctx, `staff:signin:account:${email}`, STAFF_LIMITS.signInPerAccount);
  const staff = await findStaffByEmail(ctx.db, email);
  if (!staff) {
    ctx.dummyHash ??= argonHash('not a password', ARGON2);
    await argonVerify(await ctx.dummyHash, input.password).catch(() => false);
    throw new ApiError(Code.WRONG_PASSWORD);
  }
  if (!(await argonVerify(staff.passwordHash, input.password).catch(() => false))) {
    await ctx.audit.append([
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
    await insertStaffChallenge(ctx.db, {
      challengeHash: sha256(challenge),
      staffId: staff.id,
      purpose: 'totp',
      ttlSeconds: STAFF_CHALLENGE_TTL_SECONDS,
    });
    return { step: 'totp', challenge };
  }
  const secret = newTotpSecret();
  if (
    !(await savePendingStaffTotp(ctx.db, staff.id, sealSecret(ctx.totpKeys, staff.id, secret, 'staff-totp')))
  )
    throw new ApiError(Code.WRONG_USER_STATUS);
  await insertStaffChallenge(ctx.db, {
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
export async function enrol(
  ctx: StaffContext,
  input: { challenge: string; code: string; newPassword?: string | undefined },
  client: StaffClient,
): Promise<{ token: string; staff: StaffInfo }> {
  await limit(ctx, `staff:signin:addr:${client.ip}`, STAFF_LIMITS.signInPerAddress);
  const newHash = input.newPassword ? await argonHash(input.newPassword, ARGON2) : null;
  const challengeHash = sha256(input.challenge);
  const outcome = await ctx.db.transaction(async (tx) => {
    const challenge = await lockStaffChallenge(tx, challengeHash, 'enrol', STAFF_CHALLENGE_MAX_ATTEMPTS);
    if (!challenge) return { kind: 'gone' as const };
    await limit(ctx, `staff:code:${challenge.staffId}`, STAFF_LIMITS.codePerAccount);
    const staff = await findStaffById(tx, challenge.staffId, true);
    if (!staff || staff.enrolled || !staff.totpSecretEnc || staff.status !== 'active') {
      await recordStaffChallengeAttempt(tx, challengeHash, true);
      return { kind: 'gone' as const };
    }
    if (staff.passwordOneTime && !newHash) return { kind: 'needPassword' as const };
    const { secret } = openSecret(ctx.totpKeys, staff.id, staff.totpSecretEnc, 'staff-totp');
    const step = matchTotp(secret, input.code.trim(), ctx.now(), staff.totpLastStep);
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
    await ctx.audit.appendInTx(tx, events);
    return { kind: 'ok' as const, staff };
  });
  if (outcome.kind === 'gone') throw new ApiError(Code.NOT_FOUND);
  if (outcome.kind === 'wrong') throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  if (outcome.kind === 'needPassword')
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'newPassword', issue: 'required' }]);
  return startSession(ctx, outcome.staff, client);
}

/** Second step of every later sign-in: the authenticator code. */
export async function verifyCode(
  ctx: StaffContext,
  input: { challenge: string; code: string },
  client: StaffClient,
): Promise<{ token: string; staff: StaffInfo }> {
  await limit(ctx, `staff:signin:addr:${client.ip}`, STAFF_LIMITS.signInPerAddress);
  const challengeHash = sha256(input.challenge);
  const outcome = await ctx.db.transaction(async (tx) => {
    const challenge = await lockStaffChallenge(tx, challengeHash, 'totp', STAFF_CHALLENGE_MAX_ATTEMPTS);
    if (!challenge) return { kind: 'gone' as const };
    await limit(ctx, `staff:code:${challenge.staffId}`, STAFF_LIMITS.codePerAccount);
    const staff = await findStaffById(tx, challenge.staffId, true);
    if (!staff?.enrolled || !staff.totpSecretEnc || staff.status !== 'active') {
      await recordStaffChallengeAttempt(tx, challengeHash, true);
      return { kind: 'gone' as const };
    }
    const sealed = staff.totpSecretEnc;
    const { secret, stale } = openSecret(ctx.totpKeys, staff.id, sealed, 'staff-totp');
    const step = matchTotp(secret, input.code.trim(), ctx.now(), staff.totpLastStep);
    const ok = step !== null && (await advanceStaffTotpStep(tx, staff.id, step));
    // Sealed under the previous master (a rotation): sealed again under the current one.
    if (ok && stale)
      await resealStaffTotp(tx, staff.id, sealed, sealSecret(ctx.totpKeys, staff.id, secret, 'staff-totp'));
    await recordStaffChallengeAttempt(tx, challengeHash, ok);
    return ok ? { kind: 'ok' as const, staff } : { kind: 'wrong' as const, staffId: staff.id };
  });
  if (outcome.kind === 'gone') throw new ApiError(Code.NOT_FOUND);
  if (outcome.kind === 'wrong') {
    await ctx.audit.append([
      {
        actor: actorOf(outcome),
        action: 'staff.code_failed',
        subject: `staff:${outcome.staffId}`,
        data: { ip: client.ip },
      },
    ]);
    throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  }
  return startSession(ctx, outcome.staff, client);
}

async function startSession(
  ctx: StaffContext,
  staff: StaffRow,
  client: StaffClient,
): Promise<{ token: string; staff: StaffInfo }> {
  const token = randomBytes(32).toString('base64url');
  const sessionId = randomBytes(12).toString('hex');
  await ctx.db.transaction(async (tx) => {
    await insertStaffSession(tx, {
      id: sessionId,
      staffId: staff.id,
      tokenHash: sha256(token),
      userAgent: client.userAgent,
      ip: client.ip,
      idleSeconds: STAFF_SESSION_IDLE_SECONDS,
    });
    await ctx.audit.appendInTx(tx, [
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
export async function resolveSession(ctx: StaffContext, token: string): Promise<StaffSession | null> {
  const session = await findStaffSession(ctx.db, sha256(token));
  if (!session) return null;
  if (session.idleSeconds > TOUCH_AFTER_SECONDS)
    await touchStaffSession(ctx.db, session.sessionId, STAFF_SESSION_IDLE_SECONDS, STAFF_SESSION_MAX_SECONDS);
  return {
    staffId: session.staffId,
    email: session.email,
    role: session.role,
    sessionId: session.sessionId,
  };
}

export async function signOut(ctx: StaffContext, session: StaffSession): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await deleteStaffSession(tx, session.sessionId);
    await ctx.audit.appendInTx(tx, [
      {
        actor: actorOf(session),
        action: 'staff.signed_out',
        subject: `staff_session:${session.sessionId}`,
        data: {},
      },
    ]);
  });
}
