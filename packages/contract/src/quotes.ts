import { z } from 'zod/mini';

/**
 * Quote, then commit (DESIGN: a product on the ledger). A preview answers its figures with a
 * `quoteId`: the figures signed by the server for the customer and book that asked, valid until
 * `expiresAt`. The commit names that id and posts exactly those figures, or is refused: 10032 once
 * expired or already committed by another request (data `reason: 'used'`: a quote is accepted
 * once), 10011 when the balance no longer covers it, 10028 for a quote given to someone else or
 * in the other book, 10026 for an id that is not the server's. An id is `<key id>.<payload>.<mac>`.
 */
export const quoteId = z
  .string()
  .check(z.maxLength(4096), z.regex(/^[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/));

/** What every quote carries beside its figures: its id and the last second (epoch) it commits. */
export const quoteFields = {
  quoteId,
  expiresAt: z.int(),
};

export type QuoteRef = { quoteId: string; expiresAt: number };
