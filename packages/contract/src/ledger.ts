import { z } from 'zod/mini';
import { wireId, wireInt } from './ids.ts';

/**
 * The two books (DESIGN §2): demo (virtual money) and live (real money). Chosen per request by the
 * `virtually` header; every money object belongs to one. Declared here once.
 */
export const BOOKS = ['demo', 'live'] as const;
export type Book = (typeof BOOKS)[number];
export const bookSchema = z.enum(BOOKS);

/** A decimal amount on the wire: minor units rendered at the asset's scale, sign allowed. */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));

/**
 * What holds part of a balance: a deposit waiting for its confirmations (locked until its unlock
 * depth), a withdrawal on its way (under review or being sent), the margin of open positions,
 * the principal of earn investments, what smart plans hold; `other` is any hold the ledger cannot
 * name (none in a sound book, listed so the parts always add up to the held figure).
 */
export const HELD_REASONS = ['deposit', 'withdrawal', 'margin', 'earn', 'smart', 'other'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

export const balanceRow = z.object({
  asset: z.string(),
  scale: z.int(),
  balance: decimalString,
  held: decimalString,
  /** The held figure by what holds it (only parts above zero, in `HELD_REASONS` order); they add up to `held` exactly. */
  heldBy: z.array(z.object({ reason: z.enum(HELD_REASONS), amount: decimalString })),
  available: decimalString,
  /** The total's value in USDT at the market's current mid price; null when no price is known. */
  valueUsdt: z.nullable(decimalString),
});
export const balancesData = z.object({
  book: bookSchema,
  balances: z.array(balanceRow),
  /** The sum of the priced balances in USDT (assets without a price are left out and flagged). */
  totalValueUsdt: decimalString,
  unpricedAssets: z.array(z.string()),
});
export type BalancesData = z.infer<typeof balancesData>;

/**
 * Every kind of ledger entry (the ledger refuses no other: `TransferRequest.kind` is typed by it),
 * and the kinds a customer filters the record by. A new product adds its kinds here.
 */
export const ENTRY_KINDS = [
  'demo_funding',
  'demo_reset',
  'deposit',
  'withdrawal',
  'fee',
  'trade_margin',
  'trade_pnl',
  'earn_payout',
  'earn_subscribe',
  'earn_redeem',
  'earn_reserve',
  'smart_subscribe',
  'smart_income',
  'smart_end',
  'loan',
  'repayment',
  'swap',
  'nft',
  'referral',
  'reversal',
  'transfer',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export function isEntryKind(kind: string): kind is EntryKind {
  return (ENTRY_KINDS as readonly string[]).includes(kind);
}

const isoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

export const transactionsQuery = z.object({
  kind: z.optional(z.enum(ENTRY_KINDS)),
  asset: z.optional(z.enum(['USDT', 'USDC', 'BTC', 'ETH'])),
  from: z.optional(isoDay),
  to: z.optional(isoDay),
  before: z.optional(wireId()),
  size: z.optional(wireInt(1, 100)),
});

/** One posting of an entry: the customer's own accounts by kind (wallet, margin), the platform's by kind. */
export const transactionPosting = z.object({
  /** wallet, margin (the customer's); fees, house_pnl, demo_issuance, … (the platform's); counterparty. */
  account: z.string(),
  own: z.boolean(),
  asset: z.string(),
  /** Exact, at the asset's ledger scale; + credit, − debit. The postings of an entry net to zero. */
  amount: decimalString,
});

/**
 * A swap's own figures on its record line (`modules/swap` describes its entries), so the app can
 * say "Swap 0.01 BTC → 650.12 USDT" with the fee: paid in `from`, received and fee in `to`, each
 * at its asset's ledger scale.
 */
export const transactionSwap = z.object({
  /** The swap's id (its record in swapHistory). */
  id: z.int(),
  from: z.string(),
  to: z.string(),
  amount: decimalString,
  receive: decimalString,
  fee: decimalString,
});
export type TransactionSwap = z.infer<typeof transactionSwap>;

/**
 * One economic event of the customer's record: one ledger entry, in structured fields the app
 * puts into words ("Opened SWX000000001: margin held …, fee …"). Amounts are decimal strings
 * at the asset's ledger scale; the app shows them at the asset's display scale.
 */
export const transactionLine = z.object({
  entryId: z.int(),
  kind: z.string(),
  createdAt: z.string(),
  status: z.enum(['posted', 'reversed']),
  reversesEntryId: z.nullable(z.int()),
  reference: z.nullable(z.string()),
  /** The order this entry belongs to, as the order detail shows it (SWX and nine digits). */
  orderNo: z.nullable(z.string()),
  instrument: z.nullable(z.string()),
  /** manual, stop_loss, take_profit, stop_out, auto_close for a closing entry. */
  closeReason: z.nullable(z.string()),
  /** The asset of margin, fee and result (the first asset the entry changed for the customer). */
  asset: z.string(),
  /** The change of the customer's total balance, per asset (margin moving in or out is no change). */
  changes: z.array(z.object({ asset: z.string(), amount: decimalString })),
  /** Margin set aside (positive) or released (negative) by this entry; null when none moved. */
  margin: z.nullable(decimalString),
  /** A fee the customer paid in this entry; null when none. */
  fee: z.nullable(decimalString),
  /** A realised trading result: profit positive, loss negative; null when none. */
  result: z.nullable(decimalString),
  /** A swap's figures (kind `swap`); absent or null on every other entry. */
  swap: z.optional(z.nullable(transactionSwap)),
  postings: z.array(transactionPosting),
});
export type TransactionLine = z.infer<typeof transactionLine>;

export const transactionsPage = z.object({
  items: z.array(transactionLine),
  nextBefore: z.nullable(z.int()),
});
