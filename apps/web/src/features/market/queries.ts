import type { Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';
import { itemFromWire } from './wire.ts';

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
      queryFn: async () => (await callApi('listMarketByType', { query: { type } })).map(itemFromWire),
      staleTime: 60_000,
    }),
  /** A list's first items only (the optional `limit`), for a screen that shows a few. */
  firstOfType: (language: Language, type: number, limit: number) =>
    queryOptions({
      queryKey: [...all, 'type', type, language, 'first', limit],
      queryFn: async () => (await callApi('listMarketByType', { query: { type, limit } })).map(itemFromWire),
      staleTime: 60_000,
    }),
  info: (language: Language, id: number) =>
    queryOptions({
      queryKey: [...all, 'info', id, language],
      queryFn: async () => itemFromWire(await callApi('getMarketInfo', { params: { id } })),
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
      queryFn: async () => (await callApi('listWatchlist')).map(itemFromWire),
    }),
};
