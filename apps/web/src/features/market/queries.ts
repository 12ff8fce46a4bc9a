import type { Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['market'] as const;
const watchlists = [...all, 'watchlist'] as const;

/**
 * Market queries, under one root key (`marketQueries.all` invalidates them all). The language is
 * in every key of server-worded data, so a language change reloads it.
 */
export const marketQueries = {
  all,
  /** Every user's and language's watchlist: what a change of the watchlist invalidates. */
  watchlists,
  byType: (language: Language, type: number) =>
    queryOptions({
      queryKey: [...all, 'type', type, language],
      queryFn: () => callApi('listMarketByType', { query: { type } }),
      staleTime: 60_000,
    }),
  /** A list's first items only (the optional `limit`), for a screen that shows a few. */
  firstOfType: (language: Language, type: number, limit: number) =>
    queryOptions({
      queryKey: [...all, 'type', type, language, 'first', limit],
      queryFn: () => callApi('listMarketByType', { query: { type, limit } }),
      staleTime: 60_000,
    }),
  info: (language: Language, id: number) =>
    queryOptions({
      queryKey: [...all, 'info', id, language],
      queryFn: () => callApi('getMarketInfo', { params: { id } }),
      staleTime: 60_000,
    }),
  candles: (code: string, period: string) =>
    queryOptions({
      queryKey: [...all, 'candles', code, period],
      queryFn: () => callApi('getKValueByCodeAndDate', { query: { code, period, limit: 300 } }),
      staleTime: 30_000,
    }),
  watchlist: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...watchlists, userId, language],
      queryFn: () => callApi('listWatchlist'),
    }),
};
