import { createHash, randomInt } from 'node:crypto';
import type { StaffListItem, StaffRole } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffRow } from './staff.repository.ts';

/*
 * What the staff use cases share (accounts, sign-in and sessions): the rules' figures, the
 * context `StaffService` builds once, and the steps more than one of them takes.
 */

/** argon2id with OWASP's minimum, as for customers. */
export const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** A staff session ends after 30 idle minutes, and 12 hours after sign-in whatever happens. */
export const STAFF_SESSION_IDLE_SECONDS = 30 * 60;
export const STAFF_SESSION_MAX_SECONDS = 12 * 3600;
/** A one-time password is good for 72 hours, then an admin makes a new account. */
export const ONE_TIME_PASSWORD_TTL_SECONDS = 72 * 3600;
export const STAFF_CHALLENGE_TTL_SECONDS = 300;
export const STAFF_CHALLENGE_MAX_ATTEMPTS = 5;

/** Staff limits, counted apart from customers' (their own keys). */
export const STAFF_LIMITS = {
  signInPerAccount: { limit: 5, windowMs: 15 * 60_000 },
  signInPerAddress: { limit: 20, windowMs: 15 * 60_000 },
  codePerAccount: { limit: 10, windowMs: 15 * 60_000 },
} as const;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The staff member behind a request's token. */
export type StaffSession = { staffId: number; email: string; role: StaffRole; sessionId: string };
export type StaffClient = { ip: string; userAgent: string };

/** The parts every staff use case works with; `StaffService` builds it once. */
export type StaffContext = {
  readonly db: Database;
  readonly audit: AuditService;
  readonly limiter: RateLimiter;
  /** The staff secrets' own keys (platform/keys.ts): a customer's sealed secret never opens here. */
  readonly totpKeys: PurposeKeys;
  readonly now: () => number;
  /** A hash to verify against for an unknown email (made once), so it takes as long as a known one. */
  dummyHash: Promise<string> | null;
};

/** 20 characters of a 32-letter alphabet without look-alikes (100 bits), in groups of 4. */
export function newOneTimePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let text = '';
  for (let i = 0; i < 20; i++) text += alphabet[randomInt(0, alphabet.length)];
  return text.replace(/(.{4})(?=.)/g, '$1-');
}

export const actorOf = (session: { staffId: number }) => `staff:${session.staffId}`;

/** The staff id of an actor text `staff:<id>`, else null. */
export function staffIdOfActor(actor: string | null): number | null {
  const match = actor ? /^staff:(\d{1,15})$/.exec(actor) : null;
  return match ? Number(match[1]) : null;
}

export const listItemOf = (r: StaffRow): StaffListItem => ({
  id: r.id,
  email: r.email,
  role: r.role,
  status: r.status,
  enrolled: r.enrolled,
  createdAt: r.createdAt,
});
