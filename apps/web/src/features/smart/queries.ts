import type { Book, SmartState } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';
import { untilRenewal } from '../../app/quoteLife.ts';

const all = ['smart'] as const;

/**
 * Smart trading plans, under one root key: a purchase or a stop invalidates `smartQueries.all`
 * (and the ledger's). Products and their records are public and the same in both books; plans are
 * the customer's, live book only. Names are staff's text, so the language is not in the keys.
 */
export const smartQueries = {
  all,
  products: () =>
    queryOptions({
      queryKey: [...all, 'products'],
      queryFn: () => callApi('smartProducts'),
      staleTime: 30_000,
    }),
  /** A product with its year's backtest and the live record of its plans. */
  product: (id: number) =>
    queryOptions({
      queryKey: [...all, 'product', id],
      queryFn: () => callApi('smartProduct', { params: { id } }),
      staleTime: 60_000,
      retry: false,
    }),
  /** What joining commits for one amount and timeframe, asked again a few seconds before it runs out. */
  quote: (userId: number, book: Book, productId: number, amount: string, timeframeDays: number) =>
    queryOptions({
      queryKey: [...all, userId, book, 'quote', productId, amount, timeframeDays],
      queryFn: () => callApi('smartQuote', { body: { productId, amount, timeframeDays } }),
      retry: false,
      gcTime: 0,
      staleTime: (query) => untilRenewal(query.state.data, query.state.dataUpdatedAt, 5_000),
      refetchInterval: (query) =>
        query.state.data ? untilRenewal(query.state.data, query.state.dataUpdatedAt, 5_000) : false,
    }),
  /** My plans (a running plan's figures move every minute: asked again each minute while shown). */
  plans: (userId: number, book: Book, state?: SmartState) =>
    queryOptions({
      queryKey: [...all, userId, book, 'plans', state ?? 'all'],
      queryFn: () => callApi('listSmartOrder', { query: state ? { state } : {} }),
      refetchInterval: 60_000,
    }),
  plan: (userId: number, book: Book, id: number) =>
    queryOptions({
      queryKey: [...all, userId, book, 'plan', id],
      queryFn: () => callApi('smartPlan', { params: { id } }),
      retry: false,
      refetchInterval: 60_000,
    }),
};
