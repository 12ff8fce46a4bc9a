import { randomBytes } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { Code, phoneFromLogin } from '@swx/contract';
import { ApiError, type CustomerSession } from '../../platform/http.ts';
import { limit } from '../../platform/ratelimit.ts';
import { alertIfNewDevice } from './identity.alerts.ts';
import { maskIp, newDeviceToken, readDeviceToken, summariseUserAgent } from './identity.devices.ts';
import {
  countSessionsByTokenHash,
  deleteSession,
  deleteUserSession,
  findSession,
  findTotp,
  findUserByLogin,
  findUserByPhone,
  insertChallenge,
  insertSession,
  listUserSessions,
  touchSession,
  type UserRow,
} from './identity.repository.ts';
import { sessionCacheOf } from './identity.session-cache.ts';
import {
  ARGON2,
  CHALLENGE_TTL_SECONDS,
  type Client,
  type IdentityContext,
  LIMITS,
  type LoginChallenge,
  type LoginResult,
  phoneOf,
  RENEW_AFTER_SECONDS,
  SESSION_TTL_SECONDS,
  sha256,
} from './identity.shared.ts';

/*
 * Sessions: password login, the step every sign-in ends with, the platform's session resolver,
 * logout, and the customer's list of sessions. A session is an opaque random token kept only as
 * its SHA-256 hash, with a sliding expiry, gone on logout.
 */

export type SessionInfo = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  browser: string;
  os: string;
  ip: string;
  current: boolean;
};

/** The hash an unknown login is checked against, so it takes as long as a known one. */
let dummyHash: Promise<string> | null = null;

/** A new session for a customer who signed in or registered: its token and the user info. */
export async function startSession(
  ctx: IdentityContext,
  user: { id: number; userName: string },
  client: Client,
): Promise<LoginResult> {
  const token = randomBytes(32).toString('base64url');
  await insertSession(ctx.db, {
    id: randomBytes(12).toString('hex'),
    userId: user.id,
    tokenHash: sha256(token),
    userAgent: client.userAgent,
    ip: client.ip,
    ttlSeconds: SESSION_TTL_SECONDS,
  });
  return { token, userInfo: { id: user.id, userName: user.userName } };
}

/**
 * Password login. Without two-step verification the answer is the session (spec §7). With it,
 * a right password answers a challenge instead, and `loginTotp` finishes with a code.
 */
export async function login(
  ctx: IdentityContext,
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
      ? phoneOf(input.areaCode, input.phone)
      : phoneFromLogin(input.userName ?? '');
  const login = phone ?? (input.userName ?? '').trim().toLowerCase();
  await limit(ctx, `login:addr:${client.ip}`, LIMITS.loginPerAddress);
  const user = phone ? await findUserByPhone(ctx.db, phone) : await findUserByLogin(ctx.db, login);
  // One account however it is named; a name without an account is counted by the name.
  const account = user ? `user:${user.id}` : `name:${login}`;
  const device = user ? readDeviceToken(ctx.deviceKeys, client.device) : null;
  if (device && device.userId === user?.id) {
    await limit(ctx, `login:device:${device.nonce}`, LIMITS.loginPerDevice);
  } else {
    await limit(ctx, `login:pair:${account}:${client.ip}`, LIMITS.loginPerPair);
    await limit(ctx, `login:account:${account}`, LIMITS.loginPerAccount);
  }
  if (!user) {
    // Spend the same time as a real check, so timing tells nothing more than the code does.
    dummyHash ??= argonHash('not a password', ARGON2);
    await argonVerify(await dummyHash, input.password).catch(() => false);
    throw new ApiError(Code.NO_MATCHING_USER);
  }
  if (!(await argonVerify(user.passwordHash, input.password).catch(() => false)))
    throw new ApiError(Code.WRONG_PASSWORD);
  return completeLogin(ctx, user, client);
}

/**
 * The customer is known (right password, or a provider's verified ID token): a locked account
 * is refused; with 2FA on the answer is a challenge for loginTotp; else a new session, and a
 * security alert when the device has not signed in to this account before.
 */
export async function completeLogin(
  ctx: IdentityContext,
  user: UserRow,
  client: Client,
  options: { newAccount?: boolean } = {},
): Promise<LoginResult | LoginChallenge> {
  if (user.status !== 'active') throw new ApiError(Code.ABNORMAL_USER_STATUS);
  if ((await findTotp(ctx.db, user.id))?.enabled) {
    const challenge = randomBytes(32).toString('base64url');
    await insertChallenge(ctx.db, {
      challengeHash: sha256(challenge),
      userId: user.id,
      ttlSeconds: CHALLENGE_TTL_SECONDS,
    });
    return { twoFactor: true, challenge };
  }
  const started = await startSession(ctx, user, client);
  if (!options.newAccount) await alertIfNewDevice(ctx, user, client);
  return started;
}

/**
 * The device token for a browser that just signed in to this account: the one it holds when it
 * is this account's (so the device keeps its name in the limits), else a new one.
 */
export function deviceToken(ctx: IdentityContext, userId: number, held: string | null | undefined): string {
  const device = readDeviceToken(ctx.deviceKeys, held);
  return device?.userId === userId
    ? newDeviceToken(ctx.deviceKeys, userId, device.nonce)
    : newDeviceToken(ctx.deviceKeys, userId);
}

/**
 * The platform's session resolver: a token to its customer, or null. A session read lately is
 * answered from this process's cache (`identity.session-cache.ts`: forgotten the moment this
 * process ends it, on the bus for the others, after SESSION_CACHE_MS at the latest); the read
 * that fills it renews a session in use.
 */
export async function resolveSession(ctx: IdentityContext, token: string): Promise<CustomerSession | null> {
  const tokenHash = sha256(token);
  const cache = sessionCacheOf(ctx.db);
  const cached = cache.get(tokenHash);
  if (cached) return cached;
  const epoch = cache.epoch;
  const session = await findSession(ctx.db, tokenHash);
  if (!session) return null;
  if (session.lastSeenSeconds > RENEW_AFTER_SECONDS)
    await touchSession(ctx.db, session.sessionId, SESSION_TTL_SECONDS);
  const resolved = { userId: session.userId, userName: session.userName, sessionId: session.sessionId };
  cache.put(tokenHash, resolved, epoch, session.expiresInMs);
  return resolved;
}

export async function logout(ctx: IdentityContext, session: CustomerSession): Promise<void> {
  await deleteSession(ctx.db, session.sessionId, session.userId);
  await sessionCacheOf(ctx.db).ended(session.userId);
}

/** The user's live sessions: a public random id (never the token), times, device, masked address. */
export async function listSessions(ctx: IdentityContext, session: CustomerSession): Promise<SessionInfo[]> {
  const rows = await listUserSessions(ctx.db, session.userId);
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
export async function revokeSession(
  ctx: IdentityContext,
  session: CustomerSession,
  id: string,
): Promise<null> {
  if (!(await deleteUserSession(ctx.db, session.userId, id))) throw new ApiError(Code.NOT_FOUND);
  await sessionCacheOf(ctx.db).ended(session.userId);
  return null;
}

/** For tests of "tokens are gone after logout": how many sessions carry this token's hash. */
export function sessionsWithToken(ctx: IdentityContext, token: string): Promise<number> {
  return countSessionsByTokenHash(ctx.db, sha256(token));
}
