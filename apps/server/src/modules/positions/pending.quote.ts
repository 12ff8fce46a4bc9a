import {
  Code,
  DIRECTIONS,
  formatMinor,
  openingFigures,
  PENDING_ORDER_TYPES,
  type PendingOrder,
  type PendingTicketBody,
  parseCentilots,
  pendingCrossed,
  priceTicks,
  SETTLEMENT_SCALE,
  unreasonableStops,
} from '@swx/contract';
import { z } from 'zod/mini';
import { ApiError } from '../../platform/http.ts';
import { bigintText, type QuoteProduct } from '../products/quotes.ts';
import type { PendingRow } from './pending.repository.ts';
import { opening } from './positions.open.ts';
import type { PositionsContext } from './positions.shared.ts';

/** A pending order's number (its position, once filled, has its own). */
export const pendingNo = (id: number): string => `SWXP${id.toString().padStart(9, '0')}`;

/**
 * The figures of a pending order's quote: the ticket, checked by the one opening function at the
 * quote's tick, and what placing it holds (margin and fee as if it opened at its level). The fill
 * is priced anew by `opening` at the tick that crosses the level; the hold is what the customer
 * confirmed.
 */
export const pendingQuote = z.object({
  marketId: z.int(),
  type: z.enum(PENDING_ORDER_TYPES),
  direction: z.enum(DIRECTIONS),
  leverage: z.int(),
  autoCloseAfter: z.nullable(z.int()),
  centilots: bigintText,
  decimals: z.int(),
  levelTicks: bigintText,
  stopLossTicks: bigintText,
  takeProfitTicks: bigintText,
  bidTicks: bigintText,
  askTicks: bigintText,
  liquidationTicks: bigintText,
  notionalMinor: bigintText,
  marginMinor: bigintText,
  feeMinor: bigintText,
  expiresAt: z.nullable(z.string()),
  quoteTime: z.int(),
  unreasonable: z.array(z.enum(['stopLoss', 'takeProfit'])),
});
export type PendingQuote = z.output<typeof pendingQuote>;

/** Placing or re-holding a pending order: its figures are at its level, so a quote stands 30 s. */
export const PENDING: QuoteProduct<typeof pendingQuote> = {
  name: 'trading.pending.v1',
  validSeconds: 30,
  figures: pendingQuote,
};

/**
 * Checks a pending ticket at tick t and computes what it holds: the ticket as a market order's
 * (`opening`: market, leverage, size, stops' decimals, auto-close), then the level (its decimals,
 * the side of the market: 10070 when the price has already crossed it, so it would fill at once)
 * and the expiry (in the future), and margin and fee as if it opened at its level.
 */
export function atLevel(ctx: PositionsContext, body: PendingTicketBody, t: number): PendingQuote {
  const q = opening(ctx, { ...body, trailingDistance: null }, t);
  const levelTicks = priceTicks(body.level, q.decimals);
  if (levelTicks === null || levelTicks <= 0n)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'level', issue: 'too_many_decimals' }]);
  if (pendingCrossed(q.direction, body.type, levelTicks, q.bidTicks, q.askTicks))
    throw new ApiError(Code.PENDING_ORDER_INVALID, {
      reason: 'level_crossed',
      bid: formatMinor(q.bidTicks, q.decimals),
      ask: formatMinor(q.askTicks, q.decimals),
    });
  const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
  if (expiresAt !== null && Date.parse(expiresAt) <= ctx.now())
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'expiresAt', issue: 'in_the_past' }]);
  const size = { centilots: q.centilots, lotSize: q.lotSize, decimals: q.decimals };
  const rate = { num: q.conversionNum, den: q.conversionDen };
  const figures = openingFigures(q.direction, levelTicks, size, rate, BigInt(q.leverage), q.feePpm);
  const check = unreasonableStops(
    q.direction,
    levelTicks,
    figures.liquidationTicks,
    q.stopLossTicks,
    q.takeProfitTicks,
  );
  return {
    marketId: q.marketId,
    type: body.type,
    direction: q.direction,
    leverage: q.leverage,
    autoCloseAfter: q.autoCloseAfter,
    centilots: q.centilots,
    decimals: q.decimals,
    levelTicks,
    stopLossTicks: q.stopLossTicks,
    takeProfitTicks: q.takeProfitTicks,
    bidTicks: q.bidTicks,
    askTicks: q.askTicks,
    liquidationTicks: figures.liquidationTicks,
    notionalMinor: figures.notionalMinor,
    marginMinor: figures.marginMinor,
    feeMinor: figures.feeMinor,
    expiresAt,
    quoteTime: t,
    unreasonable: [
      ...(check.stopLoss ? ['stopLoss' as const] : []),
      ...(check.takeProfit ? ['takeProfit' as const] : []),
    ],
  };
}

const money = (minor: bigint) => formatMinor(minor, SETTLEMENT_SCALE);

/** What the ticket's confirm step shows of a pending quote (without its id). */
export function pendingFiguresOf(q: PendingQuote) {
  const d = q.decimals;
  return {
    quoteTime: q.quoteTime,
    bid: formatMinor(q.bidTicks, d),
    ask: formatMinor(q.askTicks, d),
    level: formatMinor(q.levelTicks, d),
    notional: money(q.notionalMinor),
    margin: money(q.marginMinor),
    fee: money(q.feeMinor),
    held: money(q.marginMinor + q.feeMinor),
    liquidationPrice: formatMinor(q.liquidationTicks, d),
    unreasonable: q.unreasonable,
  };
}

/** Is this the ticket that was quoted (the order repeats it)? */
export function samePendingTicket(q: PendingQuote, body: PendingTicketBody): boolean {
  return (
    body.marketId === q.marketId &&
    body.type === q.type &&
    body.direction === q.direction &&
    body.leverage === q.leverage &&
    (body.autoCloseAfter ?? null) === q.autoCloseAfter &&
    parseCentilots(body.lots) === q.centilots &&
    priceTicks(body.level, q.decimals) === q.levelTicks &&
    priceTicks(body.stopLoss, q.decimals) === q.stopLossTicks &&
    priceTicks(body.takeProfit, q.decimals) === q.takeProfitTicks &&
    (body.expiresAt ? new Date(body.expiresAt).toISOString() : null) === q.expiresAt
  );
}

/** A pending order on the wire. */
export function pendingView(row: PendingRow): PendingOrder {
  const d = row.priceDecimals;
  return {
    id: row.id,
    orderNo: pendingNo(row.id),
    marketId: row.instrumentId,
    code: row.code,
    book: row.book,
    type: row.type,
    direction: row.direction,
    lots: formatMinor(row.centilots, 2),
    leverage: row.leverage,
    level: formatMinor(row.levelTicks, d),
    stopLoss: formatMinor(row.stopLossTicks, d),
    takeProfit: formatMinor(row.takeProfitTicks, d),
    autoCloseAfter: row.autoCloseAfter,
    expiresAt: row.expiresAt,
    state: row.state,
    held: money(row.heldMinor),
    createdAt: row.createdAt,
    endedAt: row.endedAt,
    positionId: row.positionId,
    fillPrice: row.fillTicks === null ? null : formatMinor(row.fillTicks, d),
    gapped: row.fillTicks !== null && row.fillTicks !== row.levelTicks,
    reason: row.reason,
  };
}
