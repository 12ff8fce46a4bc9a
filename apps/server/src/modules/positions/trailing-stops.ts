import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { openTrailingLevels, type PositionRow, saveTrailingLevels } from './positions.repository.ts';
import { grown, type Slots, TrailingList } from './trigger-index.ts';

/** Where a tick's closings go (the engine's TickClosings). */
type ClosingSink = { add(slot: number, reason: number, price: number): void };
type Kept = { distance: number; level: number };

/**
 * Moved levels are written this often by the node that leads the ticks (and before a reload, and
 * with each close): a restarted or newly leading node may resume up to this far behind, never
 * looser than the last level written.
 */
export const TRAIL_SAVE_EVERY_SECONDS = 5;

/**
 * The trigger engine's trailing stops. A trailing level moves with the price, so it cannot sit in
 * a sorted level list: each instrument keeps a dense list of (slot, generation) pairs, scanned once
 * per tick, and the distance, level and stop loss of each position are typed arrays by slot
 * (distance 0: none). A level only ever tightens: a long's is max(level, bid − distance), a
 * short's min(level, ask + distance). Moved levels are marked and written in one statement
 * (`save`), never looser than what the database has.
 */
export class TrailingStops {
  private distance = new Float64Array(1024);
  private level = new Float64Array(1024);
  private stop = new Float64Array(1024);
  private moved = new Uint8Array(1024);
  private movedSlots: number[] = [];
  private readonly lists = new Map<number, TrailingList>();
  /** Levels kept across a reload (by position id), so a reload never loosens a trailing stop. */
  private carried: Map<number, Kept> | null = null;
  private lastSave = 0;

  private readonly slots: Slots<unknown>;

  constructor(slots: Slots<unknown>) {
    this.slots = slots;
  }

  /** How many levels moved since they were last written. */
  get unsaved(): number {
    return this.movedSlots.length;
  }

  /** A position's level now (ticks), if it is tracked with one. */
  levelOf(id: number): bigint | null {
    const slot = this.slots.slotOf(id);
    if (slot === undefined || this.slots.gens[slot] === 0 || !this.distance[slot]) return null;
    return BigInt(this.level[slot] as number);
  }

  /** Any trailing stops (live or stale) on this instrument? */
  has(instrumentId: number): boolean {
    return (this.lists.get(instrumentId)?.length ?? 0) > 0;
  }

  /** Before a reload: keeps every level by position id, then forgets the slots. */
  reset(): void {
    this.carried = new Map();
    for (const [slot] of this.slots.entries()) {
      const distance = this.distance[slot] as number;
      if (distance) this.carried.set(this.slots.idOf(slot), { distance, level: this.level[slot] as number });
    }
    this.lists.clear();
    this.distance.fill(0);
    this.moved.fill(0);
    this.movedSlots = [];
  }

  /** After a reload: the kept levels have been applied. */
  loaded(): void {
    this.carried = null;
  }

  /** What a position about to be (re-)indexed had here: its distance and level. */
  kept(id: number): Kept | undefined {
    const slot = this.slots.slotOf(id);
    if (slot !== undefined && (this.distance[slot] as number) > 0)
      return { distance: this.distance[slot] as number, level: this.level[slot] as number };
    return this.carried?.get(id);
  }

  /**
   * Indexes a position's trailing stop in its slot. Re-indexed with the same distance, it keeps the
   * tighter of the level it had here and the row's; a new distance starts anew.
   */
  track(row: PositionRow, slot: number, generation: number, kept: Kept | undefined): void {
    this.room(slot);
    if (row.trailingDistanceTicks === null || row.trailingLevelTicks === null) {
      this.distance[slot] = 0;
      return;
    }
    const distance = Number(row.trailingDistanceTicks);
    let level = Number(row.trailingLevelTicks);
    if (kept && kept.distance === distance)
      level = row.direction === 'long' ? Math.max(level, kept.level) : Math.min(level, kept.level);
    this.distance[slot] = distance;
    this.level[slot] = level;
    this.stop[slot] = Number(row.stopLossTicks);
    let list = this.lists.get(row.instrumentId);
    if (!list) {
      list = new TrailingList();
      this.lists.set(row.instrumentId, list);
    }
    list.add(slot, generation);
    list.include(row.direction === 'long', level, distance);
  }

  /**
   * Checks, then moves, the trailing stops of one instrument at a tick. A long's fires when the bid
   * is at or below its level, a short's when the ask is at or above it (at that price, as a stop
   * loss does), while it is tighter than the stop loss (otherwise the stop loss fires: it is crossed
   * too). Otherwise the level follows the price. A position not yet live at this tick is left as
   * it is. Typed arrays only; stale pairs are dropped as they are met. A tick that can neither fire
   * nor move any of them (the list's bounds) costs nothing.
   */
  scan(instrumentId: number, bid: number, ask: number, t: number, out: ClosingSink, reason: number): void {
    const list = this.lists.get(instrumentId);
    if (!list || list.quiet(bid, ask)) return;
    const { gens, live, long } = this.slots;
    const { distance, level: levels, stop } = this;
    list.resetBounds();
    const { slots, gens: pairGens } = list;
    let n = list.length;
    for (let i = 0; i < n; ) {
      const slot = slots[i] as number;
      if (gens[slot] !== pairGens[i]) {
        // Stale: the last pair takes its place.
        n--;
        slots[i] = slots[n] as number;
        pairGens[i] = pairGens[n] as number;
        continue;
      }
      i++;
      const isLong = long[slot] === 1;
      let level = levels[slot] as number;
      const d = distance[slot] as number;
      if ((live[slot] as number) < t) {
        const price = isLong ? bid : ask;
        if (isLong ? price <= level : price >= level) {
          if (isLong ? level > (stop[slot] as number) : level < (stop[slot] as number)) {
            gens[slot] = 0;
            out.add(slot, reason, price);
            continue;
          }
        } else {
          const next = isLong ? price - d : price + d;
          if (isLong ? next > level : next < level) {
            levels[slot] = next;
            level = next;
            this.mark(slot);
          }
        }
      }
      list.include(isLong, level, d);
    }
    list.length = n;
  }

  /** One position at one closing price (late arrivals): true when its trailing stop fires, else it moves. */
  checkOne(slot: number, closeTicks: bigint): boolean {
    const distance = this.distance[slot] as number;
    if (!distance) return false;
    this.unsettle(); // a level may move outside a scan
    let fired = false;
    this.scanOne(slot, Number(closeTicks), () => {
      fired = true;
    });
    return fired;
  }

  private scanOne(slot: number, price: number, fire: () => void): void {
    const isLong = this.slots.long[slot] === 1;
    const level = this.level[slot] as number;
    const stop = this.stop[slot] as number;
    if (isLong ? price <= level : price >= level) {
      if (isLong ? level > stop : level < stop) fire();
      return;
    }
    const next = isLong ? price - (this.distance[slot] as number) : price + (this.distance[slot] as number);
    if (isLong ? next > level : next < level) {
      this.level[slot] = next;
      this.mark(slot);
    }
  }

  /** The row with this engine's level (written with the close). */
  withLevel<R extends PositionRow>(row: R, slot: number): R {
    if (!this.distance[slot] || row.trailingDistanceTicks === null) return row;
    return { ...row, trailingLevelTicks: BigInt(this.level[slot] as number) };
  }

  /** Writes the moved levels when TRAIL_SAVE_EVERY_SECONDS have passed since the last write at tick t (or `now`). */
  async saveDue(t: number, now: boolean, db: Database, logger: Logger | undefined): Promise<void> {
    if (!now && t - this.lastSave < TRAIL_SAVE_EVERY_SECONDS) return;
    this.lastSave = t;
    await this.save(db, logger);
  }

  /** Writes the levels moved since the last write, in one statement; a failed write is tried again next time. */
  async save(db: Database, logger: Logger | undefined): Promise<number> {
    const slots = this.movedSlots;
    this.movedSlots = [];
    const moves: { id: number; distanceTicks: bigint; levelTicks: bigint }[] = [];
    for (const slot of slots) {
      this.moved[slot] = 0;
      const distance = this.distance[slot] as number;
      if (this.slots.gens[slot] === 0 || !distance) continue;
      const levelTicks = BigInt(this.level[slot] as number);
      moves.push({ id: this.slots.idOf(slot), distanceTicks: BigInt(distance), levelTicks });
    }
    try {
      return await saveTrailingLevels(db, moves);
    } catch (error) {
      for (const slot of slots) this.mark(slot);
      logger?.warn({ err: error }, 'trading engine: trailing levels not written');
      return 0;
    }
  }

  /** Levels another node wrote (it led the ticks meanwhile): each becomes the tighter of the two. */
  async catchUp(db: Database): Promise<void> {
    this.unsettle();
    for (const written of await openTrailingLevels(db)) {
      const slot = this.slots.slotOf(written.id);
      if (slot === undefined || this.slots.gens[slot] === 0) continue;
      if (this.distance[slot] !== Number(written.distanceTicks)) continue;
      const level = Number(written.levelTicks);
      const now = this.level[slot] as number;
      this.level[slot] = this.slots.long[slot] ? Math.max(now, level) : Math.min(now, level);
    }
  }

  /** Every list scans at its next tick (levels moved outside a scan: its bounds may be stale). */
  private unsettle(): void {
    for (const list of this.lists.values()) list.dirty = true;
  }

  private mark(slot: number): void {
    if (this.moved[slot]) return;
    this.moved[slot] = 1;
    this.movedSlots.push(slot);
  }

  /** Room for the per-slot arrays up to `slot`. */
  private room(slot: number): void {
    if (slot < this.distance.length) return;
    const keep = this.distance.length;
    this.distance = grown(this.distance, slot + 1, keep);
    this.level = grown(this.level, slot + 1, keep);
    this.stop = grown(this.stop, slot + 1, keep);
    this.moved = grown(this.moved, slot + 1, keep);
  }
}
