import type { LoanDetail } from '@swx/contract';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';
import { untilRenewal } from '../../app/quoteLife.ts';

const all = ['loans'] as const;

/**
 * Loans (live book only), under one root key: an application, a repayment or a withdrawal
 * invalidates `loanQueries.all` (and the ledger's). Every key carries the user; product names are
 * staff's text and the agreement is English, so the language is not in the keys.
 */
export const loanQueries = {
  all,
  products: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'products'],
      queryFn: () => callApi('loanProducts'),
      staleTime: 15_000,
    }),
  /**
   * The information sheet for one amount and term: asked again before the quote runs out, so the
   * figures shown can always be applied.
   */
  quote: (userId: number, productId: number, amount: string, termDays: number) =>
    queryOptions({
      queryKey: [...all, userId, 'quote', productId, amount, termDays],
      queryFn: () => callApi('loanQuote', { body: { productId, amount, termDays } }),
      retry: false,
      gcTime: 0,
      staleTime: (query) => untilRenewal(query.state.data, query.state.dataUpdatedAt, 30_000),
      refetchInterval: (query) =>
        query.state.data ? untilRenewal(query.state.data, query.state.dataUpdatedAt, 30_000) : false,
    }),
  records: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'records'],
      queryFn: () => callApi('listLoanRecord', { query: {} }),
    }),
  detail: (userId: number, id: number) =>
    queryOptions({
      queryKey: [...all, userId, 'detail', id],
      queryFn: () => callApi('loanDetail', { params: { id } }),
      retry: false,
    }),
  /** What repaying today costs: asked fresh each time the repayment opens. */
  payoff: (userId: number, id: number) =>
    queryOptions({
      queryKey: [...all, userId, 'payoff', id],
      queryFn: () => callApi('loanPayoff', { body: { loanId: id } }),
      staleTime: 0,
      retry: false,
    }),
};

/**
 * After a repayment or a withdrawal: every loan figure asked again, except the payoff of a loan it
 * closed, which has none (the server answers 10020): the screen shows the loan repaid instead.
 */
export function refreshAfterRepayment(queryClient: QueryClient, loan: LoanDetail): Promise<void> {
  const closed = loan.state !== 'repaying' && loan.state !== 'expired';
  return queryClient.invalidateQueries({
    queryKey: all,
    predicate: (query) => !(closed && query.queryKey[2] === 'payoff' && query.queryKey[3] === loan.id),
  });
}
