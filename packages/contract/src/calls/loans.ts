import { type CallDefinition, call, planned } from './define.ts';

/** Loans (planned). */
export const loansCalls = {
  loan: call({
    method: 'POST',
    path: '/user/loan',
    summary: 'Apply for a loan',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listLoanRecord: call({
    method: 'GET',
    path: '/user/listLoanRecord',
    summary: 'My loans',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  completeLoan: call({
    method: 'POST',
    path: '/user/completeLoan',
    summary: 'Repay a loan',
    auth: true,
    status: 'planned',
    data: planned,
  }),
} as const satisfies Record<string, CallDefinition>;
