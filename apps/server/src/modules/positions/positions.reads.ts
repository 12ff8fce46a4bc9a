import {
  Code,
  type Conversion,
  formatMinor,
  isStoppedOut,
  liquidationTicks,
  marginLevelPercent,
  type OrderPage,
  type Position,
  profitMinor,
  SETTLEMENT_SCALE,
  type Size,
  type TradingTerms,
} from '@swx/contract';
import { ApiError, type Book } from '../../platform/http.ts';
import { closeSide } from '../market/pricing.ts';
import { termsView } from '../market/terms.ts';
import { type PositionRow, positionsOf, positionsOpenAtTick } from './positions.repository.ts';
import {
  conversion,
  instrument,
  orderNo,
  owned,
  type PositionsContext,
  second,
  termsOf,
} from './positions.shared.ts';

/* Reading positions: the terms of a market, a position on the wire, a customer's positions, stop-out figures. */

export function terms(ctx: PositionsContext, marketId: number): TradingTerms {
  const market = ctx.market.instrumentById(marketId);
  if (!market) throw new ApiError(Code.NOT_FOUND);
  return termsView(market, termsOf(ctx, market), ctx.market.isOpen(market, second(ctx)));
}

export async function get(ctx: PositionsContext, userId: number, book: Book, id: number): Promise<Position> {
  return view(ctx, await owned(ctx, userId, book, id));
}

export async function list(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  query: { status?: 'open' | 'closed'; page?: number; size?: number },
): Promise<OrderPage> {
  const page = query.page ?? 1;
  const size = query.size ?? 20;
  const { rows, total } = await positionsOf(ctx.db, {
    userId,
    book,
    ...(query.status ? { status: query.status } : {}),
    offset: (page - 1) * size,
    limit: size,
  });
  return { items: rows.map((r) => view(ctx, r)), total, page, size };
}

/** The customer's own positions (not a plan's) open at an instant, by the market seconds they opened and closed at. */
export async function openAt(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  at: string,
): Promise<Position[]> {
  const tick = Math.floor(Date.parse(at) / 1000);
  return (await positionsOpenAtTick(ctx.db, { userId, book, tick })).map((r) => view(ctx, r));
}

/** An open position's mark price, live profit and margin level now; none without a fresh price. */
function markOf(ctx: PositionsContext, row: PositionRow, size: Size) {
  const market = ctx.market.instrumentById(row.instrumentId);
  // No fresh price (a real source gone stale): no mark, rather than one from an old price.
  if (!market || ctx.market.source.quote(market, second(ctx)) === null) return null;
  const t = second(ctx);
  const mark = closeSide(row.direction, ctx.quote(market, t));
  const profit = profitMinor(row.direction, row.openTicks, mark, size, conversion(ctx, market, t));
  return {
    profit,
    markPrice: formatMinor(mark, row.priceDecimals),
    marginLevel: marginLevelPercent(row.marginMinor, profit),
  };
}

/** The position on the wire; an open one carries its mark price, live profit and margin level now. */
export function view(ctx: PositionsContext, row: PositionRow): Position {
  const d = row.priceDecimals;
  const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: d };
  const openConversion = { num: row.conversionNum, den: row.conversionDen };
  const money = (minor: bigint) => formatMinor(minor, SETTLEMENT_SCALE);
  const mark = row.status === 'open' ? markOf(ctx, row, size) : null;
  return {
    id: row.id,
    orderNo: orderNo(row.id),
    marketId: row.instrumentId,
    code: row.code,
    book: row.book,
    direction: row.direction,
    lots: formatMinor(row.centilots, 2),
    leverage: row.leverage,
    openPrice: formatMinor(row.openTicks, d),
    closePrice: row.closeTicks === null ? null : formatMinor(row.closeTicks, d),
    openTime: row.openedAt,
    closeTime: row.closedAt,
    stopLoss: formatMinor(row.stopLossTicks, d),
    takeProfit: formatMinor(row.takeProfitTicks, d),
    trailingDistance: row.trailingDistanceTicks === null ? null : formatMinor(row.trailingDistanceTicks, d),
    trailingLevel: row.trailingLevelTicks === null ? null : formatMinor(row.trailingLevelTicks, d),
    autoCloseAt: row.expiresTick === null ? null : new Date(row.expiresTick * 1000).toISOString(),
    notional: money(row.notionalMinor),
    margin: money(row.marginMinor),
    fee: money(row.feeMinor),
    expectedReturn: money(
      profitMinor(row.direction, row.openTicks, row.takeProfitTicks, size, openConversion),
    ),
    lossAtStopLoss: money(profitMinor(row.direction, row.openTicks, row.stopLossTicks, size, openConversion)),
    liquidationPrice: formatMinor(row.liquidationTicks, d),
    status: row.status,
    closeReason: row.closeReason,
    profit: money(mark?.profit ?? row.profitMinor ?? 0n),
    absorbed: money(row.absorbedMinor),
    markPrice: mark?.markPrice ?? null,
    marginLevel: mark?.marginLevel ?? null,
  };
}

/** A position's stop-out price at another conversion rate of its quote currency. */
export function liquidationAt(row: PositionRow, rate: Conversion): bigint {
  const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: row.priceDecimals };
  return liquidationTicks(row.direction, row.openTicks, row.marginMinor, size, rate);
}

/** Is a position at or below the stop-out level at tick t (exact, with the conversion of t)? */
export function stoppedOutAt(
  ctx: PositionsContext,
  row: PositionRow,
  t: number,
  closeTicks: bigint,
): boolean {
  const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: row.priceDecimals };
  const rate = conversion(ctx, instrument(ctx, row.instrumentId), t);
  return isStoppedOut(row.marginMinor, profitMinor(row.direction, row.openTicks, closeTicks, size, rate));
}
