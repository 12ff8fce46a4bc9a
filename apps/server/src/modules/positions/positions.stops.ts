import { Code, type Position, priceTicks, unreasonableStops } from '@swx/contract';
import { ApiError, type Book } from '../../platform/http.ts';
import { closeSide } from '../market/pricing.ts';
import { trailingStart } from './positions.open.ts';
import { view } from './positions.reads.ts';
import { updateStops as saveStops } from './positions.repository.ts';
import { announce, instrument, owned, type PositionsContext, second } from './positions.shared.ts';

/**
 * Changes the stops of an open position, checked against the current price and its stop-out price.
 * `trailingDistance`: undefined keeps the trailing stop, null removes it; a new distance starts it
 * from the current closing price (the same distance keeps the level it has reached).
 */
export async function updateStops(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  id: number,
  stopLoss: string,
  takeProfit: string,
  trailingDistance?: string | null,
): Promise<Position> {
  const row = await owned(ctx, userId, book, id);
  if (row.status !== 'open' || row.planId !== null) throw new ApiError(Code.OPTIONS_PRODUCT_INCORRECT);
  const market = instrument(ctx, row.instrumentId);
  const t = second(ctx);
  const sl = priceTicks(stopLoss, row.priceDecimals);
  const tp = priceTicks(takeProfit, row.priceDecimals);
  if (sl === null || tp === null)
    throw new ApiError(Code.INVALID_INPUT, [
      ...(sl === null ? [{ path: 'stopLoss', issue: 'too_many_decimals' }] : []),
      ...(tp === null ? [{ path: 'takeProfit', issue: 'too_many_decimals' }] : []),
    ]);
  const closeTicks = closeSide(row.direction, ctx.quote(market, t));
  const check = unreasonableStops(row.direction, closeTicks, row.liquidationTicks, sl, tp);
  if (check.stopLoss || check.takeProfit)
    throw new ApiError(Code.INVALID_INPUT, [
      ...(check.stopLoss ? [{ path: 'stopLoss', issue: 'unreasonable' }] : []),
      ...(check.takeProfit ? [{ path: 'takeProfit', issue: 'unreasonable' }] : []),
    ]);
  // The trailing stop: undefined keeps it, null (or '') removes it, a distance (re)starts it here.
  const start = trailingStart({ direction: row.direction, trailingDistance }, row.priceDecimals, closeTicks);
  const trailing =
    trailingDistance === undefined
      ? undefined
      : start.trailingDistanceTicks === null || start.trailingLevelTicks === null
        ? null
        : { distanceTicks: start.trailingDistanceTicks, startTicks: start.trailingLevelTicks };
  if (!(await saveStops(ctx.db, { id, userId, book }, sl, tp, trailing)))
    return view(ctx, await owned(ctx, userId, book, id));
  await announce(ctx, { type: 'stops', id }, null);
  return view(ctx, await owned(ctx, userId, book, id));
}
