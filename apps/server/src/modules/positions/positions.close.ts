import {
  type CloseReason,
  Code,
  formatMinor,
  LANGUAGES,
  type Language,
  type Position,
  profitMinor,
  SETTLEMENT_SCALE,
  type Size,
  settlement,
} from '@swx/contract';
import { ApiError, type Book } from '../../platform/http.ts';
import { LedgerError, MARGIN, SMART } from '../ledger/ledger.service.ts';
import { closeSide } from '../market/pricing.ts';
import { view } from './positions.reads.ts';
import type { PositionClose, PositionRow } from './positions.repository.ts';
import {
  announce,
  conversion,
  instrument,
  orderNo,
  owned,
  type PositionsContext,
  second,
} from './positions.shared.ts';

/* Closing a position: by the customer at the current tick, or by a trigger at its tick (settle). */

/** Closes one of the customer's positions at the current tick's price. */
export async function close(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  id: number,
): Promise<Position> {
  const row = await owned(ctx, userId, book, id);
  if (row.status === 'closed') return view(ctx, row);
  // A plan's position is its strategy's to close (stopping the plan closes it).
  if (row.planId !== null) throw new ApiError(Code.OPTIONS_PRODUCT_INCORRECT);
  const market = instrument(ctx, row.instrumentId);
  const t = second(ctx);
  if (!ctx.market.isOpen(market, t)) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
  await settle(ctx, row, 'manual', t, closeSide(row.direction, ctx.quote(market, t)));
  return view(ctx, await owned(ctx, userId, book, id));
}

/** The closing's postings: the margin out, the payout back (to the plan's account for a plan's position), the rest to or from the house. */
async function closingPostings(ctx: PositionsContext, row: PositionRow, payoutMinor: bigint) {
  const { ledger } = ctx;
  const house = row.marginMinor - payoutMinor;
  return [
    { accountId: await ledger.accountId(row.book, row.userId, 'USDT', MARGIN), amount: -row.marginMinor },
    ...(payoutMinor > 0n
      ? [
          {
            // A plan's position pays back into the plan's account, where its margin came from.
            accountId:
              row.planId === null
                ? await ledger.walletAccount(row.book, row.userId, 'USDT')
                : await ledger.accountId(row.book, row.userId, 'USDT', SMART),
            amount: payoutMinor,
          },
        ]
      : []),
    ...(house !== 0n
      ? [{ accountId: await ledger.systemAccount(row.book, 'USDT', 'house_pnl'), amount: house }]
      : []),
  ];
}

/**
 * Settles a position at tick t and price `closeTicks`: the margin comes back with the profit, or
 * less the loss; a loss beyond the margin is absorbed by the house and recorded. One entry with
 * key `trade-close:<id>`: a second close of the same position (another node, a racing trigger)
 * is refused by the ledger and changes nothing. Returns false when someone else closed it first.
 */
export async function settle(
  ctx: PositionsContext,
  row: PositionRow,
  reason: CloseReason,
  t: number,
  closeTicks: bigint,
): Promise<boolean> {
  const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: row.priceDecimals };
  const rate = conversion(ctx, instrument(ctx, row.instrumentId), t);
  const profit = profitMinor(row.direction, row.openTicks, closeTicks, size, rate);
  const { payoutMinor, absorbedMinor } = settlement(row.marginMinor, profit);
  const postings = await closingPostings(ctx, row, payoutMinor);
  const closed: PositionClose = {
    id: row.id,
    reason,
    closeTicks,
    closeTick: t,
    profitMinor: profit,
    absorbedMinor,
    trailingLevelTicks: row.trailingLevelTicks ?? null,
  };
  try {
    const result = await ctx.ledger.transfer({
      book: row.book,
      kind: 'trade_pnl',
      idempotencyKey: `trade-close:${row.id}`,
      actor: reason === 'manual' ? `user:${row.userId}` : 'system:trading',
      reference: `position:${row.id}`,
      reason: absorbedMinor > 0n ? `${reason}; loss beyond margin absorbed: ${absorbedMinor}` : reason,
      postings,
      attach: ctx.attachments.closes.with(closed),
    });
    // The same close already done (another engine at the same tick): nothing more to do.
    if (result.replayed) return false;
  } catch (error) {
    if (error instanceof LedgerError && error.reason === 'idempotency_conflict') return false;
    throw error;
  }
  await announce(ctx, { type: 'closed', id: row.id }, null);
  // A plan's trades are told in the plan's own notices (daily income, end), not one by one.
  if (reason !== 'manual' && row.planId === null) await notifyClosed(ctx, row, reason, closeTicks, profit);
  return true;
}

async function notifyClosed(
  ctx: PositionsContext,
  row: PositionRow,
  reason: CloseReason,
  closeTicks: bigint,
  profit: bigint,
): Promise<void> {
  if (!ctx.notices) return;
  const language = (LANGUAGES as readonly string[]).includes(row.language)
    ? (row.language as Language)
    : 'en';
  try {
    await ctx.notices.notify(row.userId, language, `position_${reason}` as 'position_take_profit', {
      order: orderNo(row.id),
      code: row.code,
      price: formatMinor(closeTicks, row.priceDecimals),
      // Exact: the notice formats it as every screen does (formatDisplay), in the reader's language.
      profit: formatMinor(profit, SETTLEMENT_SCALE),
      book: row.book,
    });
  } catch (error) {
    ctx.logger?.warn({ err: error, position: row.id }, 'trading: close notice failed');
  }
}
