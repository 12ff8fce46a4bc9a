import { pendingCrossed } from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { livePendingAfter, type PendingRow, pendingById } from './pending.repository.ts';
import type { PositionsService } from './positions.service.ts';
import { PENDING_TOPIC, type PendingEvent } from './positions.shared.ts';
import { Crossed, InstrumentLevels, Slots } from './trigger-index.ts';

/** Kind codes of a pending order's level. */
const LIMIT = 0;
const STOP = 1;
/** Orders placed on another node reach this one by the bus; a sync from the database backs it up. */
const SYNC_EVERY_SECONDS = 10;
/** A full reload catches changes whose bus events were lost. */
const RELOAD_EVERY_SECONDS = 300;
/** How far back an order that reaches this engine late is checked against the ticks it missed. */
const LATE_SECONDS = 120;

/**
 * The trigger engine's pending entry orders (issue 38): the same price-indexed level lists that
 * close positions (trigger-index.ts), in dense slots. A buy watches the ask (a limit fills when it
 * falls to the level: `askFalls`; a stop when it rises to it: `askRises`), a sell the bid (a limit
 * when it rises: `bidRises`; a stop when it falls: `bidFalls`), so the orders a tick crosses are
 * a prefix of each list and a tick costs what it fills. A crossed order fills at that tick's price
 * (the ask for a buy, the bid for a sell): a limit at its level or better, a stop at its level or,
 * through a gap, worse. Each fill is claimed in the database (open -> filling), so a second node,
 * or a cancel racing the tick, can never make it fill twice or fill and cancel.
 */
export class PendingTriggers {
  private readonly slots = new Slots<PendingRow>();
  private readonly levels = new Map<number, InstrumentLevels>();
  private readonly sells = new Crossed();
  private readonly buys = new Crossed();
  private readonly trading: PositionsService;
  private readonly db: Database;
  private readonly bus: EventBus;
  private readonly logger: Logger | undefined;
  private readonly events = new Set<Promise<void>>();
  private unsubscribe: (() => void) | null = null;
  private maxId = 0;
  private lastSync = 0;
  private lastReload = 0;
  /** The last tick this engine processed (an order that arrives late is checked against the ticks since it was placed). */
  private lastProcessed: number | null = null;
  readonly stats = { filled: 0, rejected: 0, lost: 0, failed: 0 };

  constructor(deps: { trading: PositionsService; db: Database; bus: EventBus; logger?: Logger | undefined }) {
    this.trading = deps.trading;
    this.db = deps.db;
    this.bus = deps.bus;
    this.logger = deps.logger;
  }

  /** Orders indexed and not crossed (a crossed one keeps its slot until its fill is decided). */
  get openCount(): number {
    let open = 0;
    for (const _ of this.slots.entries()) open += 1;
    return open;
  }

  async start(): Promise<void> {
    this.trading.onPendingChange((id) => this.handle(id));
    this.unsubscribe = this.bus.subscribe(PENDING_TOPIC, (message) => {
      const event = message as PendingEvent;
      if (event.origin !== this.trading.origin) this.handle(event.id);
    });
    await this.reload();
    this.lastSync = this.lastReload = Math.floor(this.trading.now() / 1000);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  async idle(): Promise<void> {
    while (this.events.size > 0) await Promise.all(this.events);
  }

  /** Loads every open order from the database, replacing the index. */
  async reload(): Promise<void> {
    const rows: PendingRow[] = [];
    for (let after = 0; ; ) {
      const page = await livePendingAfter(this.db, after, 10_000);
      rows.push(...page);
      if (page.length < 10_000) break;
      after = page.at(-1)?.id ?? after;
    }
    this.slots.clear();
    this.levels.clear();
    this.maxId = 0;
    for (const row of rows) this.track(row, false);
    for (const levels of this.levels.values()) {
      levels.autoMerge = true;
      levels.merge();
    }
  }

  /** Indexes an open order's level (a new generation: its older level is stale); anything else is forgotten. */
  track(row: PendingRow, merge = true): void {
    this.maxId = Math.max(this.maxId, row.id);
    if (row.state !== 'open') {
      this.slots.release(row.id);
      return;
    }
    const long = row.direction === 'long';
    const { slot, generation } = this.slots.put(row.id, row, row.placedTick, long);
    let levels = this.levels.get(row.instrumentId);
    if (!levels) {
      levels = new InstrumentLevels();
      this.levels.set(row.instrumentId, levels);
    }
    levels.autoMerge = merge;
    const level = Number(row.levelTicks);
    const kind = row.type === 'limit' ? LIMIT : STOP;
    if (long && kind === LIMIT) levels.askFalls.add(-level, slot, kind, generation);
    else if (long) levels.askRises.add(level, slot, kind, generation);
    else if (kind === LIMIT) levels.bidRises.add(level, slot, kind, generation);
    else levels.bidFalls.add(-level, slot, kind, generation);
  }

  private handle(id: number): void {
    const handled: Promise<void> = this.onEvent(id)
      .catch((error: unknown) =>
        this.logger?.warn({ err: error, id }, 'trading engine: pending event failed'),
      )
      .finally(() => this.events.delete(handled));
    this.events.add(handled);
  }

  private async onEvent(id: number): Promise<void> {
    const row = await pendingById(this.db, id);
    if (!row) return;
    this.track(row);
    // Placed before ticks this engine already processed: check those ticks for it alone, in order.
    const last = this.lastProcessed;
    if (row.state !== 'open' || last === null || last <= row.placedTick) return;
    const instrument = this.trading.market.instrumentById(row.instrumentId);
    if (!instrument) return;
    for (let t = Math.max(row.placedTick + 1, last - LATE_SECONDS); t <= last; t++) {
      if (!this.trading.market.isOpen(instrument, t)) continue;
      const q = this.trading.quote(instrument, t);
      if (!pendingCrossed(row.direction, row.type, row.levelTicks, q.bid, q.ask)) continue;
      this.slots.release(row.id);
      await this.fill([{ id: row.id, t, ticks: row.direction === 'long' ? q.ask : q.bid }]);
      return;
    }
  }

  /**
   * The orders tick t crosses, at that tick's price (synchronous: the index only). An order placed
   * at or after t waits for a later tick. A crossed order's slot is marked taken (generation 0, as
   * the positions' closings do) and released once its fill is decided (`fill`): the hot loop reads
   * typed arrays only. A fill that fails puts its order back.
   */
  detect(t: number): { id: number; t: number; ticks: bigint }[] {
    const out: { id: number; t: number; ticks: bigint }[] = [];
    const later: number[] = [];
    for (const [instrumentId, levels] of this.levels) {
      if (levels.length === 0) continue;
      const instrument = this.trading.market.instrumentById(instrumentId);
      if (!instrument || !this.trading.market.isOpen(instrument, t)) continue;
      const quote = this.trading.quote(instrument, t);
      this.sells.reset();
      this.buys.reset();
      levels.crossed(Number(quote.bid), Number(quote.ask), this.sells, this.buys);
      this.take(this.sells, quote.bid, t, out, later);
      this.take(this.buys, quote.ask, t, out, later);
    }
    for (const slot of later) this.track(this.slots.values[slot] as PendingRow);
    return out;
  }

  private take(
    crossed: Crossed,
    price: bigint,
    t: number,
    out: { id: number; t: number; ticks: bigint }[],
    later: number[],
  ): void {
    const { gens, live } = this.slots;
    const { slots, gens: levelGens, length } = crossed;
    for (let i = 0; i < length; i++) {
      const slot = slots[i] as number;
      if (gens[slot] !== levelGens[i]) continue;
      if ((live[slot] as number) >= t) {
        later.push(slot);
        continue;
      }
      gens[slot] = 0;
      out.push({ id: this.slots.idOf(slot), t, ticks: price });
    }
  }

  /** Tick t: fills what it crossed (each claimed once in the database), then keeps the index current. */
  async tick(t: number): Promise<void> {
    const crossed = this.detect(t);
    if (crossed.length > 0) await this.fill(crossed);
    this.lastProcessed = t;
    if (t - this.lastReload >= RELOAD_EVERY_SECONDS) {
      this.lastReload = this.lastSync = t;
      await this.reload();
    } else if (t - this.lastSync >= SYNC_EVERY_SECONDS) {
      this.lastSync = t;
      for (const row of await livePendingAfter(this.db, this.maxId, 10_000)) this.track(row);
    }
  }

  private async fill(crossed: { id: number; t: number; ticks: bigint }[]): Promise<void> {
    await Promise.all(
      crossed.map(async ({ id, t, ticks }) => {
        try {
          const ended = await this.trading.fillPending(id, t, ticks);
          // Decided (filled, rejected, or another node's or a cancel's): its slot is free.
          this.slots.release(id);
          if (!ended) this.stats.lost += 1;
          else if (ended.state === 'filled') this.stats.filled += 1;
          else this.stats.rejected += 1;
        } catch (error) {
          // Not claimed: back into the index, so the next tick tries again (claimed: the job completes it).
          this.stats.failed += 1;
          this.logger?.error({ err: error, id }, 'trading engine: pending order fill failed');
          const row = await pendingById(this.db, id).catch(() => null);
          if (row) this.track(row);
          else this.slots.release(id);
        }
      }),
    );
  }
}
