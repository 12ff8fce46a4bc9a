import { z } from 'zod/mini';
import { wireInt } from './ids.ts';
import { bookSchema, decimalString } from './ledger.ts';
import { priceString } from './market.ts';
import { quoteFields, quoteId } from './quotes.ts';
import { DIRECTIONS, ticketBody } from './trading.ts';

/*
 * Pending entry orders (issue 38): a limit or stop order opens a position, through the same
 * opening as a market order, at the first tick whose price crosses its level. Its margin and fee
 * at the level are held in the wallet from placing until it fills, is cancelled or expires.
 *
 * A buy limit fills when the ask falls to its level, a buy stop when the ask rises to it; a sell
 * limit when the bid rises to it, a sell stop when the bid falls to it. It fills at that tick's
 * price: a limit at its level or better, a stop at its level or, through a gap, worse (`gapped`).
 * Refusal 10070: the level is on the wrong side of the market (it would fill at once), or the
 * order cannot be changed in its state.
 */

export const PENDING_ORDER_TYPES = ['limit', 'stop'] as const;
export type PendingOrderType = (typeof PENDING_ORDER_TYPES)[number];
export const PENDING_ORDER_STATES = [
  'open',
  'filling',
  'filled',
  'cancelled',
  'expired',
  'rejected',
] as const;
export type PendingOrderState = (typeof PENDING_ORDER_STATES)[number];
/** Why an order did not fill: the balance did not cover the margin at the fill price, a stop was unreasonable there, the market was closed. */
export const PENDING_REJECT_REASONS = ['insufficient_funds', 'unreasonable_stops', 'market_closed'] as const;
export type PendingRejectReason = (typeof PENDING_REJECT_REASONS)[number];

/** A pending order's ticket: a position's (no trailing stop), with its type, level and expiry (null: good till cancelled). */
export const pendingTicketBody = z.extend(z.omit(ticketBody, { trailingDistance: true }), {
  type: z.enum(PENDING_ORDER_TYPES),
  level: priceString,
  /** Good till this instant (ISO 8601, in the future); null or absent: good till cancelled. */
  expiresAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
});
export type PendingTicketBody = z.infer<typeof pendingTicketBody>;

/** What placing the order holds (margin and fee at the level), signed in the quote. */
export const pendingFigures = z.object({
  ...quoteFields,
  quoteTime: z.int(),
  bid: priceString,
  ask: priceString,
  level: priceString,
  notional: decimalString,
  margin: decimalString,
  fee: decimalString,
  /** Margin plus fee at the level: held from the available balance until the order ends. */
  held: decimalString,
  liquidationPrice: priceString,
  unreasonable: z.array(z.enum(['stopLoss', 'takeProfit'])),
});
export type PendingFigures = z.infer<typeof pendingFigures>;

export const placePendingBody = z.extend(pendingTicketBody, {
  quoteId,
  requestId: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
});
export type PlacePendingBody = z.infer<typeof placePendingBody>;

/** Changes an open order's level, stops or expiry; a change of what is held needs a new quote (`quoteId` of `previewPendingOrder`). */
export const editPendingBody = z.object({
  id: z.int().check(z.minimum(1)),
  level: priceString,
  stopLoss: priceString,
  takeProfit: priceString,
  expiresAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
  quoteId: z.optional(quoteId),
});
export type EditPendingBody = z.infer<typeof editPendingBody>;

export const pendingOrderView = z.object({
  id: z.int(),
  orderNo: z.string(),
  marketId: z.int(),
  code: z.string(),
  book: bookSchema,
  type: z.enum(PENDING_ORDER_TYPES),
  direction: z.enum(DIRECTIONS),
  lots: z.string(),
  leverage: z.int(),
  level: priceString,
  stopLoss: priceString,
  takeProfit: priceString,
  autoCloseAfter: z.nullable(z.int()),
  expiresAt: z.nullable(z.string()),
  state: z.enum(PENDING_ORDER_STATES),
  /** What is held while it is open (margin and fee at the level). */
  held: decimalString,
  createdAt: z.string(),
  endedAt: z.nullable(z.string()),
  /** Once filled: the position, the price it filled at, and whether a gap filled it away from its level. */
  positionId: z.nullable(z.int()),
  fillPrice: z.nullable(priceString),
  gapped: z.boolean(),
  reason: z.nullable(z.enum(PENDING_REJECT_REASONS)),
});
export type PendingOrder = z.infer<typeof pendingOrderView>;

export const pendingListQuery = z.object({
  status: z.optional(z.enum(['open', 'history'])),
  page: z.optional(wireInt(1, 100_000)),
  size: z.optional(wireInt(1, 100)),
});
export const pendingPage = z.object({
  items: z.array(pendingOrderView),
  total: z.int(),
  page: z.int(),
  size: z.int(),
});
export type PendingPage = z.infer<typeof pendingPage>;

/** Which side of the quote a pending order watches, and whether a price has crossed its level. */
export function pendingCrossed(
  direction: (typeof DIRECTIONS)[number],
  type: PendingOrderType,
  level: bigint,
  bid: bigint,
  ask: bigint,
): boolean {
  if (direction === 'long') return type === 'limit' ? ask <= level : ask >= level;
  return type === 'limit' ? bid >= level : bid <= level;
}
