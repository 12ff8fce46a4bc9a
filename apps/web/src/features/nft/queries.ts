import type { Book } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['nft'] as const;

/** Market filters, as the list call and the page's address take them. */
export type MarketFilter = { state?: 'live' | 'upcoming' | 'ended'; saleType?: 'fixed' | 'auction' };

/**
 * Charity NFTs, under one root key: a bid, a purchase or a send invalidates `nftQueries.all`. The
 * market and a drop are public but answer per book (the `virtually` header) and mark the signed-in
 * customer's own bids, so both are in the keys; nothing is worded by the server, so the language
 * is not. The log is public and the same for everyone. `receivedAt` is when an answer came: the
 * countdowns count from it (auction.ts `deadlineOf`).
 */
export const nftQueries = {
  all,
  market: (book: Book, userId: number, filter: MarketFilter) =>
    queryOptions({
      queryKey: [...all, book, userId, 'market', filter.state ?? '', filter.saleType ?? ''],
      queryFn: async () => ({
        nfts: await callApi('listNftMarket', { query: { ...filter, size: 50 } }),
        receivedAt: Date.now(),
      }),
      refetchInterval: 15_000,
    }),
  detail: (book: Book, userId: number, id: number) =>
    queryOptions({
      queryKey: [...all, book, userId, 'detail', id],
      queryFn: async () => ({ ...(await callApi('getNft', { query: { id } })), receivedAt: Date.now() }),
      refetchInterval: 5_000,
    }),
  mine: (book: Book, userId: number) =>
    queryOptions({
      queryKey: [...all, book, userId, 'mine'],
      queryFn: () => callApi('listMyNft'),
    }),
  myBids: (book: Book, userId: number) =>
    queryOptions({
      queryKey: [...all, book, userId, 'bids'],
      queryFn: async () => ({ bids: await callApi('listMyNftBids'), receivedAt: Date.now() }),
    }),
  heads: () =>
    queryOptions({
      queryKey: [...all, 'log', 'heads'],
      queryFn: () => callApi('listNftLogHeads'),
      staleTime: 60_000,
    }),
  /** The latest leaves, or a drop's (its sale) when `dropId` is given: filtered by the server. */
  leaves: (dropId: number | null = null) =>
    queryOptions({
      queryKey: [...all, 'log', 'leaves', dropId ?? 0],
      queryFn: () =>
        callApi('listNftLogLeaves', { query: { size: 100, ...(dropId === null ? {} : { dropId }) } }),
      staleTime: 60_000,
    }),
};

/** The inclusion proof of a leaf in the tree of a head's size, fetched when the reader asks. */
export const inclusionProof = (index: number, size: number) =>
  callApi('getNftLogInclusion', { query: { index, size } });

/** The consistency proof between two heads' sizes, fetched when the reader asks. */
export const consistencyProof = (m: number, n: number) =>
  callApi('getNftLogConsistency', { query: { m, n } });
