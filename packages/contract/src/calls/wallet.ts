import { type CallDefinition, call, planned } from './define.ts';

/** Deposits and withdrawals (planned). */
export const walletCalls = {
  recharge: call({
    method: 'POST',
    path: '/user/recharge',
    summary: 'Declare a crypto deposit',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  withdrawal: call({
    method: 'POST',
    path: '/user/withdrawal',
    summary: 'Request a withdrawal',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listRecharge: call({
    method: 'GET',
    path: '/user/listRecharge',
    summary: 'My deposits',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listWithdrwal: call({
    method: 'GET',
    path: '/user/listWithdrwal',
    summary: 'My withdrawals',
    auth: true,
    status: 'planned',
    data: planned,
  }),
} as const satisfies Record<string, CallDefinition>;
