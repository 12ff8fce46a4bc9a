import type { Book, SwapAsset } from '@swx/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['swap'] as const;

/** Swaps listed by the history call in one page. */
export const SWAP_HISTORY_PAGE = 50;

/**
 * Swap, under one root key: a swap done invalidates `swapQueries.all` (and the ledger's). The
 * pairs are public and the same in both books (their mid rates move, so they are asked again
 * every 10 s while shown); a quote and the history carry the user and the book. Nothing here is
 * worded by the server, so the language is not in the keys.
 */
export const swapQueries = {
  all,
  pairs: () =>
    queryOptions({
      queryKey: [...all, 'pairs'],
      queryFn: () => callApi('instantExchangeItem'),
      staleTime: 5_000,
      refetchInterval: 10_000,
    }),
  /**
   * One quote for a pair and amount. It is never renewed behind the customer's back: it lasts
   * SWAP_QUOTE_SECONDS, the screen counts it down, and a new one is asked for by the customer
   * (`refetch`) or by a change of the pair or amount (a new key).
   */
  quote: (userId: number, book: Book, from: SwapAsset, to: SwapAsset, amount: string) =>
    queryOptions({
      queryKey: [...all, userId, book, 'quote', from, to, amount],
      queryFn: () => callApi('swapQuote', { body: { from, to, amount } }),
      retry: false,
      gcTime: 0,
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
    }),
  history: (userId: number, book: Book) =>
    infiniteQueryOptions({
      queryKey: [...all, userId, book, 'history'],
      queryFn: ({ pageParam }) =>
        callApi('swapHistory', { query: pageParam === 0 ? {} : { before: pageParam } }),
      initialPageParam: 0,
      getNextPageParam: (last) =>
        last.length === SWAP_HISTORY_PAGE ? (last[last.length - 1]?.id ?? undefined) : undefined,
    }),
};
