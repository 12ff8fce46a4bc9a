import type { Book } from '@swx/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

export type { Book };

export type TransactionFilter = { kind?: string; asset?: string; from?: string; to?: string };

/** Entries a page of the record loads. */
export const TRANSACTIONS_PAGE_SIZE = 20;

const all = ['ledger'] as const;
const transactionLists = [...all, 'transactions'] as const;

/**
 * Money queries, under one root key: anything that moves money (an order, a close, a switch of
 * book) invalidates `ledgerQueries.all`. Each key carries the user and the book, so switching
 * either refetches.
 */
export const ledgerQueries = {
  all,
  /** Every page of every record: what a demo reset invalidates. */
  transactionLists,
  balances: (userId: number, book: Book) =>
    queryOptions({
      queryKey: [...all, 'balances', userId, book],
      queryFn: () => callApi('getBalances'),
      staleTime: 5_000,
    }),
  transactions: (userId: number, book: Book, filter: TransactionFilter) =>
    infiniteQueryOptions({
      queryKey: [...transactionLists, userId, book, filter],
      queryFn: ({ pageParam }) =>
        callApi('listTransactions', {
          query: { ...filter, size: TRANSACTIONS_PAGE_SIZE, ...(pageParam ? { before: pageParam } : {}) },
        }),
      initialPageParam: 0,
      getNextPageParam: (last) => last.nextBefore ?? undefined,
    }),
};
