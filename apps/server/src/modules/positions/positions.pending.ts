import {
  Code,
  type EditPendingBody,
  formatMinor,
  LANGUAGES,
  type Language,
  type PendingFigures,
  type PendingOrder,
  type PendingPage,
  type PendingRejectReason,
  type PendingTicketBody,
  type PlacePendingBody,
  SETTLEMENT_SCALE,
} from '@swx/contract';
import { ApiError, type Book } from '../../platform/http.ts';
import { LedgerError } from '../ledger/ledger.service.ts';
import type { QuoteHolder } from '../products/quotes.ts';
import {
  atLevel,
  type PendingQuote,
  pendingFiguresOf,
  pendingNo,
  pendingView,
  samePendingTicket,
} from './pending.quote.ts';
import {
  claimFill,
  dueForJob,
  editOpen,
  endFill,
  endOpen,
  markReleased,
  type PendingRow,
  pendingById,
  pendingByRequest,
  pendingOf,
  pendingPageOf,
  unreleased,
} from './pending.repository.ts';
import { opening, postOpening } from './positions.open.ts';
import { PENDING_TOPIC, type PositionsContext, second } from './positions.shared.ts';

/*
 * Pending entry orders (issue 38): placed at a quote of what they hold (margin and fee at the
 * level, a ledger hold), filled by the trigger engine at the first tick that crosses the level
 * through the same opening as a market order, or cancelled, expired or rejected (the hold voided).
 * Every change of state is one conditional update from `open` (or, for a fill, `filling`), so a
 * cancel racing a fill, or two nodes racing one fill, end it one way, once.
 */

const SYSTEM = 'system:pending-orders';

/** What placing the ticket would hold, and the quote that places it (signed for the customer, in the book). */
export function previewPending(
  ctx: PositionsContext,
  body: PendingTicketBody,
  holder: QuoteHolder,
): PendingFigures {
  const t = second(ctx);
  const q = atLevel(ctx, body, t);
  return { ...ctx.pending.quotes.issue(holder, t, q), ...pendingFiguresOf(q) };
}

/** Places the order the customer confirmed: its hold and its row in one ledger operation; 10070 if the market crossed the level meanwhile. */
export function placePending(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  language: Language,
  body: PlacePendingBody,
): Promise<PendingOrder> {
  return ctx.pending.quotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      requestKey: `${userId}:${book}:${body.requestId}`,
      replay: async () => {
        const done = await pendingByRequest(ctx.db, userId, book, body.requestId);
        return done ? pendingView(done) : null;
      },
      post: async ({ figures: q }) => {
        if (!samePendingTicket(q, body))
          throw new ApiError(Code.INVALID_INPUT, [{ path: 'quoteId', issue: 'other_ticket' }]);
        if (q.unreasonable.length > 0)
          throw new ApiError(
            Code.INVALID_INPUT,
            q.unreasonable.map((path) => ({ path, issue: 'unreasonable' })),
          );
        // Still on the right side of the market now (it is checked again, and filled, by the engine).
        const now = atLevel(ctx, body, second(ctx));
        return pendingView(
          await hold(ctx, { userId, book, language, requestId: body.requestId }, q, now.quoteTime),
        );
      },
    },
  );
}

async function hold(
  ctx: PositionsContext,
  order: { userId: number; book: Book; language: Language; requestId: string },
  q: PendingQuote,
  t: number,
): Promise<PendingRow> {
  const { userId, book, requestId } = order;
  const market = ctx.market.instrumentById(q.marketId);
  const held = await ctx.ledger.hold({
    book,
    accountId: await ctx.ledger.walletAccount(book, userId, 'USDT'),
    amount: q.marginMinor + q.feeMinor,
    idempotencyKey: `pending-order:${userId}:${book}:${requestId}`,
    reference: `pending-order:${requestId}`,
    actor: `user:${userId}`,
    attach: ctx.attachments.places.with({
      userId,
      book,
      requestId,
      instrumentId: q.marketId,
      code: market?.code ?? '',
      type: q.type,
      direction: q.direction,
      centilots: q.centilots,
      leverage: q.leverage,
      priceDecimals: q.decimals,
      levelTicks: q.levelTicks,
      stopLossTicks: q.stopLossTicks,
      takeProfitTicks: q.takeProfitTicks,
      autoCloseAfter: q.autoCloseAfter,
      language: order.language,
      heldMinor: q.marginMinor + q.feeMinor,
      expiresAt: q.expiresAt,
      placedTick: t,
    }),
  });
  const row = await pendingByRequest(ctx.db, userId, book, requestId);
  if (!row || row.holdId !== held.holdId) throw new Error(`pending order of hold ${held.holdId} missing`);
  if (held.attached !== undefined) await changed(ctx, row.id);
  return row;
}

/** Every node's engine hears of a change: this one directly, the others through the bus. */
async function changed(ctx: PositionsContext, id: number): Promise<void> {
  for (const listener of ctx.pending.listeners) listener(id);
  try {
    await ctx.bus.publish(PENDING_TOPIC, { id, origin: ctx.origin });
  } catch (error) {
    ctx.logger?.warn({ err: error, id }, 'trading: pending order event not published');
  }
}

async function owned(ctx: PositionsContext, userId: number, book: Book, id: number): Promise<PendingRow> {
  const row = await pendingOf(ctx.db, { id, userId, book });
  if (!row) throw new ApiError(Code.NOT_FOUND);
  return row;
}

const notOpen = (row: PendingRow) =>
  new ApiError(Code.PENDING_ORDER_INVALID, { reason: 'not_open', state: row.state });
const stamp = (ctx: PositionsContext) => new Date(ctx.now()).toISOString();

export async function getPending(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  id: number,
): Promise<PendingOrder> {
  return pendingView(await owned(ctx, userId, book, id));
}

export async function listPending(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  query: { status?: 'open' | 'history'; page?: number; size?: number },
): Promise<PendingPage> {
  const page = query.page ?? 1;
  const size = query.size ?? 20;
  const found = await pendingPageOf(
    ctx.db,
    { userId, book, history: query.status === 'history' },
    (page - 1) * size,
    size,
  );
  return { items: found.items.map(pendingView), total: found.total, page, size };
}

/** Cancels an open order (10070 once it is filling or ended) and releases its hold. */
export async function cancelPending(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  id: number,
): Promise<PendingOrder> {
  const row = await owned(ctx, userId, book, id);
  const ended = await endOpen(ctx.db, row.id, 'cancelled', stamp(ctx));
  if (!ended) throw notOpen((await pendingById(ctx.db, row.id)) ?? row);
  await release(ctx, ended);
  await changed(ctx, ended.id);
  return pendingView((await pendingById(ctx.db, ended.id)) ?? ended);
}

/** Voids an ended order's hold (once, by its key); a failure is left for the job to try again. */
async function release(ctx: PositionsContext, row: PendingRow): Promise<void> {
  try {
    await ctx.ledger.voidHold({
      holdId: row.holdId,
      idempotencyKey: `pending-release:${row.id}`,
      actor: SYSTEM,
    });
    await markReleased(ctx.db, row.id);
  } catch (error) {
    ctx.logger?.warn(
      { err: error, id: row.id },
      'trading: pending order hold not released (the job retries)',
    );
  }
}

/**
 * Changes an open order's level, stops or expiry, checked as a new ticket at the current tick. When
 * what it holds changes, the customer confirms a quote of the new figures (`quoteId`): the new
 * hold is placed, the order moved onto it while still open, then the old hold voided.
 */
export async function editPending(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  body: EditPendingBody,
): Promise<PendingOrder> {
  const row = await owned(ctx, userId, book, body.id);
  if (row.state !== 'open') throw notOpen(row);
  const ticket: PendingTicketBody = {
    ...ticketOf(row),
    level: body.level,
    stopLoss: body.stopLoss,
    takeProfit: body.takeProfit,
    expiresAt: body.expiresAt ?? null,
  };
  const q = atLevel(ctx, ticket, second(ctx));
  if (q.unreasonable.length > 0)
    throw new ApiError(
      Code.INVALID_INPUT,
      q.unreasonable.map((path) => ({ path, issue: 'unreasonable' })),
    );
  const heldMinor = q.marginMinor + q.feeMinor;
  let holdId = row.holdId;
  if (heldMinor !== row.heldMinor) holdId = await rehold(ctx, row, ticket, heldMinor, body.quoteId);
  const change = { ...q, heldMinor, holdId, levelTicks: q.levelTicks };
  const edited = await editOpen(ctx.db, row.id, row.holdId, change);
  if (!edited) {
    if (holdId !== row.holdId)
      await ctx.ledger.voidHold({ holdId, idempotencyKey: `pending-unedit:${holdId}`, actor: SYSTEM });
    throw notOpen((await pendingById(ctx.db, row.id)) ?? row);
  }
  if (holdId !== row.holdId)
    await ctx.ledger.voidHold({
      holdId: row.holdId,
      idempotencyKey: `pending-edited:${row.holdId}`,
      actor: SYSTEM,
    });
  await changed(ctx, row.id);
  return pendingView(edited);
}

/** The new hold of an edit that changes what is held: only at a quote of exactly the edit's figures. */
async function rehold(
  ctx: PositionsContext,
  row: PendingRow,
  ticket: PendingTicketBody,
  heldMinor: bigint,
  quoteId: string | undefined,
): Promise<number> {
  if (!quoteId) throw new ApiError(Code.INVALID_INPUT, [{ path: 'quoteId', issue: 'required' }]);
  const holder = { customerId: row.userId, book: row.book };
  return ctx.pending.quotes.commit(quoteId, holder, {
    requestKey: `edit:${row.id}:${row.holdId}`,
    replay: async () => null,
    post: async ({ figures }) => {
      if (!samePendingTicket(figures, ticket) || figures.marginMinor + figures.feeMinor !== heldMinor)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'quoteId', issue: 'other_ticket' }]);
      const held = await ctx.ledger.hold({
        book: row.book,
        accountId: await ctx.ledger.walletAccount(row.book, row.userId, 'USDT'),
        amount: heldMinor,
        idempotencyKey: `pending-edit:${row.id}:${row.holdId}`,
        reference: `pending-order:${row.requestId}`,
        actor: `user:${row.userId}`,
      });
      return held.holdId;
    },
  });
}

/** The order as a market ticket (the fill opens it through `opening`). */
function ticketOf(row: PendingRow): PendingTicketBody {
  const d = row.priceDecimals;
  return {
    marketId: row.instrumentId,
    type: row.type,
    direction: row.direction,
    lots: formatMinor(row.centilots, 2),
    leverage: row.leverage,
    stopLoss: formatMinor(row.stopLossTicks, d),
    takeProfit: formatMinor(row.takeProfitTicks, d),
    autoCloseAfter: row.autoCloseAfter,
    level: formatMinor(row.levelTicks, d),
    expiresAt: row.expiresAt,
  };
}

/**
 * Fills an order the engine saw crossed at tick t at price `ticks`: claims it (open -> filling,
 * once across nodes and against a cancel), then completes the fill. Answers the order as it ended,
 * or null when someone else claimed or ended it first.
 */
export async function fillPending(
  ctx: PositionsContext,
  id: number,
  t: number,
  ticks: bigint,
): Promise<PendingRow | null> {
  const claimed = await claimFill(ctx.db, id, t, ticks);
  return claimed ? completeFill(ctx, claimed) : null;
}

/**
 * A claimed fill, from its recorded tick (idempotent: the job completes a fill a stopped node left).
 * The position opens through the market order's `opening` and `postOpening` at the crossing tick,
 * its hold released in the opening's own ledger operation: the held money opens it (what the
 * opening does not take is free again), and nothing spent meanwhile can take it in between. If the
 * held and free money no longer cover the margin and fee at that price (a gap), or the stops are
 * unreasonable there, it is rejected and the hold voided.
 */
async function completeFill(ctx: PositionsContext, o: PendingRow): Promise<PendingRow | null> {
  const t = o.fillTick as number;
  let q: ReturnType<typeof opening> | null = null;
  let reason: PendingRejectReason | null = null;
  try {
    q = opening(ctx, { ...ticketOf(o), trailingDistance: null }, t);
    if (q.unreasonable.length > 0) reason = 'unreasonable_stops';
  } catch (error) {
    if (!(error instanceof ApiError) || error.apiCode !== Code.NOT_AVAILABLE_FOR_TRADING) throw error;
    reason = 'market_closed';
  }
  let positionId: number | null = null;
  if (q && reason === null) {
    try {
      const order = { userId: o.userId, book: o.book, language: languageOf(o), requestId: `pending:${o.id}` };
      const opener = { planId: null, liveTick: t, releaseHold: o.holdId };
      positionId = (await postOpening(ctx, order, q, opener)).id;
    } catch (error) {
      // hold_not_pending: an earlier run of this fill released the hold without opening (a refusal).
      if (
        !(error instanceof LedgerError) ||
        !['insufficient_funds', 'hold_not_pending'].includes(error.reason)
      )
        throw error;
      reason = 'insufficient_funds';
    }
  }
  if (positionId === null) await voidIfPending(ctx, o);
  const at = new Date(t * 1000).toISOString();
  const ended = await endFill(
    ctx.db,
    o.id,
    positionId !== null ? { positionId } : { reason: reason ?? 'market_closed' },
    at,
  );
  if (ended) await notify(ctx, ended);
  return ended;
}

/** Voids the hold of a fill that opens nothing (once, by its key; a hold already released stays so). */
async function voidIfPending(ctx: PositionsContext, o: PendingRow): Promise<void> {
  try {
    await ctx.ledger.voidHold({ holdId: o.holdId, idempotencyKey: `pending-filling:${o.id}`, actor: SYSTEM });
  } catch (error) {
    if (!(error instanceof LedgerError) || error.reason !== 'hold_not_pending') throw error;
  }
}

/** pending_filled (pending_filled_gapped away from its level), pending_expired, pending_rejected_<reason>. */
function noticeKind(row: PendingRow): string {
  if (row.state === 'rejected') return `pending_rejected_${row.reason}`;
  if (row.state === 'filled' && row.fillTicks !== row.levelTicks) return 'pending_filled_gapped';
  return `pending_${row.state}`;
}

const languageOf = (row: PendingRow): Language =>
  (LANGUAGES as readonly string[]).includes(row.language) ? (row.language as Language) : 'en';

/** The customer's notice of a fill, a rejection or an expiry, in the language they placed it in. */
async function notify(ctx: PositionsContext, row: PendingRow): Promise<void> {
  if (!ctx.notices) return;
  const d = row.priceDecimals;
  try {
    await ctx.notices.notify(row.userId, languageOf(row), noticeKind(row), {
      order: pendingNo(row.id),
      code: row.code,
      level: formatMinor(row.levelTicks, d),
      price: row.fillTicks === null ? '' : formatMinor(row.fillTicks, d),
      held: formatMinor(row.heldMinor, SETTLEMENT_SCALE),
      book: row.book,
    });
  } catch (error) {
    ctx.logger?.warn({ err: error, id: row.id }, 'trading: pending order notice failed');
  }
}

/**
 * The job's sweep: expires open orders past their date (voiding their holds), completes fills a
 * stopped node left claimed (older than a minute), and voids holds whose release failed.
 */
export async function sweepPending(
  ctx: PositionsContext,
): Promise<{ expired: number; completed: number; released: number }> {
  const done = { expired: 0, completed: 0, released: 0 };
  const at = stamp(ctx);
  for (const row of await dueForJob(ctx.db, at, 1000)) {
    if (row.state === 'filling') {
      if ((row.fillTick ?? 0) > second(ctx) - 60) continue;
      if (await completeFill(ctx, row)) done.completed += 1;
      continue;
    }
    const ended = await endOpen(ctx.db, row.id, 'expired', at);
    if (!ended) continue;
    done.expired += 1;
    await release(ctx, ended);
    await notify(ctx, ended);
    await changed(ctx, ended.id);
  }
  for (const row of await unreleased(ctx.db, 1000)) {
    await release(ctx, row);
    done.released += 1;
  }
  return done;
}
