import type { Book, EarnType } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';
import { untilRenewal } from '../../app/quoteLife.ts';

const all = ['earn'] as const;

export type ProductFilter = {
  income?: 'static' | 'dynamic';
  term?: 'flexible' | 'fixed';
  asset?: 'USDT' | 'USDC' | 'BTC' | 'ETH';
};

/**
 * Earn (funds and VIP funds), under one root key: a purchase or a redemption invalidates
 * `earnQueries.all` (and the ledger's). Products carry the book (what is reserved for current
 * investors and whether a product is sold out are per book); what is mine carries the user too.
 * Product names are staff's text, not worded by language, so the language is not in the keys.
 */
export const earnQueries = {
  all,
  funds: (book: Book, filter: ProductFilter) =>
    queryOptions({
      queryKey: [...all, book, 'funds', filter],
      queryFn: () => callApi('fundItems', { query: filter }),
      staleTime: 15_000,
    }),
  vip: (book: Book) =>
    queryOptions({
      queryKey: [...all, book, 'vip'],
      queryFn: () => callApi('vipProjects'),
      staleTime: 15_000,
    }),
  product: (book: Book, id: number) =>
    queryOptions({
      queryKey: [...all, book, 'product', id],
      queryFn: () => callApi('earnProduct', { params: { id } }),
      staleTime: 15_000,
      retry: false,
    }),
  /** A dynamic product's published days (past figures), the same in both books. */
  price: (id: number) =>
    queryOptions({
      queryKey: [...all, 'price', id],
      queryFn: () => callApi('fundPrice', { query: { id } }),
      staleTime: 60_000,
    }),
  /**
   * A purchase's figures for one amount: asked again a few seconds before the quote runs out, so
   * what is shown can always be committed (the confirm step keeps its own copy).
   */
  quote: (userId: number, book: Book, productId: number, amount: string) =>
    queryOptions({
      queryKey: [...all, userId, book, 'quote', productId, amount],
      queryFn: () => callApi('earnQuote', { body: { productId, amount } }),
      retry: false,
      gcTime: 0,
      staleTime: (query) => untilRenewal(query.state.data, query.state.dataUpdatedAt, 5_000),
      refetchInterval: (query) =>
        query.state.data ? untilRenewal(query.state.data, query.state.dataUpdatedAt, 5_000) : false,
    }),
  wallet: (userId: number, book: Book) =>
    queryOptions({
      queryKey: [...all, userId, book, 'wallet'],
      queryFn: () => callApi('fundWallet'),
      staleTime: 5_000,
    }),
  mine: (userId: number, book: Book, type: EarnType) =>
    queryOptions({
      queryKey: [...all, userId, book, 'mine', type],
      queryFn: () => callApi('fundUserProjects', { query: { itemType: type } }),
    }),
  /** The summary of one type of investment (fund or VIP). */
  summary: (userId: number, book: Book, type: EarnType) =>
    queryOptions({
      queryKey: [...all, userId, book, 'summary', type],
      queryFn: () => callApi('myInvestment', { query: { itemType: type } }),
    }),
  investment: (userId: number, book: Book, id: number) =>
    queryOptions({
      queryKey: [...all, userId, book, 'investment', id],
      queryFn: () => callApi('earnInvestment', { params: { id } }),
    }),
};
