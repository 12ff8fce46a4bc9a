import { balancesData, transactionsPage, transactionsQuery } from '../ledger.ts';
import { type CallDefinition, call } from './define.ts';

/** Balances, transactions and the demo reset (`modules/ledger`). */
export const ledgerCalls = {
  getBalances: call({
    method: 'GET',
    path: '/user/getBalances',
    summary: 'Balances per asset (available, held, total) in the book the virtually header names',
    auth: true,
    status: 'live',
    data: balancesData,
  }),
  listTransactions: call({
    method: 'GET',
    path: '/user/listTransactions',
    summary:
      'Ledger entries that touched my accounts in this book, newest first; keyset pages (before = last entryId)',
    auth: true,
    status: 'live',
    query: transactionsQuery,
    data: transactionsPage,
  }),
  resetDemo: call({
    method: 'POST',
    path: '/user/resetDemo',
    summary: 'Reset the demo book to 100,000 virtual USDT (demo book only)',
    auth: true,
    status: 'live',
    data: balancesData,
  }),
} as const satisfies Record<string, CallDefinition>;
