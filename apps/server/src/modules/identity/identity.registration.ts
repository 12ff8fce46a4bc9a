import { hash as argonHash } from '@node-rs/argon2';
import { Code, type CodeValue, EMAIL, phoneFromLogin, USERNAME } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { consumeCode } from './identity.codes.ts';
import { readDeviceToken } from './identity.devices.ts';
import { countUsers, insertUser, phoneTaken, userNameOrEmailTaken } from './identity.repository.ts';
import { startSession } from './identity.sessions.ts';
import {
  ARGON2,
  type Client,
  type IdentityContext,
  type LoginResult,
  phoneOf,
  requireSamePasswords,
} from './identity.shared.ts';

/*
 * Registration: with a username or email and a mailed code, or with a phone and an SMS code; and
 * the opening of a new customer's account, which social sign-in shares.
 */

/** Is a username or email (or a phone typed as E.164) free to register. */
export async function isAvailable(ctx: IdentityContext, userName: string): Promise<boolean> {
  const phone = phoneFromLogin(userName);
  if (phone) return !(await phoneTaken(ctx.db, phone));
  const taken = await userNameOrEmailTaken(ctx.db, userName, null);
  return !taken.userName;
}

/** Is a phone (area code and number) free to register. */
export async function isPhoneAvailable(
  ctx: IdentityContext,
  areaCode: string,
  number: string,
): Promise<boolean> {
  return !(await phoneTaken(ctx.db, phoneOf(areaCode, number)));
}

export async function register(
  ctx: IdentityContext,
  input: {
    userName?: string | undefined;
    email?: string | undefined;
    areaCode?: string | undefined;
    phone?: string | undefined;
    password: string;
    password2: string;
    code: string;
    /** The invite code of who invited them: checked before the code is consumed, linked once the account exists. */
    inviteCode?: string | undefined;
  },
  client: Client,
): Promise<LoginResult> {
  if (input.areaCode !== undefined && input.phone !== undefined)
    return registerByPhone(ctx, { ...input, areaCode: input.areaCode, phone: input.phone }, client);
  const userName = (input.userName ?? '').trim();
  const isEmail = EMAIL.test(userName);
  if (!isEmail && !USERNAME.test(userName)) throw new ApiError(Code.USERNAME_INPUT_ERROR);
  const email = (isEmail ? userName : (input.email ?? '')).toLowerCase();
  if (!EMAIL.test(email)) throw new ApiError(Code.EMAIL_WRONG);
  requireSamePasswords(input);
  const taken = await userNameOrEmailTaken(ctx.db, userName, email);
  if (taken.userName) throw new ApiError(isEmail ? Code.EMAIL_EXISTS : Code.USERNAME_EXISTS);
  if (taken.email) throw new ApiError(Code.EMAIL_EXISTS);
  await checkInvite(ctx, input.inviteCode);
  await consumeCode(ctx, 'email', email, 'register', input.code);
  const takenCode = isEmail ? Code.EMAIL_EXISTS : Code.USERNAME_EXISTS;
  return openWithPassword(ctx, { userName, email }, input, takenCode, client);
}

/**
 * Registration by phone: the number (E.164) is the account's name and phone, proved by the SMS
 * code. A number in use answers 10007 (the catalogue's Chinese text names the phone).
 */
async function registerByPhone(
  ctx: IdentityContext,
  input: {
    areaCode: string;
    phone: string;
    password: string;
    password2: string;
    code: string;
    inviteCode?: string | undefined;
  },
  client: Client,
): Promise<LoginResult> {
  const phone = phoneOf(input.areaCode, input.phone);
  requireSamePasswords(input);
  if (await phoneTaken(ctx.db, phone)) throw new ApiError(Code.EMAIL_EXISTS);
  await checkInvite(ctx, input.inviteCode);
  await consumeCode(ctx, 'sms', phone, 'register', input.code);
  return openWithPassword(ctx, { userName: phone, email: null, phone }, input, Code.EMAIL_EXISTS, client);
}

/** An invite code named at registration is checked before anything is consumed or created. */
async function checkInvite(ctx: IdentityContext, inviteCode: string | undefined): Promise<void> {
  if (inviteCode !== undefined) await ctx.hooks.registration?.check(inviteCode);
}

/** The account of a registration, with its password, linked to its inviter, and its first session. */
async function openWithPassword(
  ctx: IdentityContext,
  user: { userName: string; email: string | null; phone?: string },
  input: { password: string; inviteCode?: string | undefined },
  takenCode: CodeValue,
  client: Client,
): Promise<LoginResult> {
  const passwordHash = await argonHash(input.password, ARGON2);
  let userId: number;
  try {
    userId = await openAccount(ctx, { ...user, passwordHash }, client);
  } catch (error) {
    // Two registrations raced for one name: the unique index decides.
    if ((error as { code?: string }).code === '23505') throw new ApiError(takenCode);
    throw error;
  }
  const hook = ctx.hooks.registration;
  if (hook && input.inviteCode !== undefined)
    await hook.registered(userId, input.inviteCode, {
      deviceOwner: readDeviceToken(ctx.deviceKeys, client.device)?.userId ?? null,
    });
  return startSession(ctx, { id: userId, userName: user.userName }, client);
}

/**
 * A new customer, for registration and social sign-in alike: the user row, then the books in
 * both ledgers and the welcome notice. A taken name or email throws the database's 23505.
 */
export async function openAccount(
  ctx: IdentityContext,
  user: { userName: string; email: string | null; phone?: string | null; passwordHash: string },
  client: Client,
): Promise<number> {
  const userId = await insertUser(ctx.db, { ...user, language: client.language });
  await ctx.ledger.openCustomerBooks(userId);
  await ctx.notices?.notify(userId, client.language, 'welcome', { name: user.userName });
  return userId;
}

export function registeredUsers(ctx: IdentityContext): Promise<number> {
  return countUsers(ctx.db);
}
