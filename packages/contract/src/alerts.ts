import { z } from 'zod/mini';
import { wireId } from './ids.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';

/**
 * Staff alerts: what needs a person (a reserve that cannot pay an earn settlement, a reconciliation
 * difference, a failed job, a deposit that left the chain and could not be reversed). Each is
 * raised by the system, mailed to the roles that act on it (finance for money, admin for jobs)
 * and listed on the back office's alerts screen, where staff acknowledge it (someone is on it) and
 * resolve it (done, with a note); both audited.
 */
export const STAFF_ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type StaffAlertState = (typeof STAFF_ALERT_STATES)[number];

const staffRefOrNull = z.nullable(z.object({ id: z.int(), email: z.string() }));

export const staffAlert = z.object({
  id: z.int(),
  /** What raised it: `settlement`, `earn.reserve`, `reconciliation`, `job.failed`, `wallet.deposit.reversal_failed`. */
  kind: z.string(),
  /** The system's account of it (English, with the figures). */
  message: z.string(),
  /** Its facts as canonical JSON. */
  data: z.string(),
  state: z.enum(STAFF_ALERT_STATES),
  createdAt: z.string(),
  /** The roles its mail went to, and when (null: not mailed yet). */
  mailedTo: z.array(z.string()),
  mailedAt: z.nullable(z.string()),
  acknowledgedAt: z.nullable(z.string()),
  acknowledgedBy: staffRefOrNull,
  resolvedAt: z.nullable(z.string()),
  resolvedBy: staffRefOrNull,
});
export type StaffAlert = z.infer<typeof staffAlert>;

const ALERT_STAFF = STAFF_DUTIES.staffAlerts.roles;

export const alertAdminCalls = {
  listStaffAlerts: {
    method: 'GET',
    path: '/alerts',
    summary:
      'Staff alerts, newest first, 50 a page, by state (open by default; before: the last id of the page before)',
    roles: ALERT_STAFF,
    query: z.object({
      state: z.optional(z.enum(STAFF_ALERT_STATES)),
      before: z.optional(z.string().check(z.regex(/^[1-9][0-9]{0,15}$/))),
    }),
    data: z.array(staffAlert),
  },
  acknowledgeStaffAlert: {
    method: 'POST',
    path: '/alerts/:id/acknowledge',
    summary: 'Acknowledge an open alert: someone is on it (audited); not open: 10008',
    roles: ALERT_STAFF,
    params: z.object({ id: wireId() }),
    data: staffAlert,
  },
  resolveStaffAlert: {
    method: 'POST',
    path: '/alerts/:id/resolve',
    summary:
      'Resolve an open or acknowledged alert with a note of what was done (audited); resolved already: 10008',
    roles: ALERT_STAFF,
    params: z.object({ id: wireId() }),
    body: z.object({ note: z.string().check(z.trim(), z.minLength(3), z.maxLength(500)) }),
    data: staffAlert,
  },
} as const satisfies Record<string, AdminCallDefinition>;
