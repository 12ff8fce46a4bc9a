import { randomUUID } from 'node:crypto';
import {
  AUTO_CLOSE_CHOICES,
  type CloseReason,
  Code,
  type Conversion,
  type Direction,
  formatMinor,
  isStoppedOut,
  LANGUAGES,
  type Language,
  liquidationTicks,
  marginLevelPercent,
  type OpenBody,
  type OrderPage,
  openingFigures,
  type Position,
  parseCentilots,
  priceTicks,
  profitMinor,
  SETTLEMENT_SCALE,
  type Size,
  settlement,
  type TicketBody,
  type TicketFigures,
  type TradingTerms,
  toDisplay,
  unreasonableStops,
} from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import { ApiError, type Book } from '../../platform/http.ts';
import { KeyRing, type PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  type EntryAttachment,
  type EntryDetail,
  type EntryResult,
  LedgerError,
  type LedgerService,
  MARGIN,
  SMART,
} from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { MarketService } from '../market/market.service.ts';
import { closeSide, conversionAt, openSide, type TickQuote, tickQuote } from '../market/pricing.ts';
import { type InstrumentTerms, termsOf, termsView } from '../market/terms.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { PositionDesk } from '../products/ports.ts';
import { type QuoteHolder, Quotes, type Redeemed } from '../products/quotes.ts';
import { OPENING, type OpeningQuote, sameTicket, ticketFiguresOf } from './positions.quote.ts';
import {
  closePositions,
  insertPositions,
  liveTradedVolume,
  type NewPosition,
  openedRow,
  openMarginByOwner,
  type PositionClose,
  type PositionRow,
  positionByOpenEntry,
  positionByRequest,
  positionOf,
  positionsOf,
  positionsOfEntries,
  positionsOfPlans,
  updateStops,
} from './positions.repository.ts';

/** Bus topic of position changes, so every node's trigger engine sees positions opened anywhere. */
export const POSITIONS_TOPIC = 'trading.positions';
export type PositionEvent = { type: 'opened' | 'stops' | 'closed'; id: number; origin: string };

/**
 * Leveraged positions: open, close, change stops, list. Money moves only through the ledger, and
 * the position row is written in the ledger's own transaction (an attachment of the entry), so a
 * position and its margin can never disagree. Closing a position uses one idempotency key per
 * position, so whoever closes it first (the customer, a trigger, another node) is the only one.
 */
export class PositionsService implements PositionDesk {
  private readonly db: Database;
  private readonly ledger: LedgerService;
  readonly market: MarketService;
  private readonly notices: NoticesService | undefined;
  private readonly bus: EventBus;
  private readonly logger: Logger | undefined;
  private readonly caps: Readonly<Record<string, number>>;
  private readonly termsCache = new Map<number, InstrumentTerms>();
  private readonly listeners: ((event: PositionEvent, row: PositionRow | null) => void)[] = [];
  /** Identifies this service's own events on the bus (its engine already has them). */
  readonly origin = randomUUID();
  readonly now: () => number;
  /** The price of an instrument at a tick: the market feed, or a scripted path in tests. */
  readonly quote: (instrument: Instrument, t: number) => TickQuote;
  /** Opening quotes: signed figures the preview answers and the order commits (products/quotes.ts). */
  private readonly quotes: Quotes<typeof OPENING.figures>;
  /** The position an opening entry writes, and the close a closing entry writes, in the ledger's transaction. */
  private readonly opens: EntryAttachment<NewPosition, { id: number; openedAt: string }>;
  private readonly closes: EntryAttachment<PositionClose, never>;

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
    this.db = deps.db;
    this.ledger = deps.ledger;
    this.market = deps.market;
    this.bus = deps.bus;
    this.notices = deps.notices;
    this.logger = deps.logger;
    this.caps = deps.leverageCaps ?? {};
    this.now = deps.now ?? (() => Date.now());
    this.quote = deps.quote ?? ((instrument, t) => tickQuote(instrument, t, this.market.source));
    this.quotes = new Quotes(OPENING, {
      keys: deps.quoteKeys ?? KeyRing.random().purpose('quotes'),
      db: deps.db,
      now: () => this.now(),
    });
    this.opens = this.ledger.attachment<NewPosition, { id: number; openedAt: string }>(
      'trade_margin',
      (tx, rows) =>
        insertPositions(
          tx,
          rows.map((r) => ({ entryId: r.entryId, position: r.data })),
        ),
    );
    this.closes = this.ledger.attachment<PositionClose, never>('trade_pnl', async (tx, rows) => {
      await closePositions(
        tx,
        rows.map((r) => ({ entryId: r.entryId, close: r.data })),
      );
      return new Map<number, never>();
    });
    // The customer's record names each trading entry by its order number, as the order detail does.
    const describe = async (entryIds: readonly number[]) => {
      const found = new Map<number, EntryDetail>();
      for (const p of await positionsOfEntries(this.db, entryIds)) {
        const orderNumber = orderNo(p.id);
        found.set(p.openEntryId, { orderNo: orderNumber, instrument: p.code, closeReason: null });
        if (p.closeEntryId !== null)
          found.set(p.closeEntryId, { orderNo: orderNumber, instrument: p.code, closeReason: p.closeReason });
      }
      return found;
    };
    this.ledger.registerDescriber('trade_margin', describe);
    this.ledger.registerDescriber('trade_pnl', describe);
  }

  private second(): number {
    return Math.floor(this.now() / 1000);
  }

  instrument(id: number): Instrument {
    const instrument = this.market.instrumentById(id);
    if (!instrument) throw new ApiError(Code.OPTIONS_PRODUCT_INCORRECT);
    return instrument;
  }

  termsOf(instrument: Instrument): InstrumentTerms {
    let terms = this.termsCache.get(instrument.id);
    if (!terms) {
      terms = termsOf(instrument.code, instrument.class, instrument.ref, this.caps);
      this.termsCache.set(instrument.id, terms);
    }
    return terms;
  }

  terms(marketId: number): TradingTerms {
    const instrument = this.market.instrumentById(marketId);
    if (!instrument) throw new ApiError(Code.NOT_FOUND);
    return termsView(instrument, this.termsOf(instrument), this.market.isOpen(instrument, this.second()));
  }

  conversion(instrument: Instrument, t: number): Conversion {
    return conversionAt(
      this.termsOf(instrument).quoteCurrency,
      t,
      (code) => this.market.instrument(code),
      this.quote,
    );
  }

  /**
   * The one pricing function of an opening: checks a ticket and computes every figure at tick t
   * (codes of spec §8 for what cannot open). The preview shows these figures and signs them into
   * its quote; the order opens with exactly them.
   */
  private opening(body: TicketBody, t: number): OpeningQuote {
    const instrument = this.instrument(body.marketId);
    const terms = this.termsOf(instrument);
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
    if (!this.market.isOpen(instrument, t)) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
    const stopLossTicks = priceTicks(body.stopLoss, instrument.decimals);
    const takeProfitTicks = priceTicks(body.takeProfit, instrument.decimals);
    const malformed = [
      ...(stopLossTicks === null ? [{ path: 'stopLoss', issue: 'too_many_decimals' }] : []),
      ...(takeProfitTicks === null ? [{ path: 'takeProfit', issue: 'too_many_decimals' }] : []),
    ];
    if (stopLossTicks === null || takeProfitTicks === null) throw new ApiError(Code.INVALID_INPUT, malformed);
    const size: Size = { centilots, lotSize: terms.lotSize, decimals: instrument.decimals };
    const quote = this.quote(instrument, t);
    const conversion = this.conversion(instrument, t);
    const openTicks = openSide(body.direction, quote);
    const figures = openingFigures(
      body.direction,
      openTicks,
      size,
      conversion,
      BigInt(body.leverage),
      terms.feePpm,
    );
    if (figures.marginMinor <= 0n) throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT);
    const check = unreasonableStops(
      body.direction,
      closeSide(body.direction, quote),
      figures.liquidationTicks,
      stopLossTicks,
      takeProfitTicks,
    );
    return {
      marketId: instrument.id,
      direction: body.direction,
      leverage: body.leverage,
      autoCloseAfter: body.autoCloseAfter ?? null,
      centilots,
      lotSize: terms.lotSize,
      decimals: instrument.decimals,
      bidTicks: quote.bid,
      askTicks: quote.ask,
      openTicks,
      stopLossTicks,
      takeProfitTicks,
      liquidationTicks: figures.liquidationTicks,
      conversionNum: conversion.num,
      conversionDen: conversion.den,
      notionalMinor: figures.notionalMinor,
      marginMinor: figures.marginMinor,
      feeMinor: figures.feeMinor,
      feePpm: terms.feePpm,
      quoteTime: t,
      unreasonable: [
        ...(check.stopLoss ? ['stopLoss' as const] : []),
        ...(check.takeProfit ? ['takeProfit' as const] : []),
      ],
    };
  }

  /**
   * Every figure of a ticket at the current tick, and the quote that opens it: signed for the
   * customer who asked (none without a session) in the request's book. Nothing is opened.
   */
  preview(body: TicketBody, holder: QuoteHolder): TicketFigures {
    const t = this.second();
    const quote = this.opening(body, t);
    return { ...this.quotes.issue(holder, t, quote), ...ticketFiguresOf(quote) };
  }

  /**
   * Opens a position at exactly the figures of the quote the customer confirmed (`quoteId`), or
   * refuses: 10032 when the quote expired, 10011 when the balance no longer covers it, 10026 /
   * 10028 for a quote that is not this customer's in this book, or not of this ticket.
   */
  async open(userId: number, book: Book, language: Language, body: OpenBody): Promise<Position> {
    return this.quotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey: `${userId}:${book}:${body.requestId}`,
        // A retry of an order that already opened answers with it, however late.
        replay: async () => {
          const existing = await this.byRequest(userId, book, body.requestId);
          return existing ? this.view(existing) : null;
        },
        post: (quote) => this.post(userId, book, language, body, quote),
      },
    );
  }

  /** The ledger entry of a confirmed quote: wallet −(margin + fee), margin +margin, fees +fee; the position attached. */
  private async post(
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
    const instrument = this.instrument(q.marketId);
    const now = this.second();
    if (!this.market.isOpen(instrument, now)) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
    return this.postOpening(userId, book, language, body.requestId, q, { planId: null, liveTick: now });
  }

  /**
   * Opens a smart plan's position at tick t with the size, leverage and stops its engine decided:
   * priced by the one pricing function (`opening`) at t, so the figures are those the engine
   * computed from the same tick (checked: a difference is a broken invariant and opens nothing).
   * The margin and fee come from the customer's smart account; one position per (plan, request).
   */
  async openForPlan(
    plan: { planId: number; userId: number; language: Language },
    ticket: {
      marketId: number;
      t: number;
      direction: Direction;
      centilots: bigint;
      leverage: number;
      stopLossTicks: bigint;
      takeProfitTicks: bigint;
      marginMinor: bigint;
      feeMinor: bigint;
    },
    requestId: string,
  ): Promise<PositionRow> {
    const instrument = this.instrument(ticket.marketId);
    const done = await this.byRequest(plan.userId, 'live', requestId);
    if (done) return done;
    const q = this.opening(
      {
        marketId: ticket.marketId,
        direction: ticket.direction,
        lots: formatMinor(ticket.centilots, 2),
        leverage: ticket.leverage,
        stopLoss: formatMinor(ticket.stopLossTicks, instrument.decimals),
        takeProfit: formatMinor(ticket.takeProfitTicks, instrument.decimals),
      },
      ticket.t,
    );
    if (q.marginMinor !== ticket.marginMinor || q.feeMinor !== ticket.feeMinor || q.unreasonable.length > 0)
      throw new Error(`plan ${plan.planId}: the engine's opening at ${ticket.t} differs from trading's`);
    const view = await this.postOpening(plan.userId, 'live', plan.language, requestId, q, {
      planId: plan.planId,
      liveTick: ticket.t,
    });
    const row = await positionOf(this.db, { id: view.id, userId: plan.userId, book: 'live' });
    if (!row) throw new Error(`position ${view.id} missing`);
    return row;
  }

  /** The ledger entry of an opening: wallet (or smart account) −(margin + fee), margin +margin, fees +fee; the position attached. */
  private async postOpening(
    userId: number,
    book: Book,
    language: Language,
    requestId: string,
    q: OpeningQuote,
    opts: { planId: number | null; liveTick: number },
  ): Promise<Position> {
    const instrument = this.instrument(q.marketId);
    const position: NewPosition = {
      userId,
      book,
      instrumentId: instrument.id,
      code: instrument.code,
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
      language,
      requestId,
      planId: opts.planId,
    };
    const funding =
      opts.planId === null
        ? await this.ledger.walletAccount(book, userId, 'USDT')
        : await this.ledger.accountId(book, userId, 'USDT', SMART);
    const postings = [
      { accountId: funding, amount: -(q.marginMinor + q.feeMinor) },
      { accountId: await this.ledger.accountId(book, userId, 'USDT', MARGIN), amount: q.marginMinor },
      ...(q.feeMinor > 0n
        ? [{ accountId: await this.ledger.systemAccount(book, 'USDT', 'fees'), amount: q.feeMinor }]
        : []),
    ];
    let entry: EntryResult<{ id: number; openedAt: string }>;
    try {
      entry = await this.ledger.transfer({
        book,
        kind: 'trade_margin',
        idempotencyKey: `trade-open:${userId}:${requestId}`,
        actor: opts.planId === null ? `user:${userId}` : `system:smart:${opts.planId}`,
        reference: `order:${requestId}`,
        postings,
        attach: this.opens.with(position),
      });
    } catch (error) {
      // Insufficient balance reaches the caller as 10011 (ledgerErrorCode).
      if (error instanceof LedgerError && error.reason === 'idempotency_conflict') {
        // The same order sent twice in different seconds: the first one opened it.
        const first = await this.byRequest(userId, book, requestId);
        if (first) return this.view(first);
        // The request id was used in the other book: that order is not this book's to show.
      }
      throw error;
    }
    const inserted = entry.attached;
    // A replay (the same order twice in one second) reads what the first one wrote.
    const row = inserted
      ? openedRow(position, inserted.id, entry.entryId, inserted.openedAt)
      : await positionByOpenEntry(this.db, entry.entryId);
    if (!row) throw new Error(`position of entry ${entry.entryId} missing`);
    if (inserted) await this.announce({ type: 'opened', id: row.id }, row);
    return this.view(row);
  }

  private byRequest(userId: number, book: Book, requestId: string): Promise<PositionRow | null> {
    return positionByRequest(this.db, userId, book, requestId);
  }

  /** This node's trigger engine hears of a change directly; other nodes through the bus. */
  onChange(listener: (event: PositionEvent, row: PositionRow | null) => void): void {
    this.listeners.push(listener);
  }

  private async announce(event: Omit<PositionEvent, 'origin'>, row: PositionRow | null): Promise<void> {
    const full = { ...event, origin: this.origin } as PositionEvent;
    for (const listener of this.listeners) listener(full, row);
    try {
      await this.bus.publish(POSITIONS_TOPIC, full);
    } catch (error) {
      // The engines also sync from the database; a lost event only delays a trigger's indexing.
      this.logger?.warn({ err: error, event }, 'trading: position event not published');
    }
  }

  /**
   * One of the customer's positions in the request's book. Another customer's position, or one of
   * the other book (a demo id used with the live header, or the reverse), is indistinguishable
   * from one that does not exist.
   */
  private async owned(userId: number, book: Book, id: number): Promise<PositionRow> {
    const row = await positionOf(this.db, { id, userId, book });
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  async get(userId: number, book: Book, id: number): Promise<Position> {
    return this.view(await this.owned(userId, book, id));
  }

  async list(
    userId: number,
    book: Book,
    query: { status?: 'open' | 'closed'; page?: number; size?: number },
  ): Promise<OrderPage> {
    const page = query.page ?? 1;
    const size = query.size ?? 20;
    const { rows, total } = await positionsOf(this.db, {
      userId,
      book,
      ...(query.status ? { status: query.status } : {}),
      offset: (page - 1) * size,
      limit: size,
    });
    return { items: rows.map((r) => this.view(r)), total, page, size };
  }

  /** Closes one of the customer's positions at the current tick's price. */
  async close(userId: number, book: Book, id: number): Promise<Position> {
    const row = await this.owned(userId, book, id);
    if (row.status === 'closed') return this.view(row);
    // A plan's position is its strategy's to close (stopping the plan closes it).
    if (row.planId !== null) throw new ApiError(Code.OPTIONS_PRODUCT_INCORRECT);
    const instrument = this.instrument(row.instrumentId);
    const t = this.second();
    if (!this.market.isOpen(instrument, t)) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
    await this.settle(row, 'manual', t, closeSide(row.direction, this.quote(instrument, t)));
    return this.view(await this.owned(userId, book, id));
  }

  /** Changes the stops of an open position, checked against the current price and its stop-out price. */
  async updateStops(
    userId: number,
    book: Book,
    id: number,
    stopLoss: string,
    takeProfit: string,
  ): Promise<Position> {
    const row = await this.owned(userId, book, id);
    if (row.status !== 'open' || row.planId !== null) throw new ApiError(Code.OPTIONS_PRODUCT_INCORRECT);
    const instrument = this.instrument(row.instrumentId);
    const t = this.second();
    const sl = priceTicks(stopLoss, row.priceDecimals);
    const tp = priceTicks(takeProfit, row.priceDecimals);
    if (sl === null || tp === null)
      throw new ApiError(Code.INVALID_INPUT, [
        ...(sl === null ? [{ path: 'stopLoss', issue: 'too_many_decimals' }] : []),
        ...(tp === null ? [{ path: 'takeProfit', issue: 'too_many_decimals' }] : []),
      ]);
    const check = unreasonableStops(
      row.direction,
      closeSide(row.direction, this.quote(instrument, t)),
      row.liquidationTicks,
      sl,
      tp,
    );
    if (check.stopLoss || check.takeProfit)
      throw new ApiError(Code.INVALID_INPUT, [
        ...(check.stopLoss ? [{ path: 'stopLoss', issue: 'unreasonable' }] : []),
        ...(check.takeProfit ? [{ path: 'takeProfit', issue: 'unreasonable' }] : []),
      ]);
    if (!(await updateStops(this.db, { id, userId, book }, sl, tp)))
      return this.view(await this.owned(userId, book, id));
    await this.announce({ type: 'stops', id }, null);
    return this.view(await this.owned(userId, book, id));
  }

  /**
   * Settles a position at tick t and price `closeTicks`: the margin comes back with the profit, or
   * less the loss; a loss beyond the margin is absorbed by the house and recorded. One entry with
   * key `trade-close:<id>`: a second close of the same position (another node, a racing trigger)
   * is refused by the ledger and changes nothing. Returns false when someone else closed it first.
   */
  async settle(row: PositionRow, reason: CloseReason, t: number, closeTicks: bigint): Promise<boolean> {
    const instrument = this.instrument(row.instrumentId);
    const conversion = this.conversion(instrument, t);
    const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: row.priceDecimals };
    const profit = profitMinor(row.direction, row.openTicks, closeTicks, size, conversion);
    const { payoutMinor, absorbedMinor } = settlement(row.marginMinor, profit);
    const house = row.marginMinor - payoutMinor;
    const postings = [
      {
        accountId: await this.ledger.accountId(row.book, row.userId, 'USDT', MARGIN),
        amount: -row.marginMinor,
      },
      ...(payoutMinor > 0n
        ? [
            {
              // A plan's position pays back into the plan's account, where its margin came from.
              accountId:
                row.planId === null
                  ? await this.ledger.walletAccount(row.book, row.userId, 'USDT')
                  : await this.ledger.accountId(row.book, row.userId, 'USDT', SMART),
              amount: payoutMinor,
            },
          ]
        : []),
      ...(house !== 0n
        ? [{ accountId: await this.ledger.systemAccount(row.book, 'USDT', 'house_pnl'), amount: house }]
        : []),
    ];
    const close: PositionClose = {
      id: row.id,
      reason,
      closeTicks,
      closeTick: t,
      profitMinor: profit,
      absorbedMinor,
    };
    try {
      const result = await this.ledger.transfer({
        book: row.book,
        kind: 'trade_pnl',
        idempotencyKey: `trade-close:${row.id}`,
        actor: reason === 'manual' ? `user:${row.userId}` : 'system:trading',
        reference: `position:${row.id}`,
        reason: absorbedMinor > 0n ? `${reason}; loss beyond margin absorbed: ${absorbedMinor}` : reason,
        postings,
        attach: this.closes.with(close),
      });
      // The same close already done (another engine at the same tick): nothing more to do.
      if (result.replayed) return false;
    } catch (error) {
      if (error instanceof LedgerError && error.reason === 'idempotency_conflict') return false;
      throw error;
    }
    await this.announce({ type: 'closed', id: row.id }, null);
    // A plan's trades are told in the plan's own notices (daily income, end), not one by one.
    if (reason !== 'manual' && row.planId === null) await this.notifyClosed(row, reason, closeTicks, profit);
    return true;
  }

  private async notifyClosed(row: PositionRow, reason: CloseReason, closeTicks: bigint, profit: bigint) {
    if (!this.notices) return;
    const language = (LANGUAGES as readonly string[]).includes(row.language)
      ? (row.language as Language)
      : 'en';
    try {
      await this.notices.notify(row.userId, language, `position_${reason}` as 'position_take_profit', {
        order: orderNo(row.id),
        code: row.code,
        price: formatMinor(closeTicks, row.priceDecimals),
        profit: toDisplay(formatMinor(profit, SETTLEMENT_SCALE), 'USDT'), // at USDT's display scale
        book: row.book,
      });
    } catch (error) {
      this.logger?.warn({ err: error, position: row.id }, 'trading: close notice failed');
    }
  }

  /** The position on the wire; an open one carries its mark price, live profit and margin level now. */
  view(row: PositionRow): Position {
    const d = row.priceDecimals;
    const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: d };
    const openConversion = { num: row.conversionNum, den: row.conversionDen };
    const money = (minor: bigint) => formatMinor(minor, SETTLEMENT_SCALE);
    let profit = row.profitMinor ?? 0n;
    let markPrice: string | null = null;
    let marginLevel: string | null = null;
    if (row.status === 'open') {
      const instrument = this.market.instrumentById(row.instrumentId);
      // No fresh price (a real source gone stale): no mark, rather than one from an old price.
      if (instrument && this.market.source.quote(instrument, this.second()) !== null) {
        const t = this.second();
        const mark = closeSide(row.direction, this.quote(instrument, t));
        profit = profitMinor(row.direction, row.openTicks, mark, size, this.conversion(instrument, t));
        markPrice = formatMinor(mark, d);
        marginLevel = marginLevelPercent(row.marginMinor, profit);
      }
    }
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
      autoCloseAt: row.expiresTick === null ? null : new Date(row.expiresTick * 1000).toISOString(),
      notional: money(row.notionalMinor),
      margin: money(row.marginMinor),
      fee: money(row.feeMinor),
      expectedReturn: money(
        profitMinor(row.direction, row.openTicks, row.takeProfitTicks, size, openConversion),
      ),
      lossAtStopLoss: money(
        profitMinor(row.direction, row.openTicks, row.stopLossTicks, size, openConversion),
      ),
      liquidationPrice: formatMinor(row.liquidationTicks, d),
      status: row.status,
      closeReason: row.closeReason,
      profit: money(profit),
      absorbed: money(row.absorbedMinor),
      markPrice,
      marginLevel,
    };
  }

  /** A position's stop-out price at another conversion rate of its quote currency. */
  liquidationAt(row: PositionRow, conversion: Conversion): bigint {
    const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: row.priceDecimals };
    return liquidationTicks(row.direction, row.openTicks, row.marginMinor, size, conversion);
  }

  /** Is a position at or below the stop-out level at tick t (exact, with the conversion of t)? */
  stoppedOutAt(row: PositionRow, t: number, closeTicks: bigint): boolean {
    const instrument = this.instrument(row.instrumentId);
    const size: Size = { centilots: row.centilots, lotSize: row.lotSize, decimals: row.priceDecimals };
    const profit = profitMinor(
      row.direction,
      row.openTicks,
      closeTicks,
      size,
      this.conversion(instrument, t),
    );
    return isStoppedOut(row.marginMinor, profit);
  }

  /** The margin of open positions per book and customer (for reconciliation with the ledger). */
  openMargins(): Promise<{ book: Book; userId: number; marginMinor: bigint }[]> {
    return openMarginByOwner(this.db);
  }

  /** The positions smart plans opened (their trades), in id order. */
  planPositions(planIds: readonly number[]): Promise<PositionRow[]> {
    return positionsOfPlans(this.db, planIds);
  }

  /** Sum of live-book opening notionals (traded volume) in USDT minor units. */
  tradedVolume(): Promise<bigint> {
    return liveTradedVolume(this.db);
  }
}

export type { PositionRow };

export function orderNo(id: number): string {
  return `SWX${id.toString().padStart(9, '0')}`;
}
