import type { CloseReason } from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Instrument } from '../market/feed.ts';
import { closeSide } from '../market/pricing.ts';
import type { TickWatcher } from '../products/ports.ts';
import { PendingTriggers } from './pending-triggers.ts';
import {
  lastTick,
  openPositionsAfter,
  type PositionRow,
  positionById,
  saveLastTick,
} from './positions.repository.ts';
import { POSITIONS_TOPIC, type PositionEvent, type PositionsService } from './positions.service.ts';
import { TickClosings } from './tick-closings.ts';
import { TrailingStops } from './trailing-stops.ts';
import {
  Crossed,
  ExpiryHeap,
  InstrumentLevels,
  Slots,
  STOP_OUT,
  TRIGGER_KINDS,
  type TriggerKind,
} from './trigger-index.ts';

/** How far back a restarted (or newly leading) engine replays missed ticks. */
const MAX_CATCH_UP_SECONDS = 86_400;
/** Positions opened on another node reach this one by the bus; a sync from the database backs it up. */
const SYNC_EVERY_SECONDS = 10;
/** A full reload catches stop changes whose bus events were lost. */
const RELOAD_EVERY_SECONDS = 300;
/** Cross-currency positions: their stop-out price moves with the conversion rate; re-indexed this often. */
const REINDEX_CROSS_EVERY_SECONDS = 60;

type Tracked = { row: PositionRow; instrument: Instrument };

type Kind = TriggerKind | 'expiry' | 'trailing_stop';
/** What fires first when several levels of one position are crossed by the same tick. */
const PRIORITY: readonly Kind[] = ['take_profit', 'trailing_stop', 'stop_loss', 'stop_out', 'expiry'];

export type Closing = { row: PositionRow; reason: CloseReason; closeTicks: bigint };

/** Reason codes of a closing (tick-closings.ts): the trigger kinds' codes, then auto-close, then a trailing stop. */
const EXPIRY = TRIGGER_KINDS.length;

/**
 * The trigger engine: stop loss, take profit, stop-out (margin level at or below 50 %) and
 * auto-close, checked on every tick through price-indexed level lists (trigger-index.ts).
 *
 * Every node keeps the index of open positions (loaded from the database, kept current by bus
 * events and a periodic sync); only the node that leads the quote feed runs ticks. Each processed
 * tick is recorded, so a restart or a new leader replays the seconds it missed, and a position
 * closes at the price of the tick that crossed its level. A position closes at most once: its
 * closing entry has one idempotency key, so a second engine (or the customer) racing it changes
 * nothing.
 */
export class TriggerEngine {
  private readonly trading: PositionsService;
  private readonly db: Database;
  private readonly bus: EventBus;
  private readonly logger: Logger | undefined;
  private readonly slots = new Slots<Tracked>();
  private readonly levels = new Map<number, InstrumentLevels>();
  /** Trailing stops (trailing-stops.ts): scanned per tick, their moves written every few seconds. */
  readonly trails = new TrailingStops(this.slots as Slots<unknown>);
  private readonly expiries = new ExpiryHeap();
  /** Pending entry orders (pending-triggers.ts): filled at the first tick that crosses their level. */
  readonly pendings: PendingTriggers;
  private bulk = false;
  /** Scratch lists of the levels a tick crossed (reused). */
  private readonly longs = new Crossed();
  private readonly shorts = new Crossed();
  /** Closings whose slots are released after their tick (not inside it). */
  private closed: TickClosings[] = [];
  private maxId = 0;
  private lastProcessed: number | null = null;
  private running: Promise<void> | null = null;
  private wanted: number | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastSync = 0;
  private lastReload = 0;
  private lastReindex = 0;
  readonly stats = { ticks: 0, fired: 0, settled: 0, failed: 0 };
  private readonly pending = new Set<Promise<void>>();

  /** The price alerts (products/ports.ts `TickWatcher`), told each tick after the triggers. */
  private readonly watcher: TickWatcher | undefined;

  constructor(deps: {
    trading: PositionsService;
    db: Database;
    bus: EventBus;
    logger?: Logger;
    watcher?: TickWatcher;
  }) {
    this.trading = deps.trading;
    this.db = deps.db;
    this.bus = deps.bus;
    this.logger = deps.logger;
    this.watcher = deps.watcher;
    this.pendings = new PendingTriggers(deps);
  }

  get openCount(): number {
    this.forgetClosed();
    return this.slots.size;
  }

  async start(): Promise<void> {
    this.trading.onChange((event, row) => {
      if (event.type === 'closed') this.untrack(event.id);
      else this.handle(event, row);
    });
    this.unsubscribe = this.bus.subscribe(POSITIONS_TOPIC, (message) => {
      const event = message as PositionEvent;
      if (event.origin !== this.trading.origin) this.handle(event);
    });
    await this.reload();
    await this.pendings.start();
    const now = Math.floor(this.trading.now() / 1000);
    this.lastReload = now;
    this.lastSync = now;
    this.lastReindex = now;
  }

  private handle(event: PositionEvent, row: PositionRow | null = null): void {
    const handled: Promise<void> = this.onEvent(event, row)
      .catch((error: unknown) => this.logger?.warn({ err: error }, 'trading engine: event failed'))
      .finally(() => this.pending.delete(handled));
    this.pending.add(handled);
  }

  /** Resolves when the position events received so far are indexed (tests, orderly shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    await this.pendings.idle();
    if (this.running) await this.running;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.pendings.stop();
  }

  /** Loads every open position from the database, replacing the index. */
  async reload(): Promise<void> {
    const rows: PositionRow[] = [];
    for (let after = 0; ; ) {
      const page = await openPositionsAfter(this.db, after, 10_000);
      rows.push(...page);
      if (page.length < 10_000) break;
      after = page.at(-1)?.id ?? after;
    }
    this.trails.reset(); // keeps this node's levels: a reload never loosens one
    this.slots.clear();
    this.closed = [];
    this.levels.clear();
    this.maxId = 0;
    this.bulkLoad(rows);
    this.trails.loaded();
  }

  /** Tracks many positions at once: levels are sorted once at the end rather than merged as they come. */
  bulkLoad(rows: Iterable<PositionRow>): void {
    this.bulk = true;
    try {
      for (const row of rows) this.track(row);
    } finally {
      this.bulk = false;
      this.compact();
    }
  }

  /** Adds (or re-adds, with a new generation) a position's levels to the index. */
  track(row: PositionRow): void {
    // A smart plan's position is closed by its plan's engine, on the one-minute bars its backtest
    // uses too (modules/smart): a tick-level trigger here would make the live plan differ from it.
    if (row.status !== 'open' || row.planId !== null) {
      this.untrack(row.id);
      return;
    }
    const instrument = this.trading.market.instrumentById(row.instrumentId);
    if (!instrument) return;
    const kept = this.trails.kept(row.id);
    const { slot, generation } = this.slots.put(
      row.id,
      { row, instrument },
      row.liveTick,
      row.direction === 'long',
    );
    this.maxId = Math.max(this.maxId, row.id);
    let levels = this.levels.get(row.instrumentId);
    if (!levels) {
      levels = new InstrumentLevels();
      this.levels.set(row.instrumentId, levels);
    }
    levels.autoMerge = !this.bulk;
    const sl = Number(row.stopLossTicks);
    const tp = Number(row.takeProfitTicks);
    const out = Number(row.liquidationTicks);
    if (row.direction === 'long') levels.addLong(slot, generation, sl, tp, out);
    else levels.addShort(slot, generation, sl, tp, out);
    if (row.expiresTick !== null) this.expiries.push(row.expiresTick, slot, generation);
    this.trails.track(row, slot, generation, kept);
  }

  untrack(id: number): void {
    this.slots.release(id);
  }

  private async onEvent(event: PositionEvent, known: PositionRow | null): Promise<void> {
    if (event.type === 'closed') {
      this.untrack(event.id);
      return;
    }
    const row = known ?? (await positionById(this.db, event.id));
    if (!row) return;
    this.track(row);
    // Opened after this engine already processed ticks past its fill: check those ticks for it alone.
    if (event.type === 'opened' && this.lastProcessed !== null && this.lastProcessed > row.liveTick) {
      for (let t = Math.max(row.liveTick + 1, this.lastProcessed - 120); t <= this.lastProcessed; t++) {
        const closing = this.check(row.id, t);
        if (closing) {
          await this.settle([closing], t);
          break;
        }
      }
    }
  }

  /** One position against one tick, without the index (late arrivals only). */
  private check(id: number, t: number): Closing | null {
    const slot = this.slots.slotOf(id);
    const entry = slot === undefined ? undefined : this.slots.values[slot];
    if (slot === undefined || !entry || this.slots.gens[slot] === 0) return null;
    if (entry.row.liveTick >= t || !this.trading.market.isOpen(entry.instrument, t)) return null;
    const { row } = entry;
    const price = closeSide(row.direction, this.trading.quote(entry.instrument, t));
    const long = row.direction === 'long';
    const kinds: Kind[] = [];
    if (long ? price >= row.takeProfitTicks : price <= row.takeProfitTicks) kinds.push('take_profit');
    if (this.trails.checkOne(slot, price)) kinds.push('trailing_stop');
    if (long ? price <= row.stopLossTicks : price >= row.stopLossTicks) kinds.push('stop_loss');
    if (long ? price <= row.liquidationTicks : price >= row.liquidationTicks) kinds.push('stop_out');
    if (row.expiresTick !== null && row.expiresTick <= t) kinds.push('expiry');
    const decided = this.decide({ ...entry, row: this.trails.withLevel(row, slot) }, kinds, t, price);
    // Settled at once by the caller, which re-tracks the row if settlement fails.
    if (decided) this.slots.release(id);
    return decided;
  }

  private decide(entry: Tracked, kinds: Kind[], t: number, price: bigint): Closing | null {
    for (const kind of PRIORITY) {
      if (!kinds.includes(kind)) continue;
      if (kind === 'stop_out' && !this.trading.stoppedOutAt(entry.row, t, price)) {
        // The quote currency moved since the level was set (cross pairs): index it anew.
        this.reindex(entry);
        continue;
      }
      return { row: entry.row, reason: kind, closeTicks: price };
    }
    return null;
  }

  private reindex(entry: Tracked): void {
    const instrument = entry.instrument;
    const t = Math.floor(this.trading.now() / 1000);
    const conversion = this.trading.conversion(instrument, t);
    if (conversion.num === conversion.den) {
      this.track(entry.row);
      return;
    }
    // Stop-out moves with the conversion: recompute it at the current rate.
    const row = { ...entry.row };
    row.liquidationTicks = this.trading.liquidationAt(row, conversion);
    this.track(row);
  }

  /**
   * The positions a tick closes (synchronous: the part whose cost the bench measures). Levels are
   * popped from each instrument's lists in level order; the first valid level of a position closes
   * it (a take profit and a stop loss never cross together; a stop loss comes before its stop-out),
   * later ones are stale. A position that went live at or after this tick is skipped and re-indexed.
   * The hot path reads typed arrays only; a position's row is read for a stop-out's exact check.
   */
  detect(t: number): TickClosings {
    const closing = new TickClosings();
    const later: number[] = [];
    const { longs, shorts } = this;
    for (const [instrumentId, levels] of this.levels) {
      if (levels.length === 0 && !this.trails.has(instrumentId)) continue;
      const instrument = this.trading.market.instrumentById(instrumentId);
      if (!instrument || !this.trading.market.isOpen(instrument, t)) continue;
      const quote = this.trading.quote(instrument, t);
      longs.reset();
      shorts.reset();
      levels.crossed(Number(quote.bid), Number(quote.ask), longs, shorts);
      // Trailing stops first: one tighter than its stop loss fires before it (PRIORITY).
      this.trails.scan(instrumentId, Number(quote.bid), Number(quote.ask), t, closing, EXPIRY + 1);
      this.fire(longs, quote.bid, t, closing, later);
      this.fire(shorts, quote.ask, t, closing, later);
    }
    const { gens, values } = this.slots;
    for (let top = this.expiries.peek(); top && top.tick <= t; top = this.expiries.peek()) {
      this.expiries.pop();
      if (gens[top.slot] !== top.gen) continue;
      const entry = values[top.slot] as Tracked;
      if (!this.trading.market.isOpen(entry.instrument, t)) {
        // Auto-close waits for the market to open.
        this.expiries.push(t + 60, top.slot, top.gen);
        continue;
      }
      gens[top.slot] = 0;
      const price = closeSide(entry.row.direction, this.trading.quote(entry.instrument, t));
      closing.add(top.slot, EXPIRY, Number(price));
    }
    // Levels popped but not fired: back into the index (after the lists are popped, not during).
    for (let i = 0; i < later.length; i += 2) {
      const slot = later[i] as number;
      if (gens[slot] === later[i + 1]) this.reindex(values[slot] as Tracked);
    }
    this.stats.fired += closing.length;
    this.closed.push(closing);
    return closing;
  }

  /**
   * Fires the crossed levels of one side at its price. A level is stale unless it carries its
   * position's current generation. A position that went live at or after this tick, or whose
   * stop-out level the exact check refutes (cross pairs: the quote currency moved since the level
   * was set), goes to `later`, to be indexed anew.
   */
  private fire(crossed: Crossed, price: bigint, t: number, closing: TickClosings, later: number[]): void {
    const { gens, live, values } = this.slots;
    const { slots, kinds, gens: levelGens, length } = crossed;
    const ticks = Number(price);
    closing.reserve(length);
    const { slots: closedSlots, reasons, prices } = closing;
    let n = closing.length;
    for (let i = 0; i < length; i++) {
      const slot = slots[i] as number;
      const generation = levelGens[i] as number;
      if (gens[slot] !== generation) continue;
      const kind = kinds[i] as number;
      if (
        (live[slot] as number) >= t ||
        (kind === STOP_OUT && !this.trading.stoppedOutAt((values[slot] as Tracked).row, t, price))
      ) {
        later.push(slot, generation);
        continue;
      }
      gens[slot] = 0; // closed: its other levels are stale from now on
      closedSlots[n] = slot;
      reasons[n] = kind;
      prices[n] = ticks;
      n++;
    }
    closing.length = n;
  }

  /** Merges every list's buffer into its sorted run (after a bulk load). */
  compact(): void {
    for (const levels of this.levels.values()) {
      levels.autoMerge = true;
      levels.merge();
    }
  }

  /** Releases the slots of positions the last ticks closed (kept out of the tick's own time). */
  private forgetClosed(): void {
    for (const closing of this.closed) {
      for (let i = 0; i < closing.length; i++) {
        const slot = closing.slot(i);
        if (this.slots.gens[slot] === 0) this.slots.release(this.slots.idOf(slot));
      }
    }
    this.closed = [];
  }

  /** The closings of a tick with their rows (read before their slots are released). */
  private closingsOf(closing: TickClosings): Closing[] {
    return Array.from({ length: closing.length }, (_, i) => ({
      row: this.trails.withLevel((this.slots.values[closing.slot(i)] as Tracked).row, closing.slot(i)),
      reason: closing.reason(i),
      closeTicks: closing.closeTicks(i),
    }));
  }

  private async settle(list: Closing[], t: number): Promise<void> {
    this.forgetClosed();
    await Promise.all(
      list.map(async (c) => {
        try {
          await this.trading.settle(c.row, c.reason, t, c.closeTicks);
          this.stats.settled += 1;
        } catch (error) {
          // Not settled: back into the index, so the next tick tries again.
          this.stats.failed += 1;
          this.logger?.error({ err: error, position: c.row.id }, 'trading engine: settlement failed');
          this.track(c.row);
        }
      }),
    );
  }

  /**
   * Called by the quote feed's leader once a second. Processes every second since the last one
   * processed (none skipped), one at a time; overlapping calls coalesce.
   */
  tick(t: number): Promise<void> {
    this.wanted = Math.max(this.wanted ?? t, t);
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.wanted !== null) {
      const target = this.wanted;
      this.wanted = null;
      await this.advance(target);
    }
  }

  private async advance(target: number): Promise<void> {
    let from = this.lastProcessed;
    if (from === null || from < target - 1) {
      // Not continuous (start, or another node led meanwhile): resume from what was recorded.
      const recorded = await lastTick(this.db);
      from = Math.max(from ?? 0, recorded ?? target - 1);
      await this.trails.catchUp(this.db); // the levels the node that led wrote
    }
    from = Math.max(from, target - MAX_CATCH_UP_SECONDS);
    for (let t = from + 1; t <= target; t++) {
      const closing = this.detect(t);
      if (closing.length > 0) await this.settle(this.closingsOf(closing), t);
      await this.pendings.tick(t);
      this.watcher?.(t);
      this.lastProcessed = t;
      this.stats.ticks += 1;
      // Long catch-ups yield to requests now and then.
      if ((t - from) % 600 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (from >= target) return;
    await saveLastTick(this.db, target);
    await this.housekeeping(target);
  }

  /** Writes the trailing levels moved since the last write (also done on a cadence, and before a reload). */
  saveTrails = (): Promise<number> => this.trails.save(this.db, this.logger);

  private async housekeeping(t: number): Promise<void> {
    await this.trails.saveDue(t, t - this.lastReload >= RELOAD_EVERY_SECONDS, this.db, this.logger);
    if (t - this.lastReload >= RELOAD_EVERY_SECONDS) {
      this.lastReload = t;
      this.lastSync = t;
      await this.reload();
      return;
    }
    if (t - this.lastSync >= SYNC_EVERY_SECONDS) {
      this.lastSync = t;
      for (const row of await openPositionsAfter(this.db, this.maxId, 10_000)) this.track(row);
    }
    if (t - this.lastReindex >= REINDEX_CROSS_EVERY_SECONDS) {
      this.lastReindex = t;
      for (const [, entry] of [...this.slots.entries()]) {
        const currency = this.trading.termsOf(entry.instrument).quoteCurrency;
        if (currency !== 'USD' && currency !== 'USDT') this.reindex(entry);
      }
    }
  }
}
