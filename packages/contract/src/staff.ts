import { z } from 'zod/mini';
import { kycDetails } from './kyc.ts';

/**
 * The staff API of the back office, under `/swx/admin` (never the customer base). Staff accounts,
 * sessions and tokens are separate from customers': a customer token is refused here and a staff
 * token is refused on customer calls. Each call names the roles that may make it.
 */
export const ADMIN_API_BASE = '/swx/admin';

export const STAFF_ROLES = ['admin', 'compliance', 'finance', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export type AdminCallDefinition = {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  /** The roles allowed; 'public' calls are the sign-in steps (no staff session yet). */
  roles: readonly StaffRole[] | 'public';
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  data: z.ZodMiniType;
};

function adminCall<const D extends AdminCallDefinition>(definition: D): D {
  return definition;
}

const ALL: readonly StaffRole[] = STAFF_ROLES;
/** Who may see customers' data. */
const VIEWERS: readonly StaffRole[] = ['admin', 'compliance', 'finance', 'support'];
/** Who may lock and unlock a customer. */
const LOCKERS: readonly StaffRole[] = ['admin', 'compliance', 'support'];
/** Who may read KYC submissions and their photos. */
const KYC_READERS: readonly StaffRole[] = ['admin', 'compliance'];
/** Only compliance decides a KYC review. */
const KYC_REVIEWERS: readonly StaffRole[] = ['compliance'];

export const staffEmail = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(254), z.regex(/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24}$/));
/** A staff password the owner chooses: at least 12 characters. */
export const staffPassword = z.string().check(z.minLength(12), z.maxLength(128));
const challenge = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));
const code = z.string().check(z.trim(), z.regex(/^\d{6}$/));
const reason = z.string().check(z.trim(), z.minLength(3), z.maxLength(500));
const idParams = z.object({ id: z.coerce.number().check(z.int(), z.minimum(1)) });

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
  reason: z.nullable(z.string()),
  details: kycDetails,
});
export type KycReview = z.infer<typeof kycReview>;

export const staffListItem = z.object({
  id: z.int(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  status: z.enum(['active', 'disabled']),
  enrolled: z.boolean(),
  createdAt: z.string(),
});

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
    summary: 'Customers by username, email or id (newest first when q is empty)',
    roles: VIEWERS,
    query: z.object({ q: z.optional(z.string().check(z.trim(), z.maxLength(254))) }),
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
  kycQueue: adminCall({
    method: 'GET',
    path: '/kyc/queue',
    summary: 'Pending verifications, oldest first, with their 48-hour due time',
    roles: KYC_READERS,
    data: z.array(kycQueueItem),
  }),
  getKyc: adminCall({
    method: 'GET',
    path: '/kyc/:id',
    summary: 'One verification with its fields and photo ids',
    roles: KYC_READERS,
    params: idParams,
    data: kycReview,
  }),
  approveKyc: adminCall({
    method: 'POST',
    path: '/kyc/:id/approve',
    summary: 'Approve a pending verification; the customer gets a notice',
    roles: KYC_REVIEWERS,
    params: idParams,
    data: kycReview,
  }),
  rejectKyc: adminCall({
    method: 'POST',
    path: '/kyc/:id/reject',
    summary: 'Reject a pending verification with a reason the customer sees; they may submit again',
    roles: KYC_REVIEWERS,
    params: idParams,
    body: z.object({ reason }),
    data: kycReview,
  }),
  listStaff: adminCall({
    method: 'GET',
    path: '/staff',
    summary: 'Staff accounts',
    roles: ['admin'],
    data: z.array(staffListItem),
  }),
  createStaff: adminCall({
    method: 'POST',
    path: '/staff',
    summary: 'Create a staff account; answers its one-time password, shown once',
    roles: ['admin'],
    body: z.object({ email: staffEmail, role: z.enum(STAFF_ROLES) }),
    data: z.object({ staff: staffInfo, oneTimePassword: z.string() }),
  }),
} as const satisfies Record<string, AdminCallDefinition>;

export type AdminCallName = keyof typeof adminCalls;
export type AdminCallData<N extends AdminCallName> = z.infer<(typeof adminCalls)[N]['data']>;

/** A KYC photo, for staff: GET /swx/admin/kyc/photo/:id answers the image bytes. */
export const KYC_PHOTO_ADMIN_PATH = '/kyc/photo/:id';
