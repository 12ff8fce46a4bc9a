import { createHash } from 'node:crypto';
import { verify as argonVerify } from '@node-rs/argon2';
import { Code, type Language, phoneE164 } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError, type CustomerSession } from '../../platform/http.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import { limit } from '../../platform/ratelimit.ts';
import type { SmsSender } from '../../platform/sms.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { findUserById, type UserRow } from './identity.repository.ts';
import type { SocialSignIn } from './identity.social.ts';

/*
 * What the identity use cases share (registration, codes, sessions, passwords, two-step, social
 * sign-in): the parts they work with, the limits, and the few steps more than one of them takes.
 */

/** argon2id with OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane. */
export const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
/** A session in use is renewed at most this often, to keep reads cheap. */
export const RENEW_AFTER_SECONDS = 3600;
export const CODE_TTL_SECONDS = 600;
export const CODE_RESEND_SECONDS = 60;
export const CODE_MAX_ATTEMPTS = 5;
/** The step between a right password and the second factor: 5 minutes, 5 attempts. */
export const CHALLENGE_TTL_SECONDS = 300;
export const CHALLENGE_MAX_ATTEMPTS = 5;

export const LIMITS = {
  /**
   * Password sign-ins. Per address: every attempt from it. Per (account, address): an attacker's
   * address stops long before the account does. Per account, however it is named (username, email
   * or phone count as one): only devices the account has never signed in on; a device that has
   * (its device token) counts against its own limit instead, so an attack on the account does not
   * lock its owner out.
   */
  loginPerAccount: { limit: 20, windowMs: 15 * 60_000 },
  loginPerPair: { limit: 10, windowMs: 15 * 60_000 },
  loginPerDevice: { limit: 10, windowMs: 15 * 60_000 },
  loginPerAddress: { limit: 30, windowMs: 15 * 60_000 },
  codePerTarget: { limit: 1, windowMs: CODE_RESEND_SECONDS * 1000 },
  /**
   * Codes a day to one address or number, in the same three tiers as sign-ins: per (target,
   * address) an attacker's address stops first; per target, all sources together; a device the
   * target's account has signed in on counts against its own limit instead, so someone asking for
   * codes all day cannot keep the owner from resetting a password.
   */
  codePerPairDaily: { limit: 10, windowMs: 24 * 3600_000 },
  codePerTargetDaily: { limit: 30, windowMs: 24 * 3600_000 },
  codePerDeviceDaily: { limit: 10, windowMs: 24 * 3600_000 },
  codePerAddress: { limit: 20, windowMs: 3600_000 },
  /** Every guess at an account's authenticator code when turning two-step verification on or off. */
  totpPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  /**
   * The second step of sign-in and the confirmation of a withdrawal are limited apart, per account:
   * a customer's own retries of one never lock them out of the other.
   */
  twoStepSignInPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  withdrawalConfirmPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  /** Social sign-ins started per address; finishing one counts as a login (loginPerAddress). */
  socialStartPerAddress: { limit: 30, windowMs: 15 * 60_000 },
} as const;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type Client = {
  ip: string;
  userAgent: string;
  language: Language;
  /** The device token this browser holds from an earlier sign-in (the device cookie), if any. */
  device?: string | null;
  /** The origin the request came to (links in mail use PUBLIC_URL first). */
  origin?: string;
};

export type LoginResult = { token: string; userInfo: { id: number; userName: string } };
/** The password was right and the account has two-step verification: the code comes next. */
export type LoginChallenge = { twoFactor: true; challenge: string };

/**
 * What a module that links registrations does (invites, a product: identity may not import it):
 * `check` an invite code before anything is consumed (throws its catalogue error when the code is
 * unknown), then, once the account is opened, `registered` links the new customer. `deviceOwner`:
 * the account the request's device cookie was issued to (a valid one), or null.
 */
export type RegistrationHook = {
  check(inviteCode: string): Promise<void>;
  registered(userId: number, inviteCode: string, client: { deviceOwner: number | null }): Promise<void>;
};

/** The parts every use case works with; `IdentityService` builds it once. */
export type IdentityContext = {
  readonly db: Database;
  readonly mailer: Mailer;
  /** The SMS sender of phone codes; without it, sendSmsCode fails. */
  readonly sms: SmsSender | undefined;
  readonly limiter: RateLimiter;
  readonly ledger: LedgerService;
  readonly notices: NoticesService | undefined;
  /** The AES-256-GCM keys of the TOTP secrets at rest (platform/keys.ts). */
  readonly totpKeys: PurposeKeys;
  /** The HMAC keys of device tokens (platform/keys.ts). */
  readonly deviceKeys: PurposeKeys;
  /** The audit log the lock link records in. */
  readonly audit: Pick<AuditService, 'appendInTx'> | undefined;
  /** The clock TOTP codes and security mails go by (tests move it). */
  readonly now: () => number;
  readonly social: SocialSignIn;
  /** PUBLIC_URL, the origin of social sign-in callbacks; else the request's. */
  readonly publicUrl: string | undefined;
  /** The registration hook another module installs (`IdentityService.useRegistrationHook`). */
  readonly hooks: { registration: RegistrationHook | null };
};

/** A phone's E.164 form; the contract checked it already, so null is bad input (10026). */
export function phoneOf(areaCode: string, number: string): string {
  const phone = phoneE164(areaCode, number);
  if (!phone) throw new ApiError(Code.INVALID_INPUT, [{ path: 'phone', issue: 'format' }]);
  return phone;
}

/** A new password is typed twice; two different ones are bad input on the second field (10026). */
export function requireSamePasswords(input: { password: string; password2: string }): void {
  if (input.password !== input.password2)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'password2', issue: 'mismatch' }]);
}

/** The logged-in user's record; a session always has one (users are deleted with their sessions). */
export async function currentUser(ctx: IdentityContext, session: CustomerSession): Promise<UserRow> {
  const user = await findUserById(ctx.db, session.userId);
  if (!user) throw new ApiError(Code.SESSION_EXPIRED);
  return user;
}

/** The password of a logged-in user, before a change to the account: 10004 when wrong, limited like login. */
export async function checkPassword(
  ctx: IdentityContext,
  user: UserRow,
  password: string,
  client: Client,
): Promise<void> {
  await limit(ctx, `password:addr:${client.ip}`, LIMITS.loginPerAddress);
  await limit(ctx, `password:account:${user.id}`, LIMITS.loginPerAccount);
  if (!(await argonVerify(user.passwordHash, password).catch(() => false)))
    throw new ApiError(Code.WRONG_PASSWORD);
}
