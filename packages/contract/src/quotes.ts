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

/**
 * What every quote carries beside its figures: its id, the second (epoch, the service's clock) it
 * was issued and the last second it commits. Its life is `expiresAt − issuedAt`: a screen counts
 * that from when the quote arrived, never the browser's clock against the server's (a sandbox's
 * clock may run days ahead).
 */
export const quoteFields = {
  quoteId,
  issuedAt: z.int(),
  expiresAt: z.int(),
};

export type QuoteRef = { quoteId: string; issuedAt: number; expiresAt: number };
