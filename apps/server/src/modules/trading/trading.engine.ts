import type { CloseReason } from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { type Instrument, isOpen } from '../market/feed.ts';
import { closeSide } from './pricing.ts';
import {
  lastTick,
  openPositionsAfter,
  type PositionRow,
  positionById,
  saveLastTick,
} from './trading.repository.ts';
import { POSITIONS_TOPIC, type PositionEvent, type TradingService } from './trading.service.ts';
import { ExpiryHeap, InstrumentLevels, PositionTable, type TriggerKind } from './trigger-index.ts';

/** How far back a restarted (or newly leading) engine replays missed ticks. */
const MAX_CATCH_UP_SECONDS = 86_400;
/** Positions opened on another node reach this one by the bus; a sync from the database backs it up. */
const SYNC_EVERY_SECONDS = 10;
/** A full reload catches stop changes whose bus events were lost. */
const RELOAD_EVERY_SECONDS = 300;
/** Cross-currency positions: their stop-out price moves with the conversion rate; re-indexed this often. */
const REINDEX_CROSS_EVERY_SECONDS = 60;

type Tracked = { row: PositionRow; generation: number; instrument: Instrument };

/** What fires first when several levels of one position are crossed by the same tick. */
const PRIORITY: readonly (TriggerKind | 'expiry')[] = ['take_profit', 'stop_loss', 'stop_out', 'expiry'];

export type Closing = { row: PositionRow; reason: CloseReason; closeTicks: bigint };

/** The positions one tick closes, as parallel lists (no object per position on the hot path). */
export class TickClosings {
  readonly rows: PositionRow[] = [];
  readonly reasons: CloseReason[] = [];
  readonly prices: bigint[] = [];

  get length(): number {
    return this.rows.length;
  }

  add(row: PositionRow, reason: CloseReason, price: bigint): void {
    this.rows.push(row);
    this.reasons.push(reason);
    this.prices.push(price);
  }

  at(i: number): Closing {
    return {
      row: this.rows[i] as PositionRow,
      reason: this.reasons[i] as CloseReason,
      closeTicks: this.prices[i] as bigint,
    };
  }
}

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
  private readonly trading: TradingService;
  private readonly db: Database;
  private readonly bus: EventBus;
  private readonly logger: Logger | undefined;
  private readonly tracked = new PositionTable<Tracked>();
  private readonly levels = new Map<number, InstrumentLevels>();
  private readonly expiries = new ExpiryHeap();
  private generation = 0;
  private bulk = false;
  /** Positions closed by a tick, removed from `tracked` after the tick (not inside it). */
  private closedIds: number[] = [];
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

  constructor(deps: { trading: TradingService; db: Database; bus: EventBus; logger?: Logger }) {
    this.trading = deps.trading;
    this.db = deps.db;
    this.bus = deps.bus;
    this.logger = deps.logger;
  }

  get openCount(): number {
    this.forgetClosed();
    return this.tracked.size;
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
    if (this.running) await this.running;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
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
    this.tracked.clear();
    this.levels.clear();
    this.maxId = 0;
    this.bulkLoad(rows);
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
    if (row.status !== 'open') {
      this.untrack(row.id);
      return;
    }
    const instrument = this.trading.market.instrumentById(row.instrumentId);
    if (!instrument) return;
    const generation = ++this.generation;
    this.tracked.set(row.id, { row, generation, instrument });
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
    if (row.direction === 'long') levels.addLong(row.id, generation, sl, tp, out);
    else levels.addShort(row.id, generation, sl, tp, out);
    if (row.expiresTick !== null) this.expiries.push(row.expiresTick, row.id, generation);
  }

  untrack(id: number): void {
    this.tracked.delete(id);
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
          const one = new TickClosings();
          one.add(closing.row, closing.reason, closing.closeTicks);
          await this.settle(one, t);
          break;
        }
      }
    }
  }

  /** One position against one tick, without the index (late arrivals only). */
  private check(id: number, t: number): Closing | null {
    const entry = this.tracked.get(id);
    if (!entry || entry.row.liveTick >= t || !isOpen(entry.instrument.class, t)) return null;
    const { row } = entry;
    const price = closeSide(row.direction, this.trading.quote(entry.instrument, t));
    const long = row.direction === 'long';
    const kinds: (TriggerKind | 'expiry')[] = [];
    if (long ? price >= row.takeProfitTicks : price <= row.takeProfitTicks) kinds.push('take_profit');
    if (long ? price <= row.stopLossTicks : price >= row.stopLossTicks) kinds.push('stop_loss');
    if (long ? price <= row.liquidationTicks : price >= row.liquidationTicks) kinds.push('stop_out');
    if (row.expiresTick !== null && row.expiresTick <= t) kinds.push('expiry');
    return this.decide(entry, kinds, t, price);
  }

  private decide(
    entry: Tracked,
    kinds: (TriggerKind | 'expiry')[],
    t: number,
    price: bigint,
  ): Closing | null {
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
   */
  detect(t: number): TickClosings {
    const closing = new TickClosings();
    const notLive = new Set<Tracked>();
    for (const [instrumentId, levels] of this.levels) {
      if (levels.length === 0) continue;
      const instrument = this.trading.market.instrumentById(instrumentId);
      if (!instrument || !isOpen(instrument.class, t)) continue;
      const quote = this.trading.quote(instrument, t);
      levels.crossed(Number(quote.bid), Number(quote.ask), (id, kind, generation) => {
        const entry = this.tracked.get(id);
        if (!entry || entry.generation !== generation) return;
        if (entry.row.liveTick >= t) {
          notLive.add(entry);
          return;
        }
        const price = entry.row.direction === 'long' ? quote.bid : quote.ask;
        if (kind === 'stop_out' && !this.trading.stoppedOutAt(entry.row, t, price)) {
          // The quote currency moved since the level was set (cross pairs): index it anew.
          this.reindex(entry);
          return;
        }
        entry.generation = -1; // closed: its other levels are stale from now on
        this.closedIds.push(id);
        closing.add(entry.row, kind, price);
      });
    }
    for (let top = this.expiries.peek(); top && top.tick <= t; top = this.expiries.peek()) {
      this.expiries.pop();
      const entry = this.tracked.get(top.id);
      if (!entry || entry.generation !== top.gen) continue;
      if (!isOpen(entry.instrument.class, t)) {
        // Auto-close waits for the market to open.
        this.expiries.push(t + 60, top.id, top.gen);
        continue;
      }
      entry.generation = -1;
      this.closedIds.push(top.id);
      const price = closeSide(entry.row.direction, this.trading.quote(entry.instrument, t));
      closing.add(entry.row, 'expiry', price);
    }
    for (const entry of notLive)
      if (entry.generation >= 0 && this.tracked.get(entry.row.id) === entry) this.track(entry.row);
    this.stats.fired += closing.length;
    return closing;
  }

  /** Merges every list's buffer into its sorted run (after a bulk load). */
  compact(): void {
    for (const levels of this.levels.values()) {
      levels.autoMerge = true;
      levels.merge();
    }
  }

  /** Drops the positions the last ticks closed from the map (kept out of the tick's own time). */
  private forgetClosed(): void {
    for (const id of this.closedIds) if (this.tracked.get(id)?.generation === -1) this.tracked.delete(id);
    this.closedIds = [];
  }

  private async settle(closing: TickClosings, t: number): Promise<void> {
    this.forgetClosed();
    const list = Array.from({ length: closing.length }, (_, i) => closing.at(i));
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
    }
    from = Math.max(from, target - MAX_CATCH_UP_SECONDS);
    for (let t = from + 1; t <= target; t++) {
      const closing = this.detect(t);
      if (closing.length > 0) await this.settle(closing, t);
      this.lastProcessed = t;
      this.stats.ticks += 1;
      // Long catch-ups yield to requests now and then.
      if ((t - from) % 600 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (from >= target) return;
    await saveLastTick(this.db, target);
    await this.housekeeping(target);
  }

  private async housekeeping(t: number): Promise<void> {
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
      for (const entry of [...this.tracked.values()]) {
        const currency = this.trading.termsOf(entry.instrument).quoteCurrency;
        if (currency !== 'USD' && currency !== 'USDT') this.reindex(entry);
      }
    }
  }
}
