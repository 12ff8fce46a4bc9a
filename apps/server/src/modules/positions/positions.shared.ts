import { Code, type Conversion } from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import { ApiError, type Book } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { EntryAttachment, HoldAttachment, LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { MarketService } from '../market/market.service.ts';
import { conversionAt, type TickQuote } from '../market/pricing.ts';
import { type InstrumentTerms, termsOf as instrumentTerms } from '../market/terms.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { Quotes } from '../products/quotes.ts';
import type { PENDING } from './pending.quote.ts';
import type { NewPending } from './pending.repository.ts';
import type { OPENING } from './positions.quote.ts';
import {
  type NewPosition,
  type PositionClose,
  type PositionRow,
  positionByRequest,
  positionOf,
} from './positions.repository.ts';

/*
 * What the positions' use cases share (opening, closing, stops, reads): the context
 * `PositionsService` builds once, and the steps more than one of them takes.
 */

/** Bus topic of position changes, so every node's trigger engine sees positions opened anywhere. */
export const POSITIONS_TOPIC = 'trading.positions';
export type PositionEvent = { type: 'opened' | 'stops' | 'closed'; id: number; origin: string };
/** Bus topic of pending orders placed, changed or ended, so every node's engine indexes them. */
export const PENDING_TOPIC = 'trading.pending';
export type PendingEvent = { id: number; origin: string };

export function orderNo(id: number): string {
  return `SWX${id.toString().padStart(9, '0')}`;
}

/** The records the positions write with their ledger entries (`positions.attachments.ts`). */
export type PositionAttachments = {
  /** The position an opening entry writes, in the ledger's transaction. */
  readonly opens: EntryAttachment<NewPosition, { id: number; openedAt: string }>;
  /** The close a closing entry writes, in the ledger's transaction. */
  readonly closes: EntryAttachment<PositionClose, never>;
  /** The pending order a placing hold writes, in the ledger's transaction (its id by hold id). */
  readonly places: HoldAttachment<NewPending, number>;
};

/** The parts every use case works with; `PositionsService` builds it once. */
export type PositionsContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly market: MarketService;
  readonly notices: NoticesService | undefined;
  readonly bus: EventBus;
  readonly logger: Logger | undefined;
  readonly caps: Readonly<Record<string, number>>;
  readonly termsCache: Map<number, InstrumentTerms>;
  readonly listeners: ((event: PositionEvent, row: PositionRow | null) => void)[];
  /** Identifies this service's own events on the bus (its engine already has them). */
  readonly origin: string;
  readonly now: () => number;
  /** The price of an instrument at a tick: the market feed, or a scripted path in tests. */
  readonly quote: (instrument: Instrument, t: number) => TickQuote;
  /** Opening quotes: signed figures the preview answers and the order commits (products/quotes.ts). */
  readonly quotes: Quotes<typeof OPENING.figures>;
  readonly attachments: PositionAttachments;
  /** Pending orders' quotes (what placing holds), and who hears of a pending order's change on this node. */
  readonly pending: { quotes: Quotes<typeof PENDING.figures>; listeners: ((id: number) => void)[] };
};

export function second(ctx: PositionsContext): number {
  return Math.floor(ctx.now() / 1000);
}

export function instrument(ctx: PositionsContext, id: number): Instrument {
  const found = ctx.market.instrumentById(id);
  if (!found) throw new ApiError(Code.OPTIONS_PRODUCT_INCORRECT);
  return found;
}

export function termsOf(ctx: PositionsContext, of: Instrument): InstrumentTerms {
  let terms = ctx.termsCache.get(of.id);
  if (!terms) {
    terms = instrumentTerms(of.code, of.class, of.ref, ctx.caps);
    ctx.termsCache.set(of.id, terms);
  }
  return terms;
}

export function conversion(ctx: PositionsContext, of: Instrument, t: number): Conversion {
  return conversionAt(termsOf(ctx, of).quoteCurrency, t, (code) => ctx.market.instrument(code), ctx.quote);
}

export function byRequest(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  requestId: string,
): Promise<PositionRow | null> {
  return positionByRequest(ctx.db, userId, book, requestId);
}

/**
 * One of the customer's positions in the request's book. Another customer's position, or one of
 * the other book (a demo id used with the live header, or the reverse), is indistinguishable
 * from one that does not exist.
 */
export async function owned(
  ctx: PositionsContext,
  userId: number,
  book: Book,
  id: number,
): Promise<PositionRow> {
  const row = await positionOf(ctx.db, { id, userId, book });
  if (!row) throw new ApiError(Code.NOT_FOUND);
  return row;
}

/** This node's trigger engine hears of a change directly; other nodes through the bus. */
export async function announce(
  ctx: PositionsContext,
  event: Omit<PositionEvent, 'origin'>,
  row: PositionRow | null,
): Promise<void> {
  const full = { ...event, origin: ctx.origin } as PositionEvent;
  for (const listener of ctx.listeners) listener(full, row);
  try {
    await ctx.bus.publish(POSITIONS_TOPIC, full);
  } catch (error) {
    // The engines also sync from the database; a lost event only delays a trigger's indexing.
    ctx.logger?.warn({ err: error, event }, 'trading: position event not published');
  }
}
