import { hash as argonHash } from '@node-rs/argon2';
import { Code, type StaffInfo, type StaffListItem, type StaffRef, type StaffRole } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { type ResealReport, resealAll } from '../identity/identity.totp.ts';
import {
  clearStaffTotp,
  endStaffSessions,
  findStaffByEmail,
  findStaffById,
  insertStaff,
  listStaff,
  lockActiveAdmins,
  resealStaffTotp,
  sealedStaffSecrets,
  staffEmailsOf,
  updateStaffAccount,
} from './staff.repository.ts';
import {
  ARGON2,
  actorOf,
  listItemOf,
  newOneTimePassword,
  ONE_TIME_PASSWORD_TTL_SECONDS,
  type StaffContext,
  type StaffSession,
  staffIdOfActor,
} from './staff.shared.ts';

/* Staff accounts: created with a one-time password, listed, changed by an admin, named by email. */

/** After a key rotation: every staff secret under the previous master sealed under the current one. */
export async function resealSecrets(ctx: StaffContext): Promise<ResealReport> {
  const rows = (await sealedStaffSecrets(ctx.db)).map((r) => ({ owner: r.staffId, secretEnc: r.secretEnc }));
  return resealAll(ctx.totpKeys, 'staff-totp', rows, (staffId, was, sealed) =>
    resealStaffTotp(ctx.db, staffId, was, sealed),
  );
}

/**
 * Creates a staff account with a one-time password (shown once, valid 72 hours). `by` is the
 * admin who made it, or null for the operator command.
 */
export async function create(
  ctx: StaffContext,
  input: { email: string; role: StaffRole },
  by: StaffSession | null,
): Promise<{ staff: StaffInfo; oneTimePassword: string }> {
  const email = input.email.trim().toLowerCase();
  const oneTimePassword = newOneTimePassword();
  const passwordHash = await argonHash(oneTimePassword, ARGON2);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const staffId = await insertStaff(tx, {
        email,
        role: input.role,
        passwordHash,
        ttlSeconds: ONE_TIME_PASSWORD_TTL_SECONDS,
        createdBy: by?.staffId ?? null,
      });
      await ctx.audit.appendInTx(tx, [
        {
          actor: by ? actorOf(by) : 'operator',
          action: 'staff.created',
          subject: `staff:${staffId}`,
          data: { email, role: input.role },
        },
      ]);
      return staffId;
    });
    return { staff: { id, email, role: input.role }, oneTimePassword };
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new ApiError(Code.EMAIL_EXISTS);
    throw error;
  }
}

export async function list(ctx: StaffContext, by: StaffSession): Promise<StaffListItem[]> {
  await record(ctx, by, 'staff.listed', 'staff', {});
  const rows = await listStaff(ctx.db);
  return rows.map(listItemOf);
}

/** The active staff of some roles: who an alert for those roles is mailed to. */
export async function activeOfRoles(
  ctx: StaffContext,
  roles: readonly StaffRole[],
): Promise<{ id: number; email: string; role: StaffRole }[]> {
  const rows = await listStaff(ctx.db);
  return rows
    .filter((r) => r.status === 'active' && roles.includes(r.role))
    .map((r) => ({ id: r.id, email: r.email, role: r.role }));
}

/**
 * An admin changes a staff member's role or disables / enables the account, audited in the
 * same transaction. Disabling ends the account's sessions. Refused (10008): disabling yourself,
 * and any change that would leave no active, enrolled admin; unknown id 10028.
 */
export async function update(
  ctx: StaffContext,
  by: StaffSession,
  id: number,
  change: { role?: StaffRole | undefined; status?: 'active' | 'disabled' | undefined },
): Promise<StaffListItem> {
  if (id === by.staffId && change.status === 'disabled') throw new ApiError(Code.WRONG_USER_STATUS);
  return ctx.db.transaction(async (tx) => {
    // Admins first, in id order, then the account: every change takes the locks in one order.
    const admins = await lockActiveAdmins(tx);
    const before = await findStaffById(tx, id, true);
    if (!before) throw new ApiError(Code.NOT_FOUND);
    const role = change.role ?? before.role;
    const status = change.status ?? before.status;
    const wasAdmin = admins.includes(id);
    const staysAdmin = role === 'admin' && status === 'active';
    if (wasAdmin && !staysAdmin && admins.filter((a) => a !== id).length === 0)
      throw new ApiError(Code.WRONG_USER_STATUS);
    const after = await updateStaffAccount(tx, id, { role, status });
    if (!after) throw new ApiError(Code.NOT_FOUND);
    const events = [];
    if (role !== before.role)
      events.push({
        actor: actorOf(by),
        action: 'staff.role_changed',
        subject: `staff:${id}`,
        data: { from: before.role, to: role },
      });
    if (status !== before.status) {
      if (status === 'disabled') await endStaffSessions(tx, id);
      events.push({
        actor: actorOf(by),
        action: status === 'disabled' ? 'staff.disabled' : 'staff.enabled',
        subject: `staff:${id}`,
        data: {},
      });
    }
    await ctx.audit.appendInTx(tx, events);
    return listItemOf(after);
  });
}

/**
 * Resets a staff member's two-step verification: the authenticator is forgotten, their sessions
 * end, and their next sign-in (with their password) enrols a new one. Not for yourself (10008).
 */
export async function resetTotp(ctx: StaffContext, by: StaffSession, id: number): Promise<StaffListItem> {
  if (id === by.staffId) throw new ApiError(Code.WRONG_USER_STATUS);
  return ctx.db.transaction(async (tx) => {
    const after = await clearStaffTotp(tx, id);
    if (!after) throw new ApiError(Code.NOT_FOUND);
    await endStaffSessions(tx, id);
    await ctx.audit.appendInTx(tx, [
      { actor: actorOf(by), action: 'staff.totp_reset', subject: `staff:${id}`, data: {} },
    ]);
    return listItemOf(after);
  });
}

/** Staff members by id, as others see them (email); unknown ids are left out. */
export async function refsOf(ctx: StaffContext, ids: number[]): Promise<Map<number, StaffRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const emails = await staffEmailsOf(ctx.db, unique);
  return new Map([...emails].map(([id, email]) => [id, { id, email }]));
}

/** A staff member's id by email, or null. */
export async function findIdByEmail(ctx: StaffContext, email: string): Promise<number | null> {
  return (await findStaffByEmail(ctx.db, email))?.id ?? null;
}

/** The staff member behind an actor text `staff:<id>`, or null. */
export async function refOfActor(ctx: StaffContext, actor: string | null): Promise<StaffRef | null> {
  const id = staffIdOfActor(actor);
  return id === null ? null : ((await refsOf(ctx, [id])).get(id) ?? null);
}

/** Appends one staff action to the audit log, in `tx` when given. */
export async function record(
  ctx: StaffContext,
  session: StaffSession,
  action: string,
  subject: string,
  data: unknown,
  tx?: Queryable,
): Promise<void> {
  const event = { actor: actorOf(session), action, subject, data };
  if (tx) await ctx.audit.appendInTx(tx, [event]);
  else await ctx.audit.append([event]);
}
