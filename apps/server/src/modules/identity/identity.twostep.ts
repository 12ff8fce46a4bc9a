import { Code } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { ApiError, type CustomerSession } from '../../platform/http.ts';
import { limit } from '../../platform/ratelimit.ts';
import { alertIfNewDevice, alertSecurity } from './identity.alerts.ts';
import {
  activateTotp,
  advanceTotpStep,
  consumeRecoveryCode,
  countRecoveryCodesLeft,
  deleteTotp,
  findTotp,
  findUserById,
  lockChallenge,
  recordChallengeAttempt,
  replaceRecoveryCodes,
  resealTotp,
  savePendingTotp,
  sealedTotpSecrets,
  type TotpRow,
} from './identity.repository.ts';
import { startSession } from './identity.sessions.ts';
import {
  CHALLENGE_MAX_ATTEMPTS,
  type Client,
  checkPassword,
  currentUser,
  type IdentityContext,
  LIMITS,
  type LoginResult,
  sha256,
} from './identity.shared.ts';
import {
  base32Encode,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  openSecret,
  otpauthUri,
  RECOVERY_CODE_COUNT,
  type ResealReport,
  resealAll,
  sealSecret,
} from './identity.totp.ts';

/*
 * Two-step verification (TOTP): the second step of a login, and turning it on and off. The
 * crypto of codes and secrets is in identity.totp.ts.
 */

const recoveryHash = (userId: number, code: string) => sha256(`${userId}:${normalizeRecoveryCode(code)}`);

/** An authenticator code checked against the user's secret; a step that works is used up. */
export async function useTotpCode(
  ctx: IdentityContext,
  tx: Queryable,
  userId: number,
  credential: TotpRow,
  code: string,
): Promise<boolean> {
  const { secret, stale } = openSecret(ctx.totpKeys, userId, credential.secretEnc);
  const step = matchTotp(secret, code, ctx.now(), credential.lastStep);
  if (step === null || !(await advanceTotpStep(tx, userId, step))) return false;
  // Sealed under the previous master (a rotation): sealed again under the current one.
  if (stale) await resealTotp(tx, userId, credential.secretEnc, sealSecret(ctx.totpKeys, userId, secret));
  return true;
}

/**
 * The second step of a login: the challenge and an authenticator code (or a recovery code).
 * A wrong code answers 10091 and uses one of the challenge's 5 attempts; an unknown, expired,
 * used or exhausted challenge answers 10028 (start again with the password).
 */
export async function loginTotp(
  ctx: IdentityContext,
  input: { challenge: string; code?: string | undefined; recoveryCode?: string | undefined },
  client: Client,
): Promise<LoginResult> {
  await limit(ctx, `login:addr:${client.ip}`, LIMITS.loginPerAddress);
  const challengeHash = sha256(input.challenge);
  const outcome = await ctx.db.transaction(async (tx) => {
    const challenge = await lockChallenge(tx, challengeHash, CHALLENGE_MAX_ATTEMPTS);
    if (!challenge) return { kind: 'gone' as const };
    await limit(ctx, `totp:signin:${challenge.userId}`, LIMITS.twoStepSignInPerAccount);
    const credential = await findTotp(tx, challenge.userId, true);
    if (!credential?.enabled) {
      await recordChallengeAttempt(tx, challengeHash, true);
      return { kind: 'gone' as const };
    }
    let ok = false;
    if (input.code !== undefined) {
      ok = await useTotpCode(ctx, tx, challenge.userId, credential, input.code.trim());
    } else if (input.recoveryCode !== undefined) {
      ok = await consumeRecoveryCode(
        tx,
        challenge.userId,
        recoveryHash(challenge.userId, input.recoveryCode),
      );
    }
    await recordChallengeAttempt(tx, challengeHash, ok);
    return ok ? { kind: 'ok' as const, userId: challenge.userId } : { kind: 'wrong' as const };
  });
  if (outcome.kind === 'gone') throw new ApiError(Code.NOT_FOUND);
  if (outcome.kind === 'wrong') throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  const user = await findUserById(ctx.db, outcome.userId);
  if (!user) throw new ApiError(Code.NOT_FOUND);
  if (user.status !== 'active') throw new ApiError(Code.ABNORMAL_USER_STATUS);
  const started = await startSession(ctx, user, client);
  await alertIfNewDevice(ctx, user, client);
  return started;
}

export async function totpStatus(
  ctx: IdentityContext,
  session: CustomerSession,
): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const credential = await findTotp(ctx.db, session.userId);
  return {
    enabled: credential?.enabled ?? false,
    recoveryCodesLeft: credential?.enabled ? await countRecoveryCodesLeft(ctx.db, session.userId) : 0,
  };
}

/**
 * Starts two-step verification: a new secret (kept encrypted), pending until `enableTotp`
 * confirms a code from it. Calling it again replaces a pending secret; with 2FA on, 10008.
 */
export async function setupTotp(
  ctx: IdentityContext,
  session: CustomerSession,
): Promise<{ secret: string; uri: string }> {
  const secret = newTotpSecret();
  const saved = await savePendingTotp(
    ctx.db,
    session.userId,
    sealSecret(ctx.totpKeys, session.userId, secret),
  );
  if (!saved) throw new ApiError(Code.WRONG_USER_STATUS);
  const text = base32Encode(secret);
  return { secret: text, uri: otpauthUri(text, session.userName) };
}

/** Confirms the pending secret with a code; answers the 10 recovery codes, shown this once. */
export async function enableTotp(
  ctx: IdentityContext,
  session: CustomerSession,
  input: { code: string },
  client: Client,
): Promise<{ recoveryCodes: string[] }> {
  await limit(ctx, `totp:account:${session.userId}`, LIMITS.totpPerAccount);
  const credential = await findTotp(ctx.db, session.userId);
  if (!credential || credential.enabled) throw new ApiError(Code.WRONG_USER_STATUS);
  const { secret } = openSecret(ctx.totpKeys, session.userId, credential.secretEnc);
  const step = matchTotp(secret, input.code.trim(), ctx.now(), credential.lastStep);
  if (step === null) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enabled = await ctx.db.transaction(async (tx) => {
    if (!(await activateTotp(tx, session.userId, step))) return false;
    await replaceRecoveryCodes(
      tx,
      session.userId,
      recoveryCodes.map((code) => recoveryHash(session.userId, code)),
    );
    return true;
  });
  if (!enabled) throw new ApiError(Code.WRONG_USER_STATUS);
  await alertSecurity(ctx, await currentUser(ctx, session), 'totpEnabled', client);
  return { recoveryCodes };
}

/**
 * Turns two-step verification off: the password and a current code (or an unused recovery
 * code). Wrong password 10004, wrong code 10091, not on 10008.
 */
export async function disableTotp(
  ctx: IdentityContext,
  session: CustomerSession,
  input: { password: string; code: string },
  client: Client,
): Promise<null> {
  const user = await currentUser(ctx, session);
  await checkPassword(ctx, user, input.password, client);
  await limit(ctx, `totp:account:${user.id}`, LIMITS.totpPerAccount);
  const code = input.code.trim();
  const outcome = await ctx.db.transaction(async (tx) => {
    const credential = await findTotp(tx, user.id, true);
    if (!credential?.enabled) return 'off' as const;
    const ok = /^\d{6}$/.test(code)
      ? await useTotpCode(ctx, tx, user.id, credential, code)
      : await consumeRecoveryCode(tx, user.id, recoveryHash(user.id, code));
    if (!ok) return 'wrong' as const;
    await deleteTotp(tx, user.id);
    return 'done' as const;
  });
  if (outcome === 'off') throw new ApiError(Code.WRONG_USER_STATUS);
  if (outcome === 'wrong') throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  await alertSecurity(ctx, user, 'totpDisabled', client);
  return null;
}

/** Every customer's two-step secret sealed under the previous master, sealed again under the current one. */
export async function resealTotpSecrets(ctx: IdentityContext): Promise<ResealReport> {
  const rows = (await sealedTotpSecrets(ctx.db)).map((r) => ({ owner: r.userId, secretEnc: r.secretEnc }));
  return resealAll(ctx.totpKeys, 'totp', rows, (userId, was, sealed) =>
    resealTotp(ctx.db, userId, was, sealed),
  );
}
