import { contentListId, type Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

/** Query factories for content; the language is part of each key, so a language change reloads them. */
export const contentQueries = {
  footer: (language: Language) =>
    queryOptions({
      queryKey: ['content', 'footer', language],
      queryFn: () => callApi('listContentsByList', { params: { type: 4, x: contentListId(language) } }),
      staleTime: 10 * 60_000,
    }),
  byType: (language: Language, type: 1 | 2 | 3) =>
    queryOptions({
      queryKey: ['content', 'type', type, language],
      queryFn: () => callApi('listContents', { params: { type } }),
      staleTime: 10 * 60_000,
    }),
  detail: (language: Language, id: number) =>
    queryOptions({
      queryKey: ['content', 'detail', id, language],
      queryFn: () => callApi('getContentsById', { params: { id } }),
      staleTime: 10 * 60_000,
    }),
};

export type Book = 'demo' | 'live';

export type TransactionFilter = { kind?: string; asset?: string; from?: string; to?: string };

/** Money queries carry the book and the user, so switching either refetches. */
export const ledgerQueries = {
  balances: (userId: number, book: Book) =>
    queryOptions({
      queryKey: ['ledger', 'balances', userId, book],
      queryFn: () => callApi('getBalances'),
      staleTime: 5_000,
    }),
};

export function transactionsQueryKey(userId: number, book: Book, filter: TransactionFilter) {
  return ['ledger', 'transactions', userId, book, filter] as const;
}

export const marketQueries = {
  byType: (language: Language, type: number) =>
    queryOptions({
      queryKey: ['market', 'type', type, language],
      queryFn: () => callApi('listMarketByType', { query: { type } }),
      staleTime: 60_000,
    }),
  info: (language: Language, id: number) =>
    queryOptions({
      queryKey: ['market', 'info', id, language],
      queryFn: () => callApi('getMarketInfo', { params: { id } }),
      staleTime: 60_000,
    }),
  candles: (code: string, period: string) =>
    queryOptions({
      queryKey: ['market', 'candles', code, period],
      queryFn: () => callApi('getKValueByCodeAndDate', { query: { code, period, limit: 300 } }),
      staleTime: 30_000,
    }),
  watchlist: (userId: number, language: Language) =>
    queryOptions({
      queryKey: ['market', 'watchlist', userId, language],
      queryFn: () => callApi('listWatchlist'),
    }),
};

export const statsQuery = queryOptions({
  queryKey: ['stats'],
  queryFn: () => callApi('getPlatformStats'),
  staleTime: 60_000,
});

/** Who operates the platform, as staff set it (the same in every language; texts pick theirs). */
export const operatorQuery = queryOptions({
  queryKey: ['operator'],
  queryFn: () => callApi('getOperator'),
  staleTime: 5 * 60_000,
});
