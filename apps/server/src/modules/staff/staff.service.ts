import type { StaffInfo, StaffListItem, StaffRef, StaffRole, StaffSignInStep } from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import type { KeyRing } from '../../platform/keys.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ResealReport } from '../identity/identity.totp.ts';
import {
  activeOfRoles,
  create,
  findIdByEmail,
  list,
  record,
  refOfActor,
  refsOf,
  resealSecrets,
  resetTotp,
  update,
} from './staff.accounts.ts';
import type { StaffClient, StaffContext, StaffSession } from './staff.shared.ts';
import { enrol, resolveSession, signIn, signOut, verifyCode } from './staff.signin.ts';

export {
  actorOf,
  ONE_TIME_PASSWORD_TTL_SECONDS,
  STAFF_CHALLENGE_MAX_ATTEMPTS,
  STAFF_CHALLENGE_TTL_SECONDS,
  STAFF_LIMITS,
  STAFF_SESSION_IDLE_SECONDS,
  STAFF_SESSION_MAX_SECONDS,
  type StaffClient,
  type StaffSession,
  staffIdOfActor,
} from './staff.shared.ts';

/**
 * Staff accounts of the back office: created by an operator command or an admin with a one-time
 * password; every account enrols an authenticator (TOTP) at its first sign-in and signs in with
 * password and code after that. Sessions are opaque random tokens stored as SHA-256, in their own
 * table, so a customer token is no staff token and the other way round. Every action is audited
 * with the actor `staff:<id>`.
 *
 * A thin front over its use cases: accounts (`staff.accounts.ts`) and sign-in and sessions
 * (`staff.signin.ts`); what they share is in `staff.shared.ts`.
 */
export class StaffService {
  private readonly ctx: StaffContext;

  constructor(deps: {
    db: Database;
    audit: AuditService;
    rateLimiter: RateLimiter;
    keys: KeyRing;
    now?: () => number;
  }) {
    this.ctx = {
      db: deps.db,
      audit: deps.audit,
      limiter: deps.rateLimiter,
      totpKeys: deps.keys.purpose('staff-totp-seal'),
      now: deps.now ?? Date.now,
      dummyHash: null,
    };
  }

  /** After a key rotation: every staff secret under the previous master sealed under the current one. */
  resealSecrets(): Promise<ResealReport> {
    return resealSecrets(this.ctx);
  }

  /** Creates a staff account with a one-time password (shown once, valid 72 hours); `by` null for the operator command. */
  create(
    input: { email: string; role: StaffRole },
    by: StaffSession | null,
  ): Promise<{ staff: StaffInfo; oneTimePassword: string }> {
    return create(this.ctx, input, by);
  }

  list(by: StaffSession): Promise<StaffListItem[]> {
    return list(this.ctx, by);
  }

  /** The active staff of some roles: who an alert for those roles is mailed to. */
  activeOfRoles(roles: readonly StaffRole[]): Promise<{ id: number; email: string; role: StaffRole }[]> {
    return activeOfRoles(this.ctx, roles);
  }

  /** An admin changes a role or disables / enables an account (10008: yourself, or no admin left). */
  update(
    by: StaffSession,
    id: number,
    change: { role?: StaffRole | undefined; status?: 'active' | 'disabled' | undefined },
  ): Promise<StaffListItem> {
    return update(this.ctx, by, id, change);
  }

  /** Resets a staff member's two-step verification; their sessions end. Not for yourself (10008). */
  resetTotp(by: StaffSession, id: number): Promise<StaffListItem> {
    return resetTotp(this.ctx, by, id);
  }

  /** Staff members by id, as others see them (email); unknown ids are left out. */
  refsOf(ids: number[]): Promise<Map<number, StaffRef>> {
    return refsOf(this.ctx, ids);
  }

  /** A staff member's id by email, or null. */
  findIdByEmail(email: string): Promise<number | null> {
    return findIdByEmail(this.ctx, email);
  }

  /** The staff member behind an actor text `staff:<id>`, or null. */
  refOfActor(actor: string | null): Promise<StaffRef | null> {
    return refOfActor(this.ctx, actor);
  }

  /** First step: email and password. Unknown email and wrong password answer the same 10004. */
  signIn(input: { email: string; password: string }, client: StaffClient): Promise<StaffSignInStep> {
    return signIn(this.ctx, input, client);
  }

  /** First sign-in: a code from the new authenticator confirms it (and sets the password). */
  enrol(
    input: { challenge: string; code: string; newPassword?: string | undefined },
    client: StaffClient,
  ): Promise<{ token: string; staff: StaffInfo }> {
    return enrol(this.ctx, input, client);
  }

  /** Second step of every later sign-in: the authenticator code. */
  verifyCode(
    input: { challenge: string; code: string },
    client: StaffClient,
  ): Promise<{ token: string; staff: StaffInfo }> {
    return verifyCode(this.ctx, input, client);
  }

  /** A token to its staff session, or null (customer tokens are not in this table). */
  readonly resolveSession = (token: string): Promise<StaffSession | null> => resolveSession(this.ctx, token);

  signOut(session: StaffSession): Promise<void> {
    return signOut(this.ctx, session);
  }

  /** Appends one staff action to the audit log, in `tx` when given. */
  record(
    session: StaffSession,
    action: string,
    subject: string,
    data: unknown,
    tx?: Queryable,
  ): Promise<void> {
    return record(this.ctx, session, action, subject, data, tx);
  }
}
