import {
  AUTO_CLOSE_CHOICES,
  Code,
  type Direction,
  formatMinor,
  type Language,
  type OpenBody,
  openingFigures,
  type Position,
  parseCentilots,
  priceTicks,
  type Size,
  type TicketBody,
  type TicketFigures,
  trailedLevel,
  trailingDistanceValid,
  unreasonableStops,
} from '@swx/contract';
import { ApiError, type Book } from '../../platform/http.ts';
import { type EntryResult, LedgerError, MARGIN, SMART } from '../ledger/ledger.service.ts';
import { closeSide, openSide } from '../market/pricing.ts';
import type { QuoteHolder, Redeemed } from '../products/quotes.ts';
import { type OpeningQuote, sameTicket, ticketFiguresOf } from './positions.quote.ts';
import { view } from './positions.reads.ts';
import {
  type NewPosition,
  openedRow,
  type PositionRow,
  positionByOpenEntry,
  positionOf,
} from './positions.repository.ts';
import {
  announce,
  byRequest,
  conversion,
  instrument,
  type PositionsContext,
  second,
  termsOf,
} from './positions.shared.ts';

/* Opening a position: the one pricing function, the quote, the commit, and a smart plan's openings. */

/**
 * The one pricing function of an opening: checks a ticket and computes every figure at tick t
 * (codes of spec §8 for what cannot open). The preview shows these figures and signs them into
 * its quote; the order opens with exactly them.
 */
export function opening(ctx: PositionsContext, body: TicketBody, t: number): OpeningQuote {
  const market = instrument(ctx, body.marketId);
  const terms = termsOf(ctx, market);
  if (!terms.leverages.includes(body.leverage)) throw new ApiError(Code.OPTIONS_PRODUCT_INCORRECT);
  const centilots = parseCentilots(body.lots);
  if (centilots === null || centilots < terms.minCentilots || centilots > terms.maxCentilots)
    throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT);
  if (
    body.autoCloseAfter !== undefined &&
    body.autoCloseAfter !== null &&
    !(AUTO_CLOSE_CHOICES as readonly number[]).includes(body.autoCloseAfter)
  )
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'autoCloseAfter', issue: 'invalid_value' }]);
  if (!ctx.market.isOpen(market, t)) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
  const stopLossTicks = priceTicks(body.stopLoss, market.decimals);
  const takeProfitTicks = priceTicks(body.takeProfit, market.decimals);
  const malformed = [
    ...(stopLossTicks === null ? [{ path: 'stopLoss', issue: 'too_many_decimals' }] : []),
    ...(takeProfitTicks === null ? [{ path: 'takeProfit', issue: 'too_many_decimals' }] : []),
  ];
  if (stopLossTicks === null || takeProfitTicks === null) throw new ApiError(Code.INVALID_INPUT, malformed);
  const size: Size = { centilots, lotSize: terms.lotSize, decimals: market.decimals };
  const quote = ctx.quote(market, t);
  const rate = conversion(ctx, market, t);
  const openTicks = openSide(body.direction, quote);
  const figures = openingFigures(body.direction, openTicks, size, rate, BigInt(body.leverage), terms.feePpm);
  if (figures.marginMinor <= 0n) throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT);
  const closeTicks = closeSide(body.direction, quote);
  const check = unreasonableStops(
    body.direction,
    closeTicks,
    figures.liquidationTicks,
    stopLossTicks,
    takeProfitTicks,
  );
  return {
    marketId: market.id,
    direction: body.direction,
    leverage: body.leverage,
    autoCloseAfter: body.autoCloseAfter ?? null,
    centilots,
    lotSize: terms.lotSize,
    decimals: market.decimals,
    bidTicks: quote.bid,
    askTicks: quote.ask,
    openTicks,
    stopLossTicks,
    takeProfitTicks,
    liquidationTicks: figures.liquidationTicks,
    conversionNum: rate.num,
    conversionDen: rate.den,
    notionalMinor: figures.notionalMinor,
    marginMinor: figures.marginMinor,
    feeMinor: figures.feeMinor,
    feePpm: terms.feePpm,
    quoteTime: t,
    unreasonable: [
      ...(check.stopLoss ? ['stopLoss' as const] : []),
      ...(check.takeProfit ? ['takeProfit' as const] : []),
    ],
    ...trailingStart(body, market.decimals, closeTicks),
  };
}

/**
 * A ticket's trailing stop: its distance and where it starts at this closing price (both null
 * without one); 10026 for a distance with too many decimals, or not above zero, or (a long's) not
 * below the price.
 */
export function trailingStart(
  body: Pick<TicketBody, 'direction' | 'trailingDistance'>,
  decimals: number,
  closeTicks: bigint,
): { trailingDistanceTicks: bigint | null; trailingLevelTicks: bigint | null } {
  if (!body.trailingDistance) return { trailingDistanceTicks: null, trailingLevelTicks: null };
  const distance = priceTicks(body.trailingDistance, decimals);
  if (distance === null)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'trailingDistance', issue: 'too_many_decimals' }]);
  if (!trailingDistanceValid(body.direction, closeTicks, distance))
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'trailingDistance', issue: 'unreasonable' }]);
  return {
    trailingDistanceTicks: distance,
    trailingLevelTicks: trailedLevel(body.direction, null, closeTicks, distance),
  };
}

/**
 * Every figure of a ticket at the current tick, and the quote that opens it: signed for the
 * customer who asked (none without a session) in the request's book. Nothing is opened.
 */
export function preview(ctx: PositionsContext, body: TicketBody, holder: QuoteHolder): TicketFigures {
  const t = second(ctx);
  const quote = opening(ctx, body, t);
  return { ...ctx.quotes.issue(holder, t, quote), ...ticketFiguresOf(quote) };
}

/**
 * Opens a position at exactly the figures of the quote the customer confirmed (`quoteId`), or
 * refuses: 10032 when the quote expired, 10011 when the balance no longer covers it, 10026 /
 * 10028 for a quote that is not this customer's in this book, or not of this ticket.
 */
export async function open(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  language: Language,
  body: OpenBody,
): Promise<Position> {
  return ctx.quotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      requestKey: `${userId}:${book}:${body.requestId}`,
      // A retry of an order that already opened answers with it, however late.
      replay: async () => {
        const existing = await byRequest(ctx, userId, book, body.requestId);
        return existing ? view(ctx, existing) : null;
      },
      post: (quote) => post(ctx, userId, book, language, body, quote),
    },
  );
}

/** The ledger entry of a confirmed quote: wallet −(margin + fee), margin +margin, fees +fee; the position attached. */
async function post(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  language: Language,
  body: OpenBody,
  quote: Redeemed<OpeningQuote>,
): Promise<Position> {
  const q = quote.figures;
  if (!sameTicket(q, body))
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'quoteId', issue: 'other_ticket' }]);
  if (q.unreasonable.length > 0)
    throw new ApiError(
      Code.INVALID_INPUT,
      q.unreasonable.map((path) => ({ path, issue: 'unreasonable' })),
    );
  const now = second(ctx);
  if (!ctx.market.isOpen(instrument(ctx, q.marketId), now))
    throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
  return postOpening(ctx, { userId, book, language, requestId: body.requestId }, q, {
    planId: null,
    liveTick: now,
  });
}

/** What a smart plan's engine decided to open at tick t. */
export type PlanTicket = {
  marketId: number;
  t: number;
  direction: Direction;
  centilots: bigint;
  leverage: number;
  stopLossTicks: bigint;
  takeProfitTicks: bigint;
  marginMinor: bigint;
  feeMinor: bigint;
};

/**
 * Opens a smart plan's position at tick t with the size, leverage and stops its engine decided:
 * priced by the one pricing function (`opening`) at t, so the figures are those the engine
 * computed from the same tick (checked: a difference is a broken invariant and opens nothing).
 * The margin and fee come from the customer's smart account; one position per (plan, request).
 */
export async function openForPlan(
  ctx: PositionsContext,
  plan: { planId: number; userId: number; language: Language },
  ticket: PlanTicket,
  requestId: string,
): Promise<PositionRow> {
  const market = instrument(ctx, ticket.marketId);
  const done = await byRequest(ctx, plan.userId, 'live', requestId);
  if (done) return done;
  const q = opening(
    ctx,
    {
      marketId: ticket.marketId,
      direction: ticket.direction,
      lots: formatMinor(ticket.centilots, 2),
      leverage: ticket.leverage,
      stopLoss: formatMinor(ticket.stopLossTicks, market.decimals),
      takeProfit: formatMinor(ticket.takeProfitTicks, market.decimals),
    },
    ticket.t,
  );
  if (q.marginMinor !== ticket.marginMinor || q.feeMinor !== ticket.feeMinor || q.unreasonable.length > 0)
    throw new Error(`plan ${plan.planId}: the engine's opening at ${ticket.t} differs from trading's`);
  const order = { userId: plan.userId, book: 'live' as const, language: plan.language, requestId };
  const opened = await postOpening(ctx, order, q, { planId: plan.planId, liveTick: ticket.t });
  const row = await positionOf(ctx.db, { id: opened.id, userId: plan.userId, book: 'live' });
  if (!row) throw new Error(`position ${opened.id} missing`);
  return row;
}

/** Whose order it is: the customer, the book, their language (for notices) and the order's request id. */
export type Order = { userId: number; book: Book; language: Language; requestId: string };
/**
 * Who opens it (a smart plan, or the customer: null) and the tick it goes live at; `releaseHold`: a
 * pending order's hold, released in the opening's own ledger operation (its money opens the position).
 */
type Opener = { planId: number | null; liveTick: number; releaseHold?: number };

/** The position an opening writes: the quote's figures, with the order and its opener. */
function newPosition(ctx: PositionsContext, order: Order, q: OpeningQuote, opts: Opener): NewPosition {
  const market = instrument(ctx, q.marketId);
  return {
    userId: order.userId,
    book: order.book,
    instrumentId: market.id,
    code: market.code,
    direction: q.direction,
    centilots: q.centilots,
    lotSize: q.lotSize,
    leverage: q.leverage,
    priceDecimals: q.decimals,
    openTicks: q.openTicks,
    stopLossTicks: q.stopLossTicks,
    takeProfitTicks: q.takeProfitTicks,
    liquidationTicks: q.liquidationTicks,
    conversionNum: q.conversionNum,
    conversionDen: q.conversionDen,
    notionalMinor: q.notionalMinor,
    marginMinor: q.marginMinor,
    feeMinor: q.feeMinor,
    feePpm: Number(q.feePpm),
    openTick: q.quoteTime,
    liveTick: opts.liveTick,
    expiresTick: q.autoCloseAfter ? opts.liveTick + q.autoCloseAfter : null,
    language: order.language,
    requestId: order.requestId,
    planId: opts.planId,
    trailingDistanceTicks: q.trailingDistanceTicks ?? null,
    trailingLevelTicks: q.trailingLevelTicks ?? null,
  };
}

/** The opening's postings: wallet (or smart account) −(margin + fee), margin +margin, fees +fee. */
async function openingPostings(ctx: PositionsContext, order: Order, q: OpeningQuote, planId: number | null) {
  const { ledger } = ctx;
  const { book, userId } = order;
  const funding =
    planId === null
      ? await ledger.walletAccount(book, userId, 'USDT')
      : await ledger.accountId(book, userId, 'USDT', SMART);
  return [
    { accountId: funding, amount: -(q.marginMinor + q.feeMinor) },
    { accountId: await ledger.accountId(book, userId, 'USDT', MARGIN), amount: q.marginMinor },
    ...(q.feeMinor > 0n
      ? [{ accountId: await ledger.systemAccount(book, 'USDT', 'fees'), amount: q.feeMinor }]
      : []),
  ];
}

/**
 * The ledger entry of an opening, the position attached; the same order again answers the first.
 * A market order's commit, a smart plan's opening and a pending order's fill (positions.pending.ts) all open here.
 */
export async function postOpening(
  ctx: PositionsContext,
  order: Order,
  q: OpeningQuote,
  opts: Opener,
): Promise<Position> {
  const { userId, book, requestId } = order;
  const position = newPosition(ctx, order, q, opts);
  const postings = await openingPostings(ctx, order, q, opts.planId);
  let entry: EntryResult<{ id: number; openedAt: string }>;
  try {
    const request = {
      book,
      kind: 'trade_margin' as const,
      idempotencyKey: `trade-open:${userId}:${requestId}`,
      actor: opts.planId === null ? `user:${userId}` : `system:smart:${opts.planId}`,
      reference: `order:${requestId}`,
      postings,
      attach: ctx.attachments.opens.with(position),
    };
    entry =
      opts.releaseHold === undefined
        ? await ctx.ledger.transfer(request)
        : await ctx.ledger.releaseAndTransfer(opts.releaseHold, request);
  } catch (error) {
    // Insufficient balance reaches the caller as 10011 (ledgerErrorCode).
    if (error instanceof LedgerError && error.reason === 'idempotency_conflict') {
      // The same order sent twice in different seconds: the first one opened it.
      const first = await byRequest(ctx, userId, book, requestId);
      if (first) return view(ctx, first);
      // The request id was used in the other book: that order is not this book's to show.
    }
    throw error;
  }
  const inserted = entry.attached;
  // A replay (the same order twice in one second) reads what the first one wrote.
  const row = inserted
    ? openedRow(position, inserted.id, entry.entryId, inserted.openedAt)
    : await positionByOpenEntry(ctx.db, entry.entryId);
  if (!row) throw new Error(`position of entry ${entry.entryId} missing`);
  if (inserted) await announce(ctx, { type: 'opened', id: row.id }, row);
  return view(ctx, row);
}
