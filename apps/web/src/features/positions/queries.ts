import type { Language, TicketBody } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';
import type { Book } from '../ledger/queries.ts';

/** Open positions are repriced by the server; the list and the detail follow every 2 s. */
export const OPEN_REFRESH_MS = 2_000;
export const ORDERS_PAGE_SIZE = 20;

const all = ['trade'] as const;

/**
 * Trading queries, under one root key (`tradeQueries.all`: an order opened, changed or closed
 * invalidates it, with `ledgerQueries.all`). Positions carry the user and the book (the `virtually` header picks the book),
 * so switching either shows the other book's positions; the language is in every key because the
 * server's messages are in the reader's language.
 */
export const tradeQueries = {
  all,
  terms: (language: Language, marketId: number) =>
    queryOptions({
      queryKey: [...all, 'terms', marketId, language],
      queryFn: () => callApi('getTradingTerms', { params: { id: marketId } }),
      staleTime: 30_000,
      // Opening hours change while the page is open; the ticket must notice.
      refetchInterval: 30_000,
    }),
  orders: (userId: number, book: Book, status: 'open' | 'closed', page: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'orders', userId, book, status, page, language],
      queryFn: () => callApi('listPositions', { query: { status, page, size: ORDERS_PAGE_SIZE } }),
    }),
  /** Pending entry orders: the open ones, or the ended ones (history). */
  pending: (userId: number, book: Book, status: 'open' | 'history', page: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'pending', userId, book, status, page, language],
      queryFn: () => callApi('listPendingOrders', { query: { status, page, size: ORDERS_PAGE_SIZE } }),
    }),
  order: (userId: number, book: Book, id: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'order', userId, book, id, language],
      queryFn: () => callApi('getPosition', { params: { id } }),
    }),
  /**
   * The figures of a ticket (its body as JSON, the key of what was typed) at the current tick: a
   * quote signed for this customer and book, so both are in the key.
   */
  preview: (userId: number, book: Book, language: Language, body: string) =>
    queryOptions({
      queryKey: [...all, 'preview', userId, book, language, body],
      queryFn: () => callApi('previewOptions', { body: JSON.parse(body) as TicketBody }),
    }),
};
