import { hash as argonHash } from '@node-rs/argon2';
import { Code } from '@swx/contract';
import { ApiError, type CustomerSession } from '../../platform/http.ts';
import { alertSecurity } from './identity.alerts.ts';
import { consumeCode } from './identity.codes.ts';
import { findUserByLogin, findUserByPhone, replacePassword, type UserRow } from './identity.repository.ts';
import { sessionCacheOf } from './identity.session-cache.ts';
import {
  ARGON2,
  type Client,
  checkPassword,
  currentUser,
  type IdentityContext,
  phoneOf,
  requireSamePasswords,
} from './identity.shared.ts';

/* Passwords: recovery with a code (signed out), and change with the current one (signed in). */

/**
 * Password recovery: a code mailed for "reset" sets a new password and ends every session of
 * the account. An unknown address is refused the same way as a wrong code (10091), so the
 * answer does not tell who has an account.
 */
export async function resetPassword(
  ctx: IdentityContext,
  input: {
    email?: string | undefined;
    areaCode?: string | undefined;
    phone?: string | undefined;
    code: string;
    password: string;
    password2: string;
  },
  client: Client,
): Promise<null> {
  requireSamePasswords(input);
  let holder: UserRow | null;
  if (input.areaCode !== undefined && input.phone !== undefined) {
    // Recovery of an account by its phone, with a code sent by SMS for "reset".
    const phone = phoneOf(input.areaCode, input.phone);
    await consumeCode(ctx, 'sms', phone, 'reset', input.code);
    holder = await findUserByPhone(ctx.db, phone);
  } else {
    const email = (input.email ?? '').trim().toLowerCase();
    await consumeCode(ctx, 'email', email, 'reset', input.code);
    const user = await findUserByLogin(ctx.db, email);
    holder = user?.email === email ? user : null;
  }
  if (!holder) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
  const passwordHash = await argonHash(input.password, ARGON2);
  await ctx.db.transaction((tx) => replacePassword(tx, holder.id, passwordHash));
  await sessionCacheOf(ctx.db).ended(holder.id);
  await alertSecurity(ctx, holder, 'passwordReset', client);
  return null;
}

/**
 * Change password (repassword): the current password and the new one twice. Every other session
 * of the user ends; this one stays. A wrong current password answers 10004, rate limited like
 * login.
 */
export async function changePassword(
  ctx: IdentityContext,
  session: CustomerSession,
  input: { oldPassword: string; password: string; password2: string },
  client: Client,
): Promise<null> {
  requireSamePasswords(input);
  const user = await currentUser(ctx, session);
  await checkPassword(ctx, user, input.oldPassword, client);
  const passwordHash = await argonHash(input.password, ARGON2);
  await ctx.db.transaction((tx) => replacePassword(tx, user.id, passwordHash, session.sessionId));
  await sessionCacheOf(ctx.db).ended(user.id);
  await alertSecurity(ctx, user, 'passwordChanged', client);
  return null;
}
