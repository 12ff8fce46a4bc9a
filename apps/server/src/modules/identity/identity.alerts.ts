import { randomBytes } from 'node:crypto';
import { Code, isLanguage, type Language } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { NoticeKind } from '../notices/notices.service.ts';
import { setCustomerStatus } from './identity.customers.repository.ts';
import { maskIp, readDeviceToken, summariseUserAgent } from './identity.devices.ts';
import { type SecurityEvent, securityMail } from './identity.mail.ts';
import { findUserById, insertLockToken, type UserRow, useLockToken } from './identity.repository.ts';
import { sessionCacheOf } from './identity.session-cache.ts';
import { type Client, type IdentityContext, sha256 } from './identity.shared.ts';

/*
 * Security alerts that reach the customer: a change to what guards the account (password,
 * two-step verification, a withdrawal address) or a sign-in from a device the account has not
 * signed in on sends a mail and a notice naming what happened, when (UTC) and from where (browser,
 * system, masked address), with a one-click lock link. The link carries a single-use token (only
 * its SHA-256 is kept, a week long); using it locks the account: every session ends and sign-in is
 * refused until customer service unlocks it (the back office's unlock).
 */

export const LOCK_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
/** Where the lock link opens: the customer app's lock page, the token in the fragment (never sent to a server log). */
export const LOCK_PAGE_PATH = '/pass/lock';

const NOTICE_KIND: Record<SecurityEvent, NoticeKind> = {
  passwordChanged: 'security_password_changed',
  passwordReset: 'security_password_reset',
  totpEnabled: 'security_totp_enabled',
  totpDisabled: 'security_totp_disabled',
  newDevice: 'security_new_device',
  addressAdded: 'security_address_added',
};

/** Facts of an event beyond who, when and where: the withdrawal address added. */
export type SecurityDetails = { network?: string; address?: string };

/**
 * Tells the customer of a security event: a lock link (its token stored hashed), then the mail (to
 * the account's email; an account opened by phone has the notice only) and the notice. A mail that
 * cannot go is kept by the mailer, not lost, and does not undo the change it reports.
 */
export async function alertSecurity(
  ctx: IdentityContext,
  user: UserRow,
  event: SecurityEvent,
  client: Client,
  details: SecurityDetails = {},
): Promise<void> {
  const token = randomBytes(32).toString('hex');
  await insertLockToken(ctx.db, {
    tokenHash: sha256(token),
    userId: user.id,
    event,
    ttlSeconds: LOCK_TOKEN_TTL_SECONDS,
  });
  const agent = summariseUserAgent(client.userAgent);
  const time = new Date(ctx.now());
  const facts = {
    time: time.toISOString().slice(0, 16).replace('T', ' '),
    device: [agent.browser, agent.os].filter(Boolean).join(', '),
    ip: maskIp(client.ip),
    network: details.network ?? '',
    address: details.address ?? '',
  };
  const base = (ctx.publicUrl ?? client.origin ?? '').replace(/\/+$/, '');
  const link = `${base}${LOCK_PAGE_PATH}#${token}`;
  if (user.email) {
    const mail = securityMail(client.language, event, { ...facts, time, link });
    await ctx.mailer.send({ to: user.email, ...mail }).catch(() => undefined);
  }
  if (ctx.notices) {
    const language: Language = isLanguage(user.language) ? user.language : client.language;
    await ctx.notices.notify(user.id, language, NOTICE_KIND[event], {
      ...facts,
      device: facts.device || 'unknown',
      ip: facts.ip || 'unknown',
    });
  }
}

/** A sign-in on a device that holds no device token of this account (a new browser, or cookies cleared). */
export async function alertIfNewDevice(ctx: IdentityContext, user: UserRow, client: Client): Promise<void> {
  if (readDeviceToken(ctx.deviceKeys, client.device)?.userId === user.id) return;
  await alertSecurity(ctx, user, 'newDevice', client);
}

/**
 * The lock link: locks the account of a valid token (once; unknown, used or expired: 10028), ends
 * every session and pending sign-in, and records it in the audit log with the customer as actor.
 * Locking an account that is locked already uses the token and answers the same.
 */
export async function lockAccount(ctx: IdentityContext, token: string): Promise<null> {
  const used = await ctx.db.transaction(async (tx) => {
    const found = await useLockToken(tx, sha256(token));
    if (!found) return null;
    const changed = await setCustomerStatus(tx, found.userId, 'locked');
    if (changed)
      await ctx.audit?.appendInTx(tx, [
        {
          actor: `customer:${found.userId}`,
          action: 'customer.self_locked',
          subject: `user:${found.userId}`,
          data: { event: found.event },
        },
      ]);
    return found;
  });
  if (!used) throw new ApiError(Code.NOT_FOUND);
  await sessionCacheOf(ctx.db).ended(used.userId);
  return null;
}

/** The account a security alert is about, by id (a module outside identity names only the id). */
export async function alertSecurityOf(
  ctx: IdentityContext,
  userId: number,
  event: SecurityEvent,
  client: Client,
  details: SecurityDetails = {},
): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (user) await alertSecurity(ctx, user, event, client, details);
}
