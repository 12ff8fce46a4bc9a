import { z } from 'zod/mini';

/** A decimal amount on the wire: minor units rendered at the asset's scale, sign allowed. */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));

export const balanceRow = z.object({
  asset: z.string(),
  scale: z.int(),
  balance: decimalString,
  held: decimalString,
  available: decimalString,
  /** The total's value in USDT at the market's current mid price; null when no price is known. */
  valueUsdt: z.nullable(decimalString),
});
export const balancesData = z.object({
  book: z.enum(['demo', 'live']),
  balances: z.array(balanceRow),
  /** The sum of the priced balances in USDT (assets without a price are left out and flagged). */
  totalValueUsdt: decimalString,
  unpricedAssets: z.array(z.string()),
});
export type BalancesData = z.infer<typeof balancesData>;

/** Entry kinds a customer can filter by; others (system) never reach a customer's record. */
export const ENTRY_KINDS = [
  'demo_funding',
  'demo_reset',
  'deposit',
  'withdrawal',
  'fee',
  'trade_margin',
  'trade_pnl',
  'earn_payout',
  'loan',
  'repayment',
  'swap',
  'nft',
  'referral',
  'reversal',
  'transfer',
] as const;

const isoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

export const transactionsQuery = z.object({
  kind: z.optional(z.enum(ENTRY_KINDS)),
  asset: z.optional(z.enum(['USDT', 'USDC', 'BTC', 'ETH'])),
  from: z.optional(isoDay),
  to: z.optional(isoDay),
  before: z.optional(z.coerce.number().check(z.int(), z.minimum(1))),
  size: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100))),
});

export const transactionLine = z.object({
  entryId: z.int(),
  kind: z.string(),
  asset: z.string(),
  amount: decimalString,
  createdAt: z.string(),
  status: z.enum(['posted', 'reversed']),
  reference: z.nullable(z.string()),
  reversesEntryId: z.nullable(z.int()),
});
export type TransactionLine = z.infer<typeof transactionLine>;

export const transactionsPage = z.object({
  items: z.array(transactionLine),
  nextBefore: z.nullable(z.int()),
});
