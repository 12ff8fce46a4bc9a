import { createHash, randomBytes, randomInt } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { Code, EMAIL, type Language, phoneE164, phoneFromLogin, USERNAME } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError, type CustomerSession } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { SmsSender } from '../../platform/sms.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import {
  deviceKey,
  maskIp,
  newDeviceToken,
  readDeviceToken,
  summariseUserAgent,
} from './identity.devices.ts';
import { codeMail, codeSms, type SecurityEvent, securityMail } from './identity.mail.ts';
import {
  activateTotp,
  advanceTotpStep,
  consumeRecoveryCode,
  countRecoveryCodesLeft,
  countSessionsByTokenHash,
  countUsers,
  deleteSession,
  deleteTotp,
  deleteUserSession,
  findSession,
  findTotp,
  findUserById,
  findUserByLogin,
  findUserByPhone,
  insertChallenge,
  insertCode,
  insertSession,
  insertUser,
  latestCode,
  listUserSessions,
  lockChallenge,
  phoneTaken,
  recordChallengeAttempt,
  recordCodeAttempt,
  replacePassword,
  replaceRecoveryCodes,
  savePendingTotp,
  touchSession,
  type UserRow,
  userNameOrEmailTaken,
} from './identity.repository.ts';
import { findLinkedUser, findUserIdByEmail, linkIdentity } from './identity.social.repository.ts';
import { type SocialIdentity, type SocialProvider, SocialSignIn, socialUserName } from './identity.social.ts';
import {
  base32Encode,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  openSecret,
  otpauthUri,
  RECOVERY_CODE_COUNT,
  sealSecret,
} from './identity.totp.ts';

/** argon2id with OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane. */
export const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
/** A session in use is renewed at most this often, to keep reads cheap. */
const RENEW_AFTER_SECONDS = 3600;
export const CODE_TTL_SECONDS = 600;
const CODE_RESEND_SECONDS = 60;
const CODE_MAX_ATTEMPTS = 5;
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
  /** Every guess at an account's authenticator code (login, enable, disable) counts here. */
  totpPerAccount: { limit: 10, windowMs: 15 * 60_000 },
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
};

export type LoginResult = { token: string; userInfo: { id: number; userName: string } };
/** The password was right and the account has two-step verification: the code comes next. */
export type LoginChallenge = { twoFactor: true; challenge: string };

export type SessionInfo = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  browser: string;
  os: string;
  ip: string;
  current: boolean;
};

const recoveryHash = (userId: number, code: string) => sha256(`${userId}:${normalizeRecoveryCode(code)}`);

/**
 * Customer identity: registration with a mailed code, login, sessions (opaque random tokens kept
 * only as SHA-256 hashes, sliding expiry, gone on logout), and the session resolver the platform
 * uses for every call that needs a customer.
 */
export class IdentityService {
  private readonly db: Database;
  private readonly mailer: Mailer;
  private readonly sms: SmsSender | undefined;
  private readonly limiter: RateLimiter;
  private readonly ledger: LedgerService;
  private readonly notices: NoticesService | undefined;
  private readonly totpKey: Buffer;
  private readonly deviceKey: Buffer;
  private readonly now: () => number;
  private readonly social: SocialSignIn;
  private readonly publicUrl: string | undefined;
  private dummyHash: Promise<string> | null = null;

  constructor(deps: {
    db: Database;
    mailer: Mailer;
    /** The SMS sender of phone codes; without it, sendSmsCode fails. */
    sms?: SmsSender;
    rateLimiter: RateLimiter;
    ledger: LedgerService;
    notices?: NoticesService;
    /** 32 bytes: the AES-256-GCM key of the TOTP secrets at rest (config TOTP_KEY). */
    totpKey: Buffer;
    /** The clock TOTP codes are checked against (tests move it). */
    now?: () => number;
    /** The configured social sign-in providers (config SOCIAL_*), and PUBLIC_URL for their callback. */
    social?: { providers: readonly SocialProvider[]; publicUrl?: string | undefined };
    logger?: Logger;
  }) {
    this.db = deps.db;
    this.mailer = deps.mailer;
    this.sms = deps.sms;
    this.limiter = deps.rateLimiter;
    this.ledger = deps.ledger;
    this.notices = deps.notices;
    if (deps.totpKey.length !== 32) throw new Error('the TOTP key must be 32 bytes');
    this.totpKey = deps.totpKey;
    this.deviceKey = deviceKey(deps.totpKey);
    this.now = deps.now ?? Date.now;
    this.social = new SocialSignIn({
      db: deps.db,
      providers: deps.social?.providers ?? [],
      logger: deps.logger,
    });
    this.publicUrl = deps.social?.publicUrl;
  }

  /** The daily code limits of one target (see LIMITS); `ownerId` is the account it belongs to. */
  private async limitCodesOf(target: string, ownerId: number | undefined, client: Client): Promise<void> {
    const device = ownerId === undefined ? null : readDeviceToken(this.deviceKey, client.device);
    if (device && device.userId === ownerId) {
      await this.limit(`code:device-day:${device.nonce}`, LIMITS.codePerDeviceDaily);
      return;
    }
    await this.limit(`code:pair-day:${target}:${client.ip}`, LIMITS.codePerPairDaily);
    await this.limit(`code:target-day:${target}`, LIMITS.codePerTargetDaily);
  }

  private async limit(key: string, rule: { limit: number; windowMs: number }): Promise<void> {
    const verdict = await this.limiter.hit(key, rule.limit, rule.windowMs);
    if (!verdict.allowed)
      throw new ApiError(Code.TOO_MANY_REQUESTS, {
        retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000),
      });
  }

  /** A phone's E.164 form; the contract checked it already, so null is bad input (10026). */
  private phoneOf(areaCode: string, number: string): string {
    const phone = phoneE164(areaCode, number);
    if (!phone) throw new ApiError(Code.INVALID_INPUT, [{ path: 'phone', issue: 'format' }]);
    return phone;
  }

  /** Is a username or email (or a phone typed as E.164) free to register. */
  async isAvailable(userName: string): Promise<boolean> {
    const phone = phoneFromLogin(userName);
    if (phone) return !(await phoneTaken(this.db, phone));
    const taken = await userNameOrEmailTaken(this.db, userName, null);
    return !taken.userName;
  }

  /** Is a phone (area code and number) free to register. */
  async isPhoneAvailable(areaCode: string, number: string): Promise<boolean> {
    return !(await phoneTaken(this.db, this.phoneOf(areaCode, number)));
  }

  async sendCode(
    input: { email: string; purpose: 'register' | 'reset' },
    client: Client,
  ): Promise<{ expiresInSeconds: number; resendInSeconds: number }> {
    const email = input.email.toLowerCase();
    await this.limit(`code:addr:${client.ip}`, LIMITS.codePerAddress);
    await this.limit(`code:target:${input.purpose}:${email}`, LIMITS.codePerTarget);
    const owner = input.purpose === 'reset' ? await findUserByLogin(this.db, email) : null;
    await this.limitCodesOf(email, owner?.id, client);
    if (input.purpose === 'register' && (await userNameOrEmailTaken(this.db, email, email)).email)
      throw new ApiError(Code.EMAIL_EXISTS);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await insertCode(this.db, {
      channel: 'email',
      target: email,
      purpose: input.purpose,
      codeHash: sha256(`${email}:${input.purpose}:${code}`),
      ttlSeconds: CODE_TTL_SECONDS,
    });
    const mail = codeMail(client.language, code, CODE_TTL_SECONDS / 60);
    await this.mailer.send({ to: email, ...mail });
    return { expiresInSeconds: CODE_TTL_SECONDS, resendInSeconds: CODE_RESEND_SECONDS };
  }

  /**
   * A code by SMS, with the rules of mailed codes: 6 digits stored hashed, 10 minutes, 5 attempts,
   * single use; limits per address, per number and purpose (one a minute) and per number a day.
   * For "register", a number in use answers 10007. For "reset", a number without an account is
   * answered the same as one with (nothing tells who has an account) but no SMS goes out.
   */
  async sendSmsCode(
    input: { areaCode: string; phone: string; purpose: 'register' | 'reset' },
    client: Client,
  ): Promise<{ expiresInSeconds: number; resendInSeconds: number }> {
    const phone = this.phoneOf(input.areaCode, input.phone);
    await this.limit(`code:addr:${client.ip}`, LIMITS.codePerAddress);
    await this.limit(`code:target:${input.purpose}:${phone}`, LIMITS.codePerTarget);
    const owner = input.purpose === 'reset' ? await findUserByPhone(this.db, phone) : null;
    await this.limitCodesOf(phone, owner?.id, client);
    const taken = await phoneTaken(this.db, phone);
    if (input.purpose === 'register' && taken) throw new ApiError(Code.EMAIL_EXISTS);
    const sent = { expiresInSeconds: CODE_TTL_SECONDS, resendInSeconds: CODE_RESEND_SECONDS };
    if (input.purpose === 'reset' && !owner) return sent;
    if (!this.sms) throw new Error('no SMS sender is configured');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await insertCode(this.db, {
      channel: 'sms',
      target: phone,
      purpose: input.purpose,
      codeHash: sha256(`${phone}:${input.purpose}:${code}`),
      ttlSeconds: CODE_TTL_SECONDS,
    });
    await this.sms.send({ to: phone, text: codeSms(client.language, code, CODE_TTL_SECONDS / 60) });
    return sent;
  }

  /** Checks and consumes a code: wrong, expired, used or out of attempts all answer 10091. */
  private async consumeCode(
    channel: 'email' | 'sms',
    target: string,
    purpose: 'register' | 'reset',
    code: string,
  ): Promise<void> {
    const ok = await this.db.transaction(async (tx) => {
      const stored = await latestCode(tx, channel, target, purpose);
      if (!stored || stored.attempts >= CODE_MAX_ATTEMPTS) return false;
      const match = stored.codeHash === sha256(`${target}:${purpose}:${code}`);
      await recordCodeAttempt(tx, stored.id, match);
      return match;
    });
    if (!ok) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  }

  async register(
    input: {
      userName?: string | undefined;
      email?: string | undefined;
      areaCode?: string | undefined;
      phone?: string | undefined;
      password: string;
      password2: string;
      code: string;
    },
    client: Client,
  ): Promise<{ token: string; userInfo: { id: number; userName: string } }> {
    if (input.areaCode !== undefined && input.phone !== undefined)
      return this.registerByPhone({ ...input, areaCode: input.areaCode, phone: input.phone }, client);
    const userName = (input.userName ?? '').trim();
    const isEmail = EMAIL.test(userName);
    if (!isEmail && !USERNAME.test(userName)) throw new ApiError(Code.USERNAME_INPUT_ERROR);
    const email = (isEmail ? userName : (input.email ?? '')).toLowerCase();
    if (!EMAIL.test(email)) throw new ApiError(Code.EMAIL_WRONG);
    if (input.password !== input.password2)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'password2', issue: 'mismatch' }]);
    const taken = await userNameOrEmailTaken(this.db, userName, email);
    if (taken.userName) throw new ApiError(isEmail ? Code.EMAIL_EXISTS : Code.USERNAME_EXISTS);
    if (taken.email) throw new ApiError(Code.EMAIL_EXISTS);
    await this.consumeCode('email', email, 'register', input.code);
    const passwordHash = await argonHash(input.password, ARGON2);
    let userId: number;
    try {
      userId = await this.openAccount({ userName, email, passwordHash }, client);
    } catch (error) {
      // Two registrations raced for one name: the unique index decides.
      if ((error as { code?: string }).code === '23505')
        throw new ApiError(isEmail ? Code.EMAIL_EXISTS : Code.USERNAME_EXISTS);
      throw error;
    }
    const token = await this.startSession(userId, client);
    return { token, userInfo: { id: userId, userName } };
  }

  /**
   * Registration by phone: the number (E.164) is the account's name and phone, proved by the SMS
   * code. A number in use answers 10007 (the catalogue's Chinese text names the phone).
   */
  private async registerByPhone(
    input: { areaCode: string; phone: string; password: string; password2: string; code: string },
    client: Client,
  ): Promise<LoginResult> {
    const phone = this.phoneOf(input.areaCode, input.phone);
    if (input.password !== input.password2)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'password2', issue: 'mismatch' }]);
    if (await phoneTaken(this.db, phone)) throw new ApiError(Code.EMAIL_EXISTS);
    await this.consumeCode('sms', phone, 'register', input.code);
    const passwordHash = await argonHash(input.password, ARGON2);
    let userId: number;
    try {
      userId = await this.openAccount({ userName: phone, email: null, phone, passwordHash }, client);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new ApiError(Code.EMAIL_EXISTS);
      throw error;
    }
    const token = await this.startSession(userId, client);
    return { token, userInfo: { id: userId, userName: phone } };
  }

  /**
   * A new customer, for registration and social sign-in alike: the user row, then the books in
   * both ledgers and the welcome notice. A taken name or email throws the database's 23505.
   */
  private async openAccount(
    user: { userName: string; email: string | null; phone?: string | null; passwordHash: string },
    client: Client,
  ): Promise<number> {
    const userId = await insertUser(this.db, { ...user, language: client.language });
    await this.ledger.openCustomerBooks(userId);
    await this.notices?.notify(userId, client.language, 'welcome', { name: user.userName });
    return userId;
  }

  /**
   * Password recovery: a code mailed for "reset" sets a new password and ends every session of
   * the account. An unknown address is refused the same way as a wrong code (10091), so the
   * answer does not tell who has an account.
   */
  async resetPassword(input: {
    email?: string | undefined;
    areaCode?: string | undefined;
    phone?: string | undefined;
    code: string;
    password: string;
    password2: string;
  }): Promise<null> {
    if (input.password !== input.password2)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'password2', issue: 'mismatch' }]);
    if (input.areaCode !== undefined && input.phone !== undefined) {
      // Recovery of an account by its phone, with a code sent by SMS for "reset".
      const phone = this.phoneOf(input.areaCode, input.phone);
      await this.consumeCode('sms', phone, 'reset', input.code);
      const holder = await findUserByPhone(this.db, phone);
      if (!holder) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
      const hash = await argonHash(input.password, ARGON2);
      await this.db.transaction((tx) => replacePassword(tx, holder.id, hash));
      return null;
    }
    const email = (input.email ?? '').trim().toLowerCase();
    await this.consumeCode('email', email, 'reset', input.code);
    const user = await findUserByLogin(this.db, email);
    if (!user || user.email !== email) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    const passwordHash = await argonHash(input.password, ARGON2);
    await this.db.transaction((tx) => replacePassword(tx, user.id, passwordHash));
    return null;
  }

  /**
   * Password login. Without two-step verification the answer is the session (spec §7). With it,
   * a right password answers a challenge instead, and `loginTotp` finishes with a code.
   */
  async login(
    input: {
      userName?: string | undefined;
      areaCode?: string | undefined;
      phone?: string | undefined;
      password: string;
    },
    client: Client,
  ): Promise<LoginResult | LoginChallenge> {
    // A phone as area code and number, or typed in E.164 in userName; else a username or email.
    const phone =
      input.areaCode !== undefined && input.phone !== undefined
        ? this.phoneOf(input.areaCode, input.phone)
        : phoneFromLogin(input.userName ?? '');
    const login = phone ?? (input.userName ?? '').trim().toLowerCase();
    await this.limit(`login:addr:${client.ip}`, LIMITS.loginPerAddress);
    const user = phone ? await findUserByPhone(this.db, phone) : await findUserByLogin(this.db, login);
    // One account however it is named; a name without an account is counted by the name.
    const account = user ? `user:${user.id}` : `name:${login}`;
    const device = user ? readDeviceToken(this.deviceKey, client.device) : null;
    if (device && device.userId === user?.id) {
      await this.limit(`login:device:${device.nonce}`, LIMITS.loginPerDevice);
    } else {
      await this.limit(`login:pair:${account}:${client.ip}`, LIMITS.loginPerPair);
      await this.limit(`login:account:${account}`, LIMITS.loginPerAccount);
    }
    if (!user) {
      // Spend the same time as a real check, so timing tells nothing more than the code does.
      this.dummyHash ??= argonHash('not a password', ARGON2);
      await argonVerify(await this.dummyHash, input.password).catch(() => false);
      throw new ApiError(Code.NO_MATCHING_USER);
    }
    if (!(await argonVerify(user.passwordHash, input.password).catch(() => false)))
      throw new ApiError(Code.WRONG_PASSWORD);
    return this.completeLogin(user, client);
  }

  /**
   * The customer is known (right password, or a provider's verified ID token): a locked account
   * is refused; with 2FA on the answer is a challenge for loginTotp; else a new session.
   */
  private async completeLogin(user: UserRow, client: Client): Promise<LoginResult | LoginChallenge> {
    if (user.status !== 'active') throw new ApiError(Code.ABNORMAL_USER_STATUS);
    if ((await findTotp(this.db, user.id))?.enabled) {
      const challenge = randomBytes(32).toString('base64url');
      await insertChallenge(this.db, {
        challengeHash: sha256(challenge),
        userId: user.id,
        ttlSeconds: CHALLENGE_TTL_SECONDS,
      });
      return { twoFactor: true, challenge };
    }
    const token = await this.startSession(user.id, client);
    return { token, userInfo: { id: user.id, userName: user.userName } };
  }

  /** The social sign-in providers this server offers: the configured ones only. */
  socialProviders(): { provider: string; label: string }[] {
    return this.social.list();
  }

  /**
   * Starts a social sign-in: the provider's authorization URL, and the random binding the route
   * puts in an HttpOnly cookie. The provider sends the browser back to /api/loginCallback/{name}
   * under PUBLIC_URL, or without it under the origin the request came to (`origin`).
   */
  async startSocialLogin(
    provider: string,
    origin: string,
    client: Client,
  ): Promise<{ authorizationUrl: string; binding: string }> {
    await this.limit(`social:addr:${client.ip}`, LIMITS.socialStartPerAddress);
    const name = this.social.provider(provider).name;
    const base = (this.publicUrl ?? origin).replace(/\/+$/, '');
    return this.social.start(name, `${base}/api/loginCallback/${name}`);
  }

  /**
   * Finishes a social sign-in, then logs in like a password would (2FA included). The provider
   * identity (issuer + subject) already linked: its customer. Else the account with the email the
   * provider says it verified: linked to it. An account has that email but the provider did not
   * verify it: refused with 10007, never linked, and no second account with the same address.
   * Else a new account, linked.
   */
  async finishSocialLogin(
    provider: string,
    input: { code: string; state: string; iss?: string | undefined },
    binding: string | null,
    client: Client,
  ): Promise<LoginResult | LoginChallenge> {
    await this.limit(`login:addr:${client.ip}`, LIMITS.loginPerAddress);
    const identity = await this.social.finish(provider, input, binding);
    let userId = await findLinkedUser(this.db, identity.issuer, identity.subject);
    if (userId === null) {
      const holder = identity.email ? await findUserIdByEmail(this.db, identity.email) : null;
      if (holder !== null && !identity.emailVerified) throw new ApiError(Code.EMAIL_EXISTS);
      userId = await linkIdentity(this.db, {
        issuer: identity.issuer,
        subject: identity.subject,
        userId: holder ?? (await this.openSocialAccount(identity, client)),
        provider: identity.provider,
        email: identity.email,
        emailVerified: identity.emailVerified,
      });
    }
    const user = await findUserById(this.db, userId);
    if (!user) throw new ApiError(Code.NOT_FOUND);
    return this.completeLogin(user, client);
  }

  /**
   * A new account for a provider identity, opened like a registration. Its username comes from
   * the email or name (made unique); its email only when the provider verified it, so an
   * unverified address never blocks its owner. Its password is random and never shown: it signs
   * in through the provider, or sets a password by recovery through a verified email.
   */
  private async openSocialAccount(identity: SocialIdentity, client: Client): Promise<number> {
    const passwordHash = await argonHash(randomBytes(32).toString('base64url'), ARGON2);
    const email = identity.emailVerified ? identity.email : null;
    const base = socialUserName(identity);
    for (let attempt = 0; attempt < 8; attempt++) {
      const userName = attempt === 0 ? base : `${base}_${randomInt(1000, 100_000)}`;
      if ((await userNameOrEmailTaken(this.db, userName, null)).userName) continue;
      try {
        return await this.openAccount({ userName, email, passwordHash }, client);
      } catch (error) {
        // Someone took the name meanwhile: the unique index decides, and another name is tried.
        if ((error as { code?: string }).code !== '23505') throw error;
      }
    }
    throw new ApiError(Code.USERNAME_EXISTS);
  }

  /**
   * The second step of a login: the challenge and an authenticator code (or a recovery code).
   * A wrong code answers 10091 and uses one of the challenge's 5 attempts; an unknown, expired,
   * used or exhausted challenge answers 10028 (start again with the password).
   */
  async loginTotp(
    input: { challenge: string; code?: string | undefined; recoveryCode?: string | undefined },
    client: Client,
  ): Promise<LoginResult> {
    await this.limit(`login:addr:${client.ip}`, LIMITS.loginPerAddress);
    const challengeHash = sha256(input.challenge);
    const outcome = await this.db.transaction(async (tx) => {
      const challenge = await lockChallenge(tx, challengeHash, CHALLENGE_MAX_ATTEMPTS);
      if (!challenge) return { kind: 'gone' as const };
      await this.limit(`totp:account:${challenge.userId}`, LIMITS.totpPerAccount);
      const credential = await findTotp(tx, challenge.userId, true);
      if (!credential?.enabled) {
        await recordChallengeAttempt(tx, challengeHash, true);
        return { kind: 'gone' as const };
      }
      let ok = false;
      if (input.code !== undefined) {
        const secret = openSecret(this.totpKey, challenge.userId, credential.secretEnc);
        const step = matchTotp(secret, input.code.trim(), this.now(), credential.lastStep);
        ok = step !== null && (await advanceTotpStep(tx, challenge.userId, step));
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
    const user = await findUserById(this.db, outcome.userId);
    if (!user) throw new ApiError(Code.NOT_FOUND);
    if (user.status !== 'active') throw new ApiError(Code.ABNORMAL_USER_STATUS);
    const token = await this.startSession(user.id, client);
    return { token, userInfo: { id: user.id, userName: user.userName } };
  }

  /** The logged-in user's record; a session always has one (users are deleted with their sessions). */
  private async currentUser(session: CustomerSession): Promise<UserRow> {
    const user = await findUserById(this.db, session.userId);
    if (!user) throw new ApiError(Code.SESSION_EXPIRED);
    return user;
  }

  private async checkPassword(user: UserRow, password: string, client: Client): Promise<void> {
    await this.limit(`password:addr:${client.ip}`, LIMITS.loginPerAddress);
    await this.limit(`password:account:${user.id}`, LIMITS.loginPerAccount);
    if (!(await argonVerify(user.passwordHash, password).catch(() => false)))
      throw new ApiError(Code.WRONG_PASSWORD);
  }

  /** A mail about the account's security; a mail that cannot go is kept by the mailer, not lost. */
  private async notifySecurity(user: UserRow, event: SecurityEvent, client: Client): Promise<void> {
    if (!user.email) return;
    const agent = summariseUserAgent(client.userAgent);
    const mail = securityMail(client.language, event, {
      time: new Date(this.now()),
      device: [agent.browser, agent.os].filter(Boolean).join(', '),
      ip: maskIp(client.ip),
    });
    await this.mailer.send({ to: user.email, ...mail }).catch(() => undefined);
  }

  /**
   * Change password (repassword): the current password and the new one twice. Every other session
   * of the user ends; this one stays. A wrong current password answers 10004, rate limited like
   * login.
   */
  async changePassword(
    session: CustomerSession,
    input: { oldPassword: string; password: string; password2: string },
    client: Client,
  ): Promise<null> {
    if (input.password !== input.password2)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'password2', issue: 'mismatch' }]);
    const user = await this.currentUser(session);
    await this.checkPassword(user, input.oldPassword, client);
    const passwordHash = await argonHash(input.password, ARGON2);
    await this.db.transaction((tx) => replacePassword(tx, user.id, passwordHash, session.sessionId));
    await this.notifySecurity(user, 'passwordChanged', client);
    return null;
  }

  /** The user's live sessions: a public random id (never the token), times, device, masked address. */
  async listSessions(session: CustomerSession): Promise<SessionInfo[]> {
    const rows = await listUserSessions(this.db, session.userId);
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      ...summariseUserAgent(row.userAgent),
      ip: maskIp(row.ip),
      current: row.id === session.sessionId,
    }));
  }

  /** Ends one of the user's sessions; any other id (someone else's, or none) answers 10028. */
  async revokeSession(session: CustomerSession, id: string): Promise<null> {
    if (!(await deleteUserSession(this.db, session.userId, id))) throw new ApiError(Code.NOT_FOUND);
    return null;
  }

  async totpStatus(session: CustomerSession): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const credential = await findTotp(this.db, session.userId);
    return {
      enabled: credential?.enabled ?? false,
      recoveryCodesLeft: credential?.enabled ? await countRecoveryCodesLeft(this.db, session.userId) : 0,
    };
  }

  /**
   * Starts two-step verification: a new secret (kept encrypted), pending until `enableTotp`
   * confirms a code from it. Calling it again replaces a pending secret; with 2FA on, 10008.
   */
  async setupTotp(session: CustomerSession): Promise<{ secret: string; uri: string }> {
    const secret = newTotpSecret();
    const saved = await savePendingTotp(
      this.db,
      session.userId,
      sealSecret(this.totpKey, session.userId, secret),
    );
    if (!saved) throw new ApiError(Code.WRONG_USER_STATUS);
    const text = base32Encode(secret);
    return { secret: text, uri: otpauthUri(text, session.userName) };
  }

  /** Confirms the pending secret with a code; answers the 10 recovery codes, shown this once. */
  async enableTotp(
    session: CustomerSession,
    input: { code: string },
    client: Client,
  ): Promise<{ recoveryCodes: string[] }> {
    await this.limit(`totp:account:${session.userId}`, LIMITS.totpPerAccount);
    const credential = await findTotp(this.db, session.userId);
    if (!credential || credential.enabled) throw new ApiError(Code.WRONG_USER_STATUS);
    const secret = openSecret(this.totpKey, session.userId, credential.secretEnc);
    const step = matchTotp(secret, input.code.trim(), this.now(), credential.lastStep);
    if (step === null) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const enabled = await this.db.transaction(async (tx) => {
      if (!(await activateTotp(tx, session.userId, step))) return false;
      await replaceRecoveryCodes(
        tx,
        session.userId,
        recoveryCodes.map((code) => recoveryHash(session.userId, code)),
      );
      return true;
    });
    if (!enabled) throw new ApiError(Code.WRONG_USER_STATUS);
    await this.notifySecurity(await this.currentUser(session), 'totpEnabled', client);
    return { recoveryCodes };
  }

  /**
   * Turns two-step verification off: the password and a current code (or an unused recovery
   * code). Wrong password 10004, wrong code 10091, not on 10008.
   */
  async disableTotp(
    session: CustomerSession,
    input: { password: string; code: string },
    client: Client,
  ): Promise<null> {
    const user = await this.currentUser(session);
    await this.checkPassword(user, input.password, client);
    await this.limit(`totp:account:${user.id}`, LIMITS.totpPerAccount);
    const code = input.code.trim();
    const outcome = await this.db.transaction(async (tx) => {
      const credential = await findTotp(tx, user.id, true);
      if (!credential?.enabled) return 'off' as const;
      let ok: boolean;
      if (/^\d{6}$/.test(code)) {
        const secret = openSecret(this.totpKey, user.id, credential.secretEnc);
        const step = matchTotp(secret, code, this.now(), credential.lastStep);
        ok = step !== null && (await advanceTotpStep(tx, user.id, step));
      } else {
        ok = await consumeRecoveryCode(tx, user.id, recoveryHash(user.id, code));
      }
      if (!ok) return 'wrong' as const;
      await deleteTotp(tx, user.id);
      return 'done' as const;
    });
    if (outcome === 'off') throw new ApiError(Code.WRONG_USER_STATUS);
    if (outcome === 'wrong') throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    await this.notifySecurity(user, 'totpDisabled', client);
    return null;
  }

  private async startSession(userId: number, client: Client): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await insertSession(this.db, {
      id: randomBytes(12).toString('hex'),
      userId,
      tokenHash: sha256(token),
      userAgent: client.userAgent,
      ip: client.ip,
      ttlSeconds: SESSION_TTL_SECONDS,
    });
    return token;
  }

  /**
   * The device token for a browser that just signed in to this account: the one it holds when it
   * is this account's (so the device keeps its name in the limits), else a new one.
   */
  deviceToken(userId: number, held: string | null | undefined): string {
    const device = readDeviceToken(this.deviceKey, held);
    return device?.userId === userId
      ? newDeviceToken(this.deviceKey, userId, device.nonce)
      : newDeviceToken(this.deviceKey, userId);
  }

  /** The platform's session resolver: a token to its customer, or null. */
  readonly resolveSession = async (token: string): Promise<CustomerSession | null> => {
    const session = await findSession(this.db, sha256(token));
    if (!session) return null;
    if (session.lastSeenSeconds > RENEW_AFTER_SECONDS)
      await touchSession(this.db, session.sessionId, SESSION_TTL_SECONDS);
    return { userId: session.userId, userName: session.userName, sessionId: session.sessionId };
  };

  async logout(session: CustomerSession): Promise<void> {
    await deleteSession(this.db, session.sessionId, session.userId);
  }

  registeredUsers(): Promise<number> {
    return countUsers(this.db);
  }

  /** For tests of "tokens are gone after logout": how many sessions carry this token's hash. */
  async sessionsWithToken(token: string): Promise<number> {
    return countSessionsByTokenHash(this.db, sha256(token));
  }
}
