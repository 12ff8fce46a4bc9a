import { randomUUID } from 'node:crypto';
import type {
  CloseReason,
  Conversion,
  EditPendingBody,
  Language,
  OpenBody,
  OrderPage,
  PendingFigures,
  PendingOrder,
  PendingPage,
  PendingTicketBody,
  PlacePendingBody,
  Position,
  TicketBody,
  TicketFigures,
  TradingTerms,
} from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import type { Book } from '../../platform/http.ts';
import { KeyRing, type PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { MarketService } from '../market/market.service.ts';
import { type TickQuote, tickQuote } from '../market/pricing.ts';
import type { InstrumentTerms } from '../market/terms.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { PositionDesk } from '../products/ports.ts';
import { type QuoteHolder, Quotes } from '../products/quotes.ts';
import { PENDING } from './pending.quote.ts';
import type { PendingRow } from './pending.repository.ts';
import { positionAttachments } from './positions.attachments.ts';
import { close, settle } from './positions.close.ts';
import { open, openForPlan, type PlanTicket, preview } from './positions.open.ts';
import {
  cancelPending,
  editPending,
  fillPending,
  getPending,
  listPending,
  placePending,
  previewPending,
  sweepPending,
} from './positions.pending.ts';
import { OPENING } from './positions.quote.ts';
import { get, liquidationAt, list, openAt, stoppedOutAt, terms, view } from './positions.reads.ts';
import {
  liveTradedVolume,
  openMarginByOwner,
  type PositionRow,
  positionsOfPlans,
} from './positions.repository.ts';
import {
  conversion,
  instrument,
  type PositionEvent,
  type PositionsContext,
  termsOf,
} from './positions.shared.ts';
import { updateStops } from './positions.stops.ts';

export { orderNo, POSITIONS_TOPIC, type PositionEvent } from './positions.shared.ts';

/**
 * Leveraged positions: open, close, change stops, list. Money moves only through the ledger, and
 * the position row is written in the ledger's own transaction (an attachment of the entry), so a
 * position and its margin can never disagree. Closing a position uses one idempotency key per
 * position, so whoever closes it first (the customer, a trigger, another node) is the only one.
 *
 * A thin front over its use cases: opening, the one pricing function and a smart plan's openings
 * (`positions.open.ts`), closing and settling (`positions.close.ts`), stops
 * (`positions.stops.ts`), reads and stop-out figures (`positions.reads.ts`); the ledger
 * attachments are in `positions.attachments.ts`, and what they share in `positions.shared.ts`.
 */
export class PositionsService implements PositionDesk {
  private readonly ctx: PositionsContext;
  readonly market: MarketService;
  /** Identifies this service's own events on the bus (its engine already has them). */
  readonly origin = randomUUID();
  readonly now: () => number;
  /** The price of an instrument at a tick: the market feed, or a scripted path in tests. */
  readonly quote: (instrument: Instrument, t: number) => TickQuote;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    market: MarketService;
    bus: EventBus;
    notices?: NoticesService;
    logger?: Logger;
    leverageCaps?: Readonly<Record<string, number>>;
    now?: () => number;
    quote?: (instrument: Instrument, t: number) => TickQuote;
    /**
     * The quotes' keys (platform/keys.ts), the same on every node; without them, a random key of
     * this process (its quotes commit only here).
     */
    quoteKeys?: PurposeKeys;
  }) {
    this.market = deps.market;
    this.now = deps.now ?? (() => Date.now());
    this.quote = deps.quote ?? ((of, t) => tickQuote(of, t, this.market.source));
    this.ctx = {
      db: deps.db,
      ledger: deps.ledger,
      market: deps.market,
      notices: deps.notices,
      bus: deps.bus,
      logger: deps.logger,
      caps: deps.leverageCaps ?? {},
      termsCache: new Map(),
      listeners: [],
      origin: this.origin,
      now: this.now,
      quote: this.quote,
      quotes: new Quotes(OPENING, {
        keys: deps.quoteKeys ?? KeyRing.random().purpose('quotes'),
        db: deps.db,
        now: () => this.now(),
      }),
      attachments: positionAttachments(deps),
      pending: {
        quotes: new Quotes(PENDING, {
          keys: deps.quoteKeys ?? KeyRing.random().purpose('quotes'),
          db: deps.db,
          now: () => this.now(),
        }),
        listeners: [],
      },
    };
  }

  instrument(id: number): Instrument {
    return instrument(this.ctx, id);
  }

  termsOf(of: Instrument): InstrumentTerms {
    return termsOf(this.ctx, of);
  }

  terms(marketId: number): TradingTerms {
    return terms(this.ctx, marketId);
  }

  conversion(of: Instrument, t: number): Conversion {
    return conversion(this.ctx, of, t);
  }

  /** Every figure of a ticket at the current tick, and the quote that opens it (nothing is opened). */
  preview(body: TicketBody, holder: QuoteHolder): TicketFigures {
    return preview(this.ctx, body, holder);
  }

  /** Opens a position at exactly the figures of the quote the customer confirmed, or refuses (10032, 10011, 10026, 10028). */
  open(userId: number, book: Book, language: Language, body: OpenBody): Promise<Position> {
    return open(this.ctx, userId, book, language, body);
  }

  /** Opens a smart plan's position at tick t as its engine decided, from the customer's smart account. */
  openForPlan(
    plan: { planId: number; userId: number; language: Language },
    ticket: PlanTicket,
    requestId: string,
  ): Promise<PositionRow> {
    return openForPlan(this.ctx, plan, ticket, requestId);
  }

  /** What a pending entry order would hold, and the quote that places it (nothing is held yet). */
  previewPending(body: PendingTicketBody, holder: QuoteHolder): PendingFigures {
    return previewPending(this.ctx, body, holder);
  }

  /** Places a pending order at the quote the customer confirmed: its margin and fee at the level held. */
  placePending(
    userId: number,
    book: Book,
    language: Language,
    body: PlacePendingBody,
  ): Promise<PendingOrder> {
    return placePending(this.ctx, userId, book, language, body);
  }

  editPending(userId: number, book: Book, body: EditPendingBody): Promise<PendingOrder> {
    return editPending(this.ctx, userId, book, body);
  }

  cancelPending(userId: number, book: Book, id: number): Promise<PendingOrder> {
    return cancelPending(this.ctx, userId, book, id);
  }

  getPending(userId: number, book: Book, id: number): Promise<PendingOrder> {
    return getPending(this.ctx, userId, book, id);
  }

  listPending(
    userId: number,
    book: Book,
    query: { status?: 'open' | 'history'; page?: number; size?: number },
  ): Promise<PendingPage> {
    return listPending(this.ctx, userId, book, query);
  }

  /** Fills a pending order the engine saw crossed at tick t (claimed once); null when another claimed or ended it. */
  fillPending(id: number, t: number, ticks: bigint): Promise<PendingRow | null> {
    return fillPending(this.ctx, id, t, ticks);
  }

  /** This node's engine hears of a pending order's change directly; other nodes through the bus. */
  onPendingChange(listener: (id: number) => void): void {
    this.ctx.pending.listeners.push(listener);
  }

  /** The job's sweep: expiries, fills a stopped node left, holds still to release. */
  sweepPending(): Promise<{ expired: number; completed: number; released: number }> {
    return sweepPending(this.ctx);
  }

  /** This node's trigger engine hears of a change directly; other nodes through the bus. */
  onChange(listener: (event: PositionEvent, row: PositionRow | null) => void): void {
    this.ctx.listeners.push(listener);
  }

  get(userId: number, book: Book, id: number): Promise<Position> {
    return get(this.ctx, userId, book, id);
  }

  list(
    userId: number,
    book: Book,
    query: { status?: 'open' | 'closed'; page?: number; size?: number },
  ): Promise<OrderPage> {
    return list(this.ctx, userId, book, query);
  }

  /** The customer's own positions (not a plan's) open at an instant (a statement's end: papers). */
  openAt(userId: number, book: Book, at: string): Promise<Position[]> {
    return openAt(this.ctx, userId, book, at);
  }

  /** Closes one of the customer's positions at the current tick's price. */
  close(userId: number, book: Book, id: number): Promise<Position> {
    return close(this.ctx, userId, book, id);
  }

  /**
   * Changes the stops of an open position, checked against the current price and its stop-out
   * price; the trailing stop: undefined keeps it, null removes it, a distance sets it.
   */
  updateStops(
    userId: number,
    book: Book,
    id: number,
    stopLoss: string,
    takeProfit: string,
    trailingDistance?: string | null,
  ): Promise<Position> {
    return updateStops(this.ctx, userId, book, id, stopLoss, takeProfit, trailingDistance);
  }

  /** Settles a position at tick t and price `closeTicks` (key `trade-close:<id>`); false when someone else closed it first. */
  settle(row: PositionRow, reason: CloseReason, t: number, closeTicks: bigint): Promise<boolean> {
    return settle(this.ctx, row, reason, t, closeTicks);
  }

  /** The position on the wire; an open one carries its mark price, live profit and margin level now. */
  view(row: PositionRow): Position {
    return view(this.ctx, row);
  }

  /** A position's stop-out price at another conversion rate of its quote currency. */
  liquidationAt(row: PositionRow, rate: Conversion): bigint {
    return liquidationAt(row, rate);
  }

  /** Is a position at or below the stop-out level at tick t (exact, with the conversion of t)? */
  stoppedOutAt(row: PositionRow, t: number, closeTicks: bigint): boolean {
    return stoppedOutAt(this.ctx, row, t, closeTicks);
  }

  /** The margin of open positions per book and customer (for reconciliation with the ledger). */
  openMargins(): Promise<{ book: Book; userId: number; marginMinor: bigint }[]> {
    return openMarginByOwner(this.ctx.db);
  }

  /** The positions smart plans opened (their trades), in id order. */
  planPositions(planIds: readonly number[]): Promise<PositionRow[]> {
    return positionsOfPlans(this.ctx.db, planIds);
  }

  /** Sum of live-book opening notionals (traded volume) in USDT minor units. */
  tradedVolume(): Promise<bigint> {
    return liveTradedVolume(this.ctx.db);
  }
}

export type { PositionRow };
