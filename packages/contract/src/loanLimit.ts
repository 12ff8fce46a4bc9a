import { z } from 'zod/mini';
import { proposalCalls, settingProposal } from './proposals.ts';
import { reviewStaff } from './review.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';

/**
 * The rule of a customer's loan limit (issue 41): a share of each product's maximum that grows by
 * bounded steps, set by admins with four eyes and stated to the customer (`loanLimit` in
 * `loans.ts` carries it). Re-exported by `loans.ts`.
 */

/** A share from 0 to 1 with at most 6 decimals ("0.5", "1"). */
export const loanShare = z.string().check(z.regex(/^(0(\.\d{1,6})?|1)$/));

/** The biggest step a repaid loan may add to the limit: the limit grows gradually. */
export const LOAN_LIMIT_STEP_MAX = '0.25';

/**
 * The rule of the limit (staff set it, with four eyes): `baseShare` of each product's maximum once
 * identity is verified, plus `stepShare` for each loan repaid on time that ran at least
 * `minLoanDays` days from its payout, less one step for each loan that went overdue (never below
 * the base), never above `maxShare`.
 */
export const loanLimitRule = z.object({
  baseShare: loanShare,
  stepShare: loanShare,
  maxShare: loanShare,
  minLoanDays: z.int().check(z.minimum(0), z.maximum(365)),
});
export type LoanLimitRule = z.infer<typeof loanLimitRule>;

/** A proposed or applied limit rule: who proposed it, who decided (null: the platform's first rule). */
export const loanLimitProposal = /* @__PURE__ */ settingProposal(
  { rule: loanLimitRule },
  z.nullable(reviewStaff),
);
export type LoanLimitProposal = z.infer<typeof loanLimitProposal>;

export const loanLimitSettings = /* @__PURE__ */ z.object({
  /** The rule that applies now. */
  current: loanLimitProposal,
  /** A change waiting for a second staff member. */
  pending: z.nullable(loanLimitProposal),
  /** The latest decided changes, newest first. */
  recent: z.array(loanLimitProposal),
});
export type LoanLimitSettings = z.infer<typeof loanLimitSettings>;

const ruleCalls = /* @__PURE__ */ proposalCalls({
  path: '/loans/limit-rule/proposals',
  roles: STAFF_DUTIES.customerTerms.roles,
  body: loanLimitRule,
  data: loanLimitProposal,
  setting: 'limit rule',
  who: 'staff member',
  proposeSummary:
    'Propose a new limit rule (a step at most LOAN_LIMIT_STEP_MAX, the base not above the highest); it applies once another staff member approves it (10048 while one waits); audited',
});

/** The limit rule's staff calls under /swx/admin (part of `loanAdminCalls`). */
export const loanLimitAdminCalls = {
  loanLimitRules: {
    method: 'GET',
    path: '/loans/limit-rule',
    summary:
      "The rule of customers' loan limits, a change waiting for a second staff member, the latest decided",
    roles: STAFF_DUTIES.readLoans.roles,
    data: loanLimitSettings,
  },
  proposeLoanLimitRule: ruleCalls.propose,
  approveLoanLimitRule: ruleCalls.approve,
  rejectLoanLimitRule: ruleCalls.reject,
} as const satisfies Record<string, AdminCallDefinition>;
