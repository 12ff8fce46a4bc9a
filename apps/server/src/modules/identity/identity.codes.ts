import { randomInt } from 'node:crypto';
import { Code } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { limit } from '../../platform/ratelimit.ts';
import { readDeviceToken } from './identity.devices.ts';
import { codeMail, codeSms } from './identity.mail.ts';
import {
  type CodePurpose,
  findUserByLogin,
  findUserByPhone,
  insertCode,
  latestCode,
  phoneTaken,
  recordCodeAttempt,
  type UserRow,
  userNameOrEmailTaken,
} from './identity.repository.ts';
import {
  type Client,
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_SECONDS,
  CODE_TTL_SECONDS,
  type IdentityContext,
  LIMITS,
  phoneOf,
  sha256,
} from './identity.shared.ts';

/*
 * One-time codes, by mail or SMS, for registering and for resetting a password: 6 digits stored
 * hashed, 10 minutes, 5 attempts, single use.
 */

type Channel = 'email' | 'sms';
type Purpose = CodePurpose;
export type SentCode = { expiresInSeconds: number; resendInSeconds: number };

/** A code's hash; `binding` ties it to what it confirms (a withdrawal's figures): another one does not match. */
const codeHash = (target: string, purpose: Purpose, code: string, binding = '') =>
  sha256(binding === '' ? `${target}:${purpose}:${code}` : `${target}:${purpose}:${code}:${binding}`);

/**
 * The limits of one code send: per address, per target and purpose (one a minute), then the daily
 * ones of the target (see LIMITS), where `findOwner` names the account it belongs to (for "reset").
 */
async function limitSend(
  ctx: IdentityContext,
  target: string,
  purpose: Purpose,
  client: Client,
  findOwner: () => Promise<UserRow | null>,
): Promise<UserRow | null> {
  await limit(ctx, `code:addr:${client.ip}`, LIMITS.codePerAddress);
  await limit(ctx, `code:target:${purpose}:${target}`, LIMITS.codePerTarget);
  const owner = purpose === 'reset' ? await findOwner() : null;
  const device = owner ? readDeviceToken(ctx.deviceKeys, client.device) : null;
  if (device && device.userId === owner?.id) {
    await limit(ctx, `code:device-day:${device.nonce}`, LIMITS.codePerDeviceDaily);
  } else {
    await limit(ctx, `code:pair-day:${target}:${client.ip}`, LIMITS.codePerPairDaily);
    await limit(ctx, `code:target-day:${target}`, LIMITS.codePerTargetDaily);
  }
  return owner;
}

/** A new code for (channel, target, purpose), stored hashed (bound to `binding`); the caller sends it. */
export async function issueCode(
  ctx: IdentityContext,
  channel: Channel,
  target: string,
  purpose: Purpose,
  binding = '',
) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await insertCode(ctx.db, {
    channel,
    target,
    purpose,
    codeHash: codeHash(target, purpose, code, binding),
    ttlSeconds: CODE_TTL_SECONDS,
  });
  return code;
}

export async function sendCode(
  ctx: IdentityContext,
  input: { email: string; purpose: Purpose },
  client: Client,
): Promise<SentCode> {
  const email = input.email.toLowerCase();
  await limitSend(ctx, email, input.purpose, client, () => findUserByLogin(ctx.db, email));
  if (input.purpose === 'register' && (await userNameOrEmailTaken(ctx.db, email, email)).email)
    throw new ApiError(Code.EMAIL_EXISTS);
  const code = await issueCode(ctx, 'email', email, input.purpose);
  const mail = codeMail(client.language, code, CODE_TTL_SECONDS / 60);
  await ctx.mailer.send({ to: email, ...mail });
  return { expiresInSeconds: CODE_TTL_SECONDS, resendInSeconds: CODE_RESEND_SECONDS };
}

/**
 * A code by SMS, with the rules of mailed codes: 6 digits stored hashed, 10 minutes, 5 attempts,
 * single use; limits per address, per number and purpose (one a minute) and per number a day.
 * For "register", a number in use answers 10007. For "reset", a number without an account is
 * answered the same as one with (nothing tells who has an account) but no SMS goes out.
 */
export async function sendSmsCode(
  ctx: IdentityContext,
  input: { areaCode: string; phone: string; purpose: Purpose },
  client: Client,
): Promise<SentCode> {
  const phone = phoneOf(input.areaCode, input.phone);
  const owner = await limitSend(ctx, phone, input.purpose, client, () => findUserByPhone(ctx.db, phone));
  const taken = await phoneTaken(ctx.db, phone);
  if (input.purpose === 'register' && taken) throw new ApiError(Code.EMAIL_EXISTS);
  const sent = { expiresInSeconds: CODE_TTL_SECONDS, resendInSeconds: CODE_RESEND_SECONDS };
  if (input.purpose === 'reset' && !owner) return sent;
  if (!ctx.sms) throw new Error('no SMS sender is configured');
  const code = await issueCode(ctx, 'sms', phone, input.purpose);
  await ctx.sms.send({ to: phone, text: codeSms(client.language, code, CODE_TTL_SECONDS / 60) });
  return sent;
}

/** Checks and consumes a code: wrong, expired, used or out of attempts all answer 10091. */
export async function consumeCode(
  ctx: IdentityContext,
  channel: Channel,
  target: string,
  purpose: Purpose,
  code: string,
  binding = '',
): Promise<void> {
  const ok = await ctx.db.transaction(async (tx) => {
    const stored = await latestCode(tx, channel, target, purpose);
    if (!stored || stored.attempts >= CODE_MAX_ATTEMPTS) return false;
    const match = stored.codeHash === codeHash(target, purpose, code, binding);
    await recordCodeAttempt(tx, stored.id, match);
    return match;
  });
  if (!ok) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
}
