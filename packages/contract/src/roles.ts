import type { StaffRole } from './staffBase.ts';

/**
 * What each staff role may do: the one table of the back office's permissions. Every staff call of
 * the contract takes its `roles` from one duty here (`roles: STAFF_DUTIES.<duty>.roles`), so the
 * server's authorization (mountStaffCall checks the call's roles), the back office's menu, the role
 * test (tests/integration/staff-roles.test.ts) and the README's table (`staffRoleTable()`, checked by
 * a test) all read this table.
 *
 * Configuration that changes what customers pay or how soon their money is credited (network fees,
 * confirmations, minimums and limits, swap pairs, earn, loan and smart product terms) is the
 * `customerTerms` duty: admin only, audited, applied from the next quote on.
 */
export type StaffDuty = {
  /** What the duty lets staff do, as the README's table says it. */
  does: string;
  roles: readonly StaffRole[];
};

export const STAFF_DUTIES = {
  session: {
    does: 'See who is signed in, sign out',
    roles: ['admin', 'compliance', 'finance', 'support'],
  },
  viewCustomers: {
    does: 'Find customers and open one: account, balances, positions, entries, sessions, verification state',
    roles: ['admin', 'compliance', 'finance', 'support'],
  },
  lockCustomers: {
    does: 'Lock and unlock a customer, with a reason',
    roles: ['admin', 'compliance', 'support'],
  },
  readKyc: {
    does: 'Read identity verifications and their photos',
    roles: ['admin', 'compliance'],
  },
  decideKyc: {
    does: 'Claim, approve and reject identity verifications',
    roles: ['compliance'],
  },
  readLoans: {
    does: 'Read loan products, lending pools, loan applications and overdue loans',
    roles: ['admin', 'compliance', 'finance'],
  },
  money: {
    does: 'Read and decide deposit proofs, withdrawals, fund payment proofs, loan applications and repayment proofs (two staff above a four-eyes threshold); read networks, the hot wallet, swap pairs, earn and smart products and plans; fund yield reserves and lending pools',
    roles: ['admin', 'finance'],
  },
  customerTerms: {
    does: "Change what customers pay or how soon money is credited: networks' fees, confirmations, minimums and limits, swap pairs, earn, loan and smart products (from the next quote on; audited)",
    roles: ['admin'],
  },
  fourEyes: {
    does: "Read the four-eyes thresholds, propose a change, approve or turn down another admin's proposal (audited)",
    roles: ['admin'],
  },
  operatorSettings: {
    does: 'Change the company identity, contacts and risk figures customers see (audited)',
    roles: ['admin'],
  },
  staffAccounts: {
    does: 'Create staff accounts, change a role, disable an account, reset an authenticator',
    roles: ['admin'],
  },
  auditLog: {
    does: 'Read the audit log and check its hash chain',
    roles: ['admin', 'compliance'],
  },
  readContent: {
    does: 'Read help-centre articles, notices and the company and policy pages, their drafts and revisions',
    roles: ['admin', 'compliance', 'finance', 'support'],
  },
  editContent: {
    does: 'Write, publish and unpublish help-centre articles, notices and the company and policy pages, with their images (every revision kept; audited)',
    roles: ['admin', 'support'],
  },
  supportChat: {
    does: 'Answer the customer-service chat: the inbox, replies, private notes, transfer, resolve and reopen',
    roles: ['admin', 'support'],
  },
  supportLimits: {
    does: "Set each chat agent's limit of conversations open at once (audited)",
    roles: ['admin'],
  },
  staffAlerts: {
    does: 'Read staff alerts (reserve shortfalls, reconciliation differences, failed jobs), acknowledge and resolve them (audited); each is mailed to the roles that act on it',
    roles: ['admin', 'compliance', 'finance'],
  },
} as const satisfies Record<string, StaffDuty>;

export type StaffDutyName = keyof typeof STAFF_DUTIES;
