import { z } from 'zod/mini';
import { wireInt } from './ids.ts';

/**
 * Papers a customer keeps (modules/papers): monthly statements per book and asset (PDF and CSV, in
 * the customer's language), a year's tax-ready figures (CSV) and the obligations calendar (an
 * `.ics` feed behind a private, revocable link). Files are not JSON: they are served at the paths
 * below with the session (statements, tax) or with the link's token (calendar).
 */

export const PAPERS_ASSETS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
export const STATEMENT_FORMATS = ['pdf', 'csv'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

const isoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
const signedDecimal = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));

/** A statement file (customer base path; the `virtually` header names the book). */
export const STATEMENT_PATH = '/user/papers/statement';
/** A year's tax-ready figures, CSV. */
export const TAX_EXPORT_PATH = '/user/papers/tax.csv';
/** The calendar feed, public: the token in the path is the only key (`/swx/customer` base). */
export const CALENDAR_FEED_PATH = '/papers/calendar/:token';

/** Which statement: an asset and a period of whole UTC days, `from` to `to` inclusive (at most 366 days). */
export const statementQuery = z.object({
  asset: z.enum(PAPERS_ASSETS),
  from: isoDay,
  to: isoDay,
  format: z.enum(STATEMENT_FORMATS),
});

export const taxExportQuery = z.object({ year: wireInt(2000, 2100) });

export const calendarTokenParams = z.object({
  token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}\.ics$/)),
});

/** A statement the monthly job (or a download) recorded: its figures, as the file states them. */
export const statementRecord = z.object({
  book: z.enum(['demo', 'live']),
  asset: z.enum(PAPERS_ASSETS),
  from: isoDay,
  to: isoDay,
  opening: signedDecimal,
  closing: signedDecimal,
  credits: signedDecimal,
  debits: signedDecimal,
  fees: signedDecimal,
  events: z.int(),
  generatedAt: z.string(),
});
export type StatementRecord = z.infer<typeof statementRecord>;

export const statementsData = z.object({ statements: z.array(statementRecord) });

/** The calendar link: whether one is active (its address is shown once, when made). */
export const calendarLinkData = z.object({
  active: z.boolean(),
  createdAt: z.nullable(z.string()),
  /** Only in the answer of `rotateCalendarLink`: the feed's private path from the site's root (shown this once). */
  path: z.optional(z.string()),
});
export type CalendarLinkData = z.infer<typeof calendarLinkData>;
