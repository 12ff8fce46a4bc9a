import { z } from 'zod/mini';
import { alertAdminCalls } from './alerts.ts';
import { earnAdminCalls } from './earn.ts';
import { fourEyesAdminCalls } from './fourEyes.ts';
import { helpAdminCalls } from './help.ts';
import { sessionItem } from './identity.ts';
import { wireId } from './ids.ts';
import { inviteAdminCalls } from './invites.ts';
import { kycDetails } from './kyc.ts';
import { bookSchema } from './ledger.ts';
import { loanAdminCalls } from './loans.ts';
import { nftAdminCalls } from './nft.ts';
import { operatorAdminCalls } from './operator.ts';
import { reviewCalls } from './review.ts';
import { STAFF_DUTIES } from './roles.ts';
import { smartAdminCalls } from './smart.ts';
import { type AdminCallDefinition, STAFF_ROLES } from './staffBase.ts';
import { supportAdminCalls } from './support.ts';
import { swapAdminCalls } from './swap.ts';
import { walletAdminCalls } from './wallet.ts';

/**
 * The staff API of the back office, under `/swx/admin` (never the customer base). Staff accounts,
 * sessions and tokens are separate from customers': a customer token is refused here and a staff
 * token is refused on customer calls. Each call names the roles that may make it. The base path,
 * the role names and the shape of a call are in staffBase.ts, which the domain files build on;
 * this file gathers every staff call, its own and the domains'.
 */

/** One staff call of this file, its literal types kept. */
function adminCall<const D extends AdminCallDefinition>(definition: D): D {
  return definition;
}

const ALL = STAFF_DUTIES.session.roles;
/** Who may see customers' data. */
const VIEWERS = STAFF_DUTIES.viewCustomers.roles;
/** Who may lock and unlock a customer. */
const LOCKERS = STAFF_DUTIES.lockCustomers.roles;
/** Who may read KYC submissions and their photos. */
const KYC_READERS = STAFF_DUTIES.readKyc.roles;
/** Only compliance decides a KYC review. */
const KYC_REVIEWERS = STAFF_DUTIES.decideKyc.roles;

export const staffEmail = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(254), z.regex(/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24}$/));
/** A staff password the owner chooses: at least 12 characters. */
export const staffPassword = z.string().check(z.minLength(12), z.maxLength(128));
const challenge = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));
const code = z.string().check(z.trim(), z.regex(/^\d{6}$/));
const reason = z.string().check(z.trim(), z.minLength(3), z.maxLength(500));
const idParams = z.object({ id: wireId() });

export const staffInfo = z.object({ id: z.int(), email: z.string(), role: z.enum(STAFF_ROLES) });
export type StaffInfo = z.infer<typeof staffInfo>;
export const staffSession = z.object({ token: z.string(), staff: staffInfo });

/** The password was right; a code comes next, or (first sign-in) the enrolment of an authenticator. */
export const staffSignInStep = z.union([
  z.object({ step: z.literal('totp'), challenge: z.string() }),
  z.object({
    step: z.literal('enrol'),
    challenge: z.string(),
    /** The new authenticator secret (base32) and its otpauth URI. */
    secret: z.string(),
    uri: z.string(),
    /** The password was a one-time password: a new one must be chosen with the enrolment. */
    newPasswordRequired: z.boolean(),
  }),
]);
export type StaffSignInStep = z.infer<typeof staffSignInStep>;

export const customerSummary = z.object({
  id: z.int(),
  userName: z.string(),
  email: z.nullable(z.string()),
  status: z.enum(['active', 'locked']),
  createdAt: z.string(),
  kycState: z.enum(['none', 'pending', 'verified', 'failed']),
});
export type CustomerSummary = z.infer<typeof customerSummary>;

export const customerDetail = z.object({
  id: z.int(),
  userName: z.string(),
  email: z.nullable(z.string()),
  status: z.enum(['active', 'locked']),
  language: z.string(),
  createdAt: z.string(),
  liveSessions: z.int(),
  kycState: z.enum(['none', 'pending', 'verified', 'failed']),
  creditScore: z.int(),
  history: z.array(
    z.object({
      action: z.enum(['lock', 'unlock']),
      reason: z.string(),
      staffEmail: z.string(),
      at: z.string(),
    }),
  ),
});
export type CustomerDetail = z.infer<typeof customerDetail>;

export const kycQueueItem = z.object({
  id: z.int(),
  userId: z.int(),
  userName: z.string(),
  name: z.string(),
  documentType: z.string(),
  submittedAt: z.string(),
  dueAt: z.string(),
  overdue: z.boolean(),
});
export type KycQueueItem = z.infer<typeof kycQueueItem>;

export const kycReview = z.object({
  id: z.int(),
  userId: z.int(),
  userName: z.string(),
  status: z.enum(['pending', 'verified', 'failed']),
  submittedAt: z.string(),
  dueAt: z.string(),
  reviewedAt: z.nullable(z.string()),
  reviewedBy: z.nullable(z.string()),
  /** The reviewer by email (the staff API fills it; reviewedBy is the audit actor). */
  reviewer: z.optional(z.nullable(z.object({ id: z.int(), email: z.string() }))),
  reason: z.nullable(z.string()),
  details: kycDetails,
});
export type KycReview = z.infer<typeof kycReview>;

/** The KYC review queue: admin and compliance read it, compliance decides (modules/review). */
export const kycReviewCalls = reviewCalls({
  path: '/kyc',
  noun: 'verification',
  listItem: kycQueueItem,
  item: kycReview,
  readers: KYC_READERS,
  deciders: KYC_REVIEWERS,
});

export const staffListItem = z.object({
  id: z.int(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  status: z.enum(['active', 'disabled']),
  enrolled: z.boolean(),
  createdAt: z.string(),
});

export type StaffListItem = z.infer<typeof staffListItem>;

/** A staff member's change by an admin: a new role, or disabled / enabled again. */
export const updateStaffBody = z.object({
  role: z.optional(z.enum(STAFF_ROLES)),
  status: z.optional(z.enum(['active', 'disabled'])),
});

/** A keyset cursor: the last id (or audit seq) of the page before; digits only. */
const cursor = z.optional(z.string().check(z.regex(/^\d{1,15}$/)));
const isoDay = z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)));

/** One balance of a customer in one book: decimal strings at the asset's scale. */
export const staffBalance = z.object({
  book: bookSchema,
  asset: z.string(),
  balance: z.string(),
  held: z.string(),
  available: z.string(),
});
export const staffPosition = z.object({
  id: z.int(),
  orderNo: z.string(),
  book: bookSchema,
  code: z.string(),
  direction: z.string(),
  lots: z.string(),
  leverage: z.int(),
  openPrice: z.string(),
  closePrice: z.nullable(z.string()),
  margin: z.string(),
  profit: z.string(),
  status: z.enum(['open', 'closed']),
  openTime: z.string(),
  closeTime: z.nullable(z.string()),
});
export const staffTransaction = z.object({
  entryId: z.int(),
  book: bookSchema,
  kind: z.string(),
  asset: z.string(),
  amount: z.string(),
  accountKind: z.string(),
  reference: z.nullable(z.string()),
  createdAt: z.string(),
});
/** A customer's session as staff see it: what the customer sees, without "current". */
export const staffCustomerSession = z.omit(sessionItem, { current: true });
/** A staff member as others see them: the id and the email (their name in the back office). */
export const staffRef = z.object({ id: z.int(), email: z.string() });
export type StaffRef = z.infer<typeof staffRef>;

/** Everything about one customer on one page: account, both books, positions, entries, sessions, KYC. */
export const customerOverview = z.object({
  customer: customerDetail,
  balances: z.array(staffBalance),
  positions: z.array(staffPosition),
  transactions: z.array(staffTransaction),
  sessions: z.array(staffCustomerSession),
  kyc: z.nullable(
    z.object({
      id: z.int(),
      status: z.enum(['pending', 'verified', 'failed']),
      submittedAt: z.string(),
      reviewedAt: z.nullable(z.string()),
      reviewer: z.nullable(staffRef),
      reason: z.nullable(z.string()),
    }),
  ),
});
export type CustomerOverview = z.infer<typeof customerOverview>;

export const auditEntry = z.object({
  seq: z.int(),
  at: z.string(),
  actor: z.string(),
  /** The staff member behind a `staff:<id>` actor, by email; null for other actors. */
  actorStaff: z.nullable(staffRef),
  action: z.string(),
  subject: z.string(),
  data: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditQuery = z.object({
  /** `staff:3`, `system`, or a staff member's email. */
  actor: z.optional(z.string().check(z.trim(), z.maxLength(254))),
  /** An action or its beginning (`customer.` finds every customer action). */
  action: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  /** A subject exactly, e.g. `user:12`. */
  subject: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  /** Days (UTC), both included. */
  from: isoDay,
  to: isoDay,
  before: cursor,
});
export const auditChainVerdict = z.object({
  ok: z.boolean(),
  rows: z.int(),
  brokenAt: z.nullable(z.int()),
  /** Why the row at brokenAt breaks the chain: missing, wrong previous hash, content not its hash. */
  reason: z.nullable(z.enum(['missing', 'previous_hash', 'content_hash'])),
  checkedAt: z.string(),
});
export type AuditChainVerdict = z.infer<typeof auditChainVerdict>;

/** Who may read the audit log and run the chain check. */
const AUDITORS = STAFF_DUTIES.auditLog.roles;

export const adminCalls = {
  signIn: adminCall({
    method: 'POST',
    path: '/auth/signIn',
    summary: 'Staff sign-in, first step: email and password; answers the code step or the enrolment',
    roles: 'public',
    body: z.object({ email: staffEmail, password: z.string().check(z.minLength(1), z.maxLength(128)) }),
    data: staffSignInStep,
  }),
  enrol: adminCall({
    method: 'POST',
    path: '/auth/enrol',
    summary: 'First sign-in: confirm the new authenticator with a code (and replace a one-time password)',
    roles: 'public',
    body: z.object({ challenge, code, newPassword: z.optional(staffPassword) }),
    data: staffSession,
  }),
  verifyCode: adminCall({
    method: 'POST',
    path: '/auth/verifyCode',
    summary: 'Staff sign-in, second step: the authenticator code',
    roles: 'public',
    body: z.object({ challenge, code }),
    data: staffSession,
  }),
  signOut: adminCall({
    method: 'POST',
    path: '/auth/signOut',
    summary: 'End this staff session',
    roles: ALL,
    data: z.null(),
  }),
  me: adminCall({
    method: 'GET',
    path: '/auth/me',
    summary: 'The signed-in staff member',
    roles: ALL,
    data: staffInfo,
  }),
  searchCustomers: adminCall({
    method: 'GET',
    path: '/customers',
    summary:
      'Customers by username, email or id, newest first, 50 a page (before: the last id of the page before)',
    roles: VIEWERS,
    query: z.object({ q: z.optional(z.string().check(z.trim(), z.maxLength(254))), before: cursor }),
    data: z.array(customerSummary),
  }),
  getCustomer: adminCall({
    method: 'GET',
    path: '/customers/:id',
    summary: 'One customer: account, sessions, verification, credit score, lock history',
    roles: VIEWERS,
    params: idParams,
    data: customerDetail,
  }),
  lockCustomer: adminCall({
    method: 'POST',
    path: '/customers/:id/lock',
    summary: 'Lock a customer with a reason: sign-in is refused and every session ends',
    roles: LOCKERS,
    params: idParams,
    body: z.object({ reason }),
    data: customerDetail,
  }),
  unlockCustomer: adminCall({
    method: 'POST',
    path: '/customers/:id/unlock',
    summary: 'Unlock a customer with a reason',
    roles: LOCKERS,
    params: idParams,
    body: z.object({ reason }),
    data: customerDetail,
  }),
  kycQueue: kycReviewCalls.list,
  getKyc: kycReviewCalls.get,
  claimKyc: kycReviewCalls.claim,
  releaseKyc: kycReviewCalls.release,
  approveKyc: kycReviewCalls.approve,
  rejectKyc: kycReviewCalls.reject,
  listStaff: adminCall({
    method: 'GET',
    path: '/staff',
    summary: 'Staff accounts',
    roles: STAFF_DUTIES.staffAccounts.roles,
    data: z.array(staffListItem),
  }),
  createStaff: adminCall({
    method: 'POST',
    path: '/staff',
    summary: 'Create a staff account; answers its one-time password, shown once',
    roles: STAFF_DUTIES.staffAccounts.roles,
    body: z.object({ email: staffEmail, role: z.enum(STAFF_ROLES) }),
    data: z.object({ staff: staffInfo, oneTimePassword: z.string() }),
  }),
  updateStaff: adminCall({
    method: 'POST',
    path: '/staff/:id',
    summary:
      'Change a staff role, or disable / enable an account (disabling ends its sessions); never yourself disabled, never the last active admin',
    roles: STAFF_DUTIES.staffAccounts.roles,
    params: idParams,
    body: updateStaffBody,
    data: staffListItem,
  }),
  resetStaffTotp: adminCall({
    method: 'POST',
    path: '/staff/:id/resetTotp',
    summary: "Reset a staff member's two-step verification: sessions end, the next sign-in enrols again",
    roles: STAFF_DUTIES.staffAccounts.roles,
    params: idParams,
    data: staffListItem,
  }),
  customerOverview: adminCall({
    method: 'GET',
    path: '/customers/:id/overview',
    summary:
      'One customer on one page: account, balances in both books, positions, recent entries, sessions, KYC',
    roles: VIEWERS,
    params: idParams,
    data: customerOverview,
  }),
  auditLog: adminCall({
    method: 'GET',
    path: '/audit',
    summary: 'The audit log, newest first, 50 a page, by actor, action, subject and days',
    roles: AUDITORS,
    query: auditQuery,
    data: z.object({ rows: z.array(auditEntry), next: z.nullable(z.string()) }),
  }),
  verifyAudit: adminCall({
    method: 'POST',
    path: '/audit/verify',
    summary: "Walk the audit log's hash chain and report the first broken row, if any",
    roles: AUDITORS,
    data: auditChainVerdict,
  }),
  ...operatorAdminCalls,
  ...walletAdminCalls,
  ...earnAdminCalls,
  ...loanAdminCalls,
  ...smartAdminCalls,
  ...swapAdminCalls,
  ...inviteAdminCalls,
  ...nftAdminCalls,
  ...fourEyesAdminCalls,
  ...alertAdminCalls,
  ...helpAdminCalls,
  ...supportAdminCalls,
} as const satisfies Record<string, AdminCallDefinition>;

export type AdminCallName = keyof typeof adminCalls;
export type AdminCallData<N extends AdminCallName> = z.infer<(typeof adminCalls)[N]['data']>;

/** A KYC photo, for staff: GET /swx/admin/kyc/photo/:id answers the image bytes. */
export const KYC_PHOTO_ADMIN_PATH = '/kyc/photo/:id';
