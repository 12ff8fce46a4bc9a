import { randomBytes, randomInt } from 'node:crypto';
import { hash as argonHash } from '@node-rs/argon2';
import { Code } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { limit } from '../../platform/ratelimit.ts';
import { openAccount } from './identity.registration.ts';
import { findUserById, userNameOrEmailTaken } from './identity.repository.ts';
import { completeLogin } from './identity.sessions.ts';
import {
  ARGON2,
  type Client,
  type IdentityContext,
  LIMITS,
  type LoginChallenge,
  type LoginResult,
} from './identity.shared.ts';
import { findLinkedUser, findUserIdByEmail, linkIdentity } from './identity.social.repository.ts';
import { type SocialIdentity, socialUserName } from './identity.social.ts';

/*
 * Social sign-in: what to do with the identity a provider vouched for (link it, or open an
 * account), then a login like a password's. The OpenID Connect flow itself is identity.social.ts.
 */

/** The social sign-in providers this server offers: the configured ones only. */
export function socialProviders(ctx: IdentityContext): { provider: string; label: string }[] {
  return ctx.social.list();
}

/**
 * Starts a social sign-in: the provider's authorization URL, and the random binding the route
 * puts in an HttpOnly cookie. The provider sends the browser back to /api/loginCallback/{name}
 * under PUBLIC_URL, or without it under the origin the request came to (`origin`).
 */
export async function startSocialLogin(
  ctx: IdentityContext,
  provider: string,
  origin: string,
  client: Client,
): Promise<{ authorizationUrl: string; binding: string }> {
  await limit(ctx, `social:addr:${client.ip}`, LIMITS.socialStartPerAddress);
  const name = ctx.social.provider(provider).name;
  const base = (ctx.publicUrl ?? origin).replace(/\/+$/, '');
  return ctx.social.start(name, `${base}/api/loginCallback/${name}`);
}

/**
 * Finishes a social sign-in, then logs in like a password would (2FA included). The provider
 * identity (issuer + subject) already linked: its customer. Else the account with the email the
 * provider says it verified: linked to it. An account has that email but the provider did not
 * verify it: refused with 10007, never linked, and no second account with the same address.
 * Else a new account, linked.
 */
export async function finishSocialLogin(
  ctx: IdentityContext,
  provider: string,
  input: { code: string; state: string; iss?: string | undefined },
  binding: string | null,
  client: Client,
): Promise<LoginResult | LoginChallenge> {
  await limit(ctx, `login:addr:${client.ip}`, LIMITS.loginPerAddress);
  const identity = await ctx.social.finish(provider, input, binding);
  let userId = await findLinkedUser(ctx.db, identity.issuer, identity.subject);
  let opened = false;
  if (userId === null) {
    const holder = identity.email ? await findUserIdByEmail(ctx.db, identity.email) : null;
    if (holder !== null && !identity.emailVerified) throw new ApiError(Code.EMAIL_EXISTS);
    opened = holder === null;
    userId = await linkIdentity(ctx.db, {
      issuer: identity.issuer,
      subject: identity.subject,
      userId: holder ?? (await openSocialAccount(ctx, identity, client)),
      provider: identity.provider,
      email: identity.email,
      emailVerified: identity.emailVerified,
    });
  }
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new ApiError(Code.NOT_FOUND);
  // An account opened by this very sign-in has no device to be new to: no alert.
  return completeLogin(ctx, user, client, { newAccount: opened });
}

/**
 * A new account for a provider identity, opened like a registration. Its username comes from
 * the email or name (made unique); its email only when the provider verified it, so an
 * unverified address never blocks its owner. Its password is random and never shown: it signs
 * in through the provider, or sets a password by recovery through a verified email.
 */
async function openSocialAccount(
  ctx: IdentityContext,
  identity: SocialIdentity,
  client: Client,
): Promise<number> {
  const passwordHash = await argonHash(randomBytes(32).toString('base64url'), ARGON2);
  const email = identity.emailVerified ? identity.email : null;
  const base = socialUserName(identity);
  for (let attempt = 0; attempt < 8; attempt++) {
    const userName = attempt === 0 ? base : `${base}_${randomInt(1000, 100_000)}`;
    if ((await userNameOrEmailTaken(ctx.db, userName, null)).userName) continue;
    try {
      return await openAccount(ctx, { userName, email, passwordHash }, client);
    } catch (error) {
      // Someone took the name meanwhile: the unique index decides, and another name is tried.
      if ((error as { code?: string }).code !== '23505') throw error;
    }
  }
  throw new ApiError(Code.USERNAME_EXISTS);
}
