import { createHash, randomBytes, randomInt } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { Code, EMAIL, type Language, USERNAME } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError, type CustomerSession } from '../../platform/http.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { codeMail } from './identity.mail.ts';
import {
  countSessionsByTokenHash,
  countUsers,
  deleteSession,
  findSession,
  findUserByLogin,
  insertCode,
  insertSession,
  insertUser,
  latestCode,
  recordCodeAttempt,
  replacePassword,
  touchSession,
  userNameOrEmailTaken,
} from './identity.repository.ts';

/** argon2id with OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane. */
export const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
/** A session in use is renewed at most this often, to keep reads cheap. */
const RENEW_AFTER_SECONDS = 3600;
export const CODE_TTL_SECONDS = 600;
const CODE_RESEND_SECONDS = 60;
const CODE_MAX_ATTEMPTS = 5;

export const LIMITS = {
  loginPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  loginPerAddress: { limit: 30, windowMs: 15 * 60_000 },
  codePerTarget: { limit: 1, windowMs: CODE_RESEND_SECONDS * 1000 },
  codePerTargetDaily: { limit: 10, windowMs: 24 * 3600_000 },
  codePerAddress: { limit: 20, windowMs: 3600_000 },
} as const;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type Client = { ip: string; userAgent: string; language: Language };

/**
 * Customer identity: registration with a mailed code, login, sessions (opaque random tokens kept
 * only as SHA-256 hashes, sliding expiry, gone on logout), and the session resolver the platform
 * uses for every call that needs a customer.
 */
export class IdentityService {
  private readonly db: Database;
  private readonly mailer: Mailer;
  private readonly limiter: RateLimiter;
  private readonly ledger: LedgerService;
  private readonly notices: NoticesService | undefined;
  private dummyHash: Promise<string> | null = null;

  constructor(deps: {
    db: Database;
    mailer: Mailer;
    rateLimiter: RateLimiter;
    ledger: LedgerService;
    notices?: NoticesService;
  }) {
    this.db = deps.db;
    this.mailer = deps.mailer;
    this.limiter = deps.rateLimiter;
    this.ledger = deps.ledger;
    this.notices = deps.notices;
  }

  private async limit(key: string, rule: { limit: number; windowMs: number }): Promise<void> {
    const verdict = await this.limiter.hit(key, rule.limit, rule.windowMs);
    if (!verdict.allowed)
      throw new ApiError(Code.TOO_MANY_REQUESTS, {
        retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000),
      });
  }

  async isAvailable(userName: string): Promise<boolean> {
    const taken = await userNameOrEmailTaken(this.db, userName, null);
    return !taken.userName;
  }

  async sendCode(
    input: { email: string; purpose: 'register' | 'reset' },
    client: Client,
  ): Promise<{ expiresInSeconds: number; resendInSeconds: number }> {
    const email = input.email.toLowerCase();
    await this.limit(`code:addr:${client.ip}`, LIMITS.codePerAddress);
    await this.limit(`code:target:${input.purpose}:${email}`, LIMITS.codePerTarget);
    await this.limit(`code:target-day:${email}`, LIMITS.codePerTargetDaily);
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

  /** Checks and consumes a code: wrong, expired, used or out of attempts all answer 10091. */
  private async consumeCode(target: string, purpose: 'register' | 'reset', code: string): Promise<void> {
    const ok = await this.db.transaction(async (tx) => {
      const stored = await latestCode(tx, target, purpose);
      if (!stored || stored.attempts >= CODE_MAX_ATTEMPTS) return false;
      const match = stored.codeHash === sha256(`${target}:${purpose}:${code}`);
      await recordCodeAttempt(tx, stored.id, match);
      return match;
    });
    if (!ok) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  }

  async register(
    input: {
      userName: string;
      email?: string | undefined;
      password: string;
      password2: string;
      code: string;
    },
    client: Client,
  ): Promise<{ token: string; userInfo: { id: number; userName: string } }> {
    const userName = input.userName.trim();
    const isEmail = EMAIL.test(userName);
    if (!isEmail && !USERNAME.test(userName)) throw new ApiError(Code.USERNAME_INPUT_ERROR);
    const email = (isEmail ? userName : (input.email ?? '')).toLowerCase();
    if (!EMAIL.test(email)) throw new ApiError(Code.EMAIL_WRONG);
    if (input.password !== input.password2)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'password2', issue: 'mismatch' }]);
    const taken = await userNameOrEmailTaken(this.db, userName, email);
    if (taken.userName) throw new ApiError(isEmail ? Code.EMAIL_EXISTS : Code.USERNAME_EXISTS);
    if (taken.email) throw new ApiError(Code.EMAIL_EXISTS);
    await this.consumeCode(email, 'register', input.code);
    const passwordHash = await argonHash(input.password, ARGON2);
    let userId: number;
    try {
      userId = await insertUser(this.db, { userName, email, passwordHash, language: client.language });
    } catch (error) {
      // Two registrations raced for one name: the unique index decides.
      if ((error as { code?: string }).code === '23505')
        throw new ApiError(isEmail ? Code.EMAIL_EXISTS : Code.USERNAME_EXISTS);
      throw error;
    }
    await this.ledger.openCustomerBooks(userId);
    await this.notices?.notify(userId, client.language, 'welcome', { name: userName });
    const token = await this.startSession(userId, client);
    return { token, userInfo: { id: userId, userName } };
  }

  /**
   * Password recovery: a code mailed for "reset" sets a new password and ends every session of
   * the account. An unknown address is refused the same way as a wrong code (10091), so the
   * answer does not tell who has an account.
   */
  async resetPassword(input: {
    email: string;
    code: string;
    password: string;
    password2: string;
  }): Promise<null> {
    if (input.password !== input.password2)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'password2', issue: 'mismatch' }]);
    const email = input.email.trim().toLowerCase();
    await this.consumeCode(email, 'reset', input.code);
    const user = await findUserByLogin(this.db, email);
    if (!user || user.email !== email) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    await replacePassword(this.db, user.id, await argonHash(input.password, ARGON2));
    return null;
  }

  async login(
    input: { userName: string; password: string },
    client: Client,
  ): Promise<{ token: string; userInfo: { id: number; userName: string } }> {
    const login = input.userName.trim().toLowerCase();
    await this.limit(`login:addr:${client.ip}`, LIMITS.loginPerAddress);
    await this.limit(`login:account:${login}`, LIMITS.loginPerAccount);
    const user = await findUserByLogin(this.db, login);
    if (!user) {
      // Spend the same time as a real check, so timing tells nothing more than the code does.
      this.dummyHash ??= argonHash('not a password', ARGON2);
      await argonVerify(await this.dummyHash, input.password).catch(() => false);
      throw new ApiError(Code.NO_MATCHING_USER);
    }
    if (!(await argonVerify(user.passwordHash, input.password).catch(() => false)))
      throw new ApiError(Code.WRONG_PASSWORD);
    if (user.status !== 'active') throw new ApiError(Code.ABNORMAL_USER_STATUS);
    const token = await this.startSession(user.id, client);
    return { token, userInfo: { id: user.id, userName: user.userName } };
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
