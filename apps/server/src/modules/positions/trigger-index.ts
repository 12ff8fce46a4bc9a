/**
 * Price-indexed trigger levels. Each list keeps its levels sorted so that the levels a price has
 * crossed are always a prefix: a tick pops that prefix and never looks at the rest, so its cost
 * grows with what triggers, not with what is open.
 *
 * A level names a position by its slot in `Slots` (dense typed arrays: no object is touched on the
 * hot path). Removing a level is lazy: a level carries its position's generation, and a position
 * that closes or moves its stops gets a new generation, so stale levels are skipped when they
 * surface. New levels go to a small unsorted buffer that is merged into the sorted run when it
 * grows past a share of it (so inserts are cheap and a tick scans at most the buffer plus the
 * crossed prefix).
 */
export const TRIGGER_KINDS = ['take_profit', 'stop_loss', 'stop_out'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];
/** Kind codes as levels store them (indexes of TRIGGER_KINDS). */
export const TAKE_PROFIT = 0;
export const STOP_LOSS = 1;
export const STOP_OUT = 2;

type Dense = Int32Array | Uint32Array | Uint8Array | Float64Array;

/** A typed array of at least `need` items (doubling from `from`'s size) holding `from`'s first `keep`. */
export function grown<A extends Dense>(from: A, need: number, keep: number): A {
  if (need <= from.length) return from;
  let size = Math.max(1, from.length) * 2;
  while (size < need) size *= 2;
  const to = new (from.constructor as new (size: number) => A)(size);
  to.set(from.subarray(0, keep));
  return to;
}

/**
 * The levels one tick crossed on one side, in the order they were popped: parallel typed arrays,
 * reused from tick to tick (no allocation per level; a sorted run is copied in one block).
 */
export class Crossed {
  slots = new Int32Array(1024);
  kinds = new Uint8Array(1024);
  gens = new Uint32Array(1024);
  length = 0;

  reset(): void {
    this.length = 0;
  }

  push(slot: number, kind: number, gen: number): void {
    this.reserve(1);
    this.slots[this.length] = slot;
    this.kinds[this.length] = kind;
    this.gens[this.length] = gen;
    this.length += 1;
  }

  /** Appends levels [from, to) of a sorted run. */
  pushRun(slots: Int32Array, kinds: Uint8Array, gens: Uint32Array, from: number, to: number): void {
    if (to <= from) return;
    this.reserve(to - from);
    this.slots.set(slots.subarray(from, to), this.length);
    this.kinds.set(kinds.subarray(from, to), this.length);
    this.gens.set(gens.subarray(from, to), this.length);
    this.length += to - from;
  }

  private reserve(more: number): void {
    const need = this.length + more;
    this.slots = grown(this.slots, need, this.length);
    this.kinds = grown(this.kinds, need, this.length);
    this.gens = grown(this.gens, need, this.length);
  }
}

/** One sorted list: levels fire when `key <= threshold` (keys ascending). */
export class LevelList {
  private keys = new Float64Array(0);
  private slots = new Int32Array(0);
  private kinds = new Uint8Array(0);
  private gens = new Uint32Array(0);
  private head = 0;
  private size = 0;
  private buffer: { key: number; slot: number; kind: number; gen: number }[] = [];
  /** Off during a bulk load: everything is merged once at the end. */
  autoMerge = true;

  get length(): number {
    return this.size - this.head + this.buffer.length;
  }

  add(key: number, slot: number, kind: number, generation: number): void {
    this.buffer.push({ key, slot, kind, gen: generation });
    if (this.autoMerge && this.buffer.length > Math.max(512, (this.size - this.head) >> 5)) this.merge();
  }

  /** Pops every level with key <= threshold into `out` (buffered ones first, then the sorted run). */
  take(threshold: number, out: Crossed): void {
    if (this.buffer.length > 0) {
      let kept = 0;
      const crossed: typeof this.buffer = [];
      for (const level of this.buffer) {
        if (level.key <= threshold) crossed.push(level);
        else this.buffer[kept++] = level;
      }
      this.buffer.length = kept;
      // In level order, as the sorted run gives them (a stop loss before its stop-out).
      crossed.sort((a, b) => a.key - b.key);
      for (const level of crossed) out.push(level.slot, level.kind, level.gen);
    }
    if (this.head > 4096 && this.head > this.size >> 1) this.compact();
    const from = this.head;
    const { keys, size } = this;
    let to = from;
    while (to < size && (keys[to] as number) <= threshold) to++;
    this.head = to;
    out.pushRun(this.slots, this.kinds, this.gens, from, to);
  }

  /** Merges the buffer into the sorted run (linear merge after sorting the buffer). */
  merge(): void {
    if (this.buffer.length === 0) return;
    const add = this.buffer.sort((a, b) => a.key - b.key);
    this.buffer = [];
    const runLength = this.size - this.head;
    const total = runLength + add.length;
    const keys = new Float64Array(total);
    const slots = new Int32Array(total);
    const kinds = new Uint8Array(total);
    const gens = new Uint32Array(total);
    let a = this.head;
    let b = 0;
    for (let o = 0; o < total; o++) {
      const next = add[b];
      if (a < this.size && (next === undefined || (this.keys[a] as number) <= next.key)) {
        keys[o] = this.keys[a] as number;
        slots[o] = this.slots[a] as number;
        kinds[o] = this.kinds[a] as number;
        gens[o] = this.gens[a] as number;
        a++;
      } else if (next) {
        keys[o] = next.key;
        slots[o] = next.slot;
        kinds[o] = next.kind;
        gens[o] = next.gen;
        b++;
      }
    }
    this.keys = keys;
    this.slots = slots;
    this.kinds = kinds;
    this.gens = gens;
    this.head = 0;
    this.size = total;
  }

  private compact(): void {
    this.keys = this.keys.slice(this.head, this.size);
    this.slots = this.slots.slice(this.head, this.size);
    this.kinds = this.kinds.slice(this.head, this.size);
    this.gens = this.gens.slice(this.head, this.size);
    this.size -= this.head;
    this.head = 0;
  }
}

/**
 * The four lists of one instrument. A long closes at the bid: its stop loss and stop-out fire when
 * the bid falls to their level, its take profit when the bid rises to it. A short closes at the
 * ask, the other way round. Falling lists store −level so that every list fires on key ≤ threshold.
 */
export class InstrumentLevels {
  readonly bidFalls = new LevelList();
  readonly bidRises = new LevelList();
  readonly askRises = new LevelList();
  readonly askFalls = new LevelList();

  get length(): number {
    return this.bidFalls.length + this.bidRises.length + this.askRises.length + this.askFalls.length;
  }

  addLong(slot: number, generation: number, stopLoss: number, takeProfit: number, stopOut: number): void {
    this.bidFalls.add(-stopLoss, slot, STOP_LOSS, generation);
    this.bidFalls.add(-stopOut, slot, STOP_OUT, generation);
    this.bidRises.add(takeProfit, slot, TAKE_PROFIT, generation);
  }

  addShort(slot: number, generation: number, stopLoss: number, takeProfit: number, stopOut: number): void {
    this.askRises.add(stopLoss, slot, STOP_LOSS, generation);
    this.askRises.add(stopOut, slot, STOP_OUT, generation);
    this.askFalls.add(-takeProfit, slot, TAKE_PROFIT, generation);
  }

  /** Every level crossed by a tick with this bid and ask (in ticks): longs' and shorts'. */
  crossed(bid: number, ask: number, longs: Crossed, shorts: Crossed): void {
    this.bidRises.take(bid, longs);
    this.bidFalls.take(-bid, longs);
    this.askFalls.take(-ask, shorts);
    this.askRises.take(ask, shorts);
  }

  set autoMerge(on: boolean) {
    this.bidFalls.autoMerge = on;
    this.bidRises.autoMerge = on;
    this.askRises.autoMerge = on;
    this.askFalls.autoMerge = on;
  }

  merge(): void {
    this.bidFalls.merge();
    this.bidRises.merge();
    this.askRises.merge();
    this.askFalls.merge();
  }
}

/**
 * The trailing stops of one instrument: (slot, generation) pairs in dense arrays, scanned on every
 * tick (a trailing level moves with the price, so it cannot sit in a sorted list). A stale pair (its
 * position closed or was re-indexed) is dropped when the scan meets it (`drop`: the last pair takes
 * its place). The levels themselves are per slot, in the engine.
 */
export class TrailingList {
  slots = new Int32Array(64);
  gens = new Uint32Array(64);
  length = 0;
  /**
   * Bounds over the pairs as of the last scan (and those added since): the highest long level and
   * lowest long peak (level + distance), the lowest short level and highest short trough (level −
   * distance). A tick whose bid is above every long level and not above any peak, and whose ask is
   * below every short level and not below any trough, can neither fire nor move one: no scan.
   * `dirty` forces the next scan (a level moved outside a scan).
   */
  longLevelMax = Number.NEGATIVE_INFINITY;
  longPeakMin = Number.POSITIVE_INFINITY;
  shortLevelMin = Number.POSITIVE_INFINITY;
  shortTroughMax = Number.NEGATIVE_INFINITY;
  dirty = false;

  /** Can a tick at this bid and ask fire or move any of the pairs? */
  quiet(bid: number, ask: number): boolean {
    return (
      !this.dirty &&
      bid > this.longLevelMax &&
      bid <= this.longPeakMin &&
      ask < this.shortLevelMin &&
      ask >= this.shortTroughMax
    );
  }

  /** Widens the bounds by one trailing stop (added, or kept by a scan). */
  include(long: boolean, level: number, distance: number): void {
    if (long) {
      if (level > this.longLevelMax) this.longLevelMax = level;
      if (level + distance < this.longPeakMin) this.longPeakMin = level + distance;
    } else {
      if (level < this.shortLevelMin) this.shortLevelMin = level;
      if (level - distance > this.shortTroughMax) this.shortTroughMax = level - distance;
    }
  }

  /** Empties the bounds before a scan recomputes them. */
  resetBounds(): void {
    this.longLevelMax = Number.NEGATIVE_INFINITY;
    this.longPeakMin = Number.POSITIVE_INFINITY;
    this.shortLevelMin = Number.POSITIVE_INFINITY;
    this.shortTroughMax = Number.NEGATIVE_INFINITY;
    this.dirty = false;
  }

  add(slot: number, generation: number): void {
    this.slots = grown(this.slots, this.length + 1, this.length);
    this.gens = grown(this.gens, this.length + 1, this.length);
    this.slots[this.length] = slot;
    this.gens[this.length] = generation;
    this.length += 1;
  }

  /** Removes pair i (the last pair moves into its place). */
  drop(i: number): void {
    this.length -= 1;
    this.slots[i] = this.slots[this.length] as number;
    this.gens[i] = this.gens[this.length] as number;
  }
}

/** A binary min-heap of (tick, slot, generation) for auto-close times. */
export class ExpiryHeap {
  private readonly items: { tick: number; slot: number; gen: number }[] = [];

  get length(): number {
    return this.items.length;
  }

  push(tick: number, slot: number, gen: number): void {
    const items = this.items;
    items.push({ tick, slot, gen });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as { tick: number }).tick <= tick) break;
      [items[i], items[parent]] = [
        items[parent] as (typeof items)[number],
        items[i] as (typeof items)[number],
      ];
      i = parent;
    }
  }

  peek(): { tick: number; slot: number; gen: number } | undefined {
    return this.items[0];
  }

  pop(): { tick: number; slot: number; gen: number } | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && (items[l] as typeof last).tick < (items[m] as typeof last).tick) m = l;
        if (r < items.length && (items[r] as typeof last).tick < (items[m] as typeof last).tick) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m] as typeof last, items[i] as typeof last];
        i = m;
      }
    }
    return top;
  }
}

const PAGE_BITS = 12;
const PAGE_SIZE = 1 << PAGE_BITS;

/**
 * Entries by position id, in pages of 4,096 consecutive ids. Open positions cluster in recent ids,
 * so a lookup is one small-map hit plus an array index: cache-friendly where a Map of a million
 * entries is not (a tick that fires 100,000 positions looks each up once).
 */
export class PositionTable<T> {
  /** Each page with how many of its entries are set (a delete never scans the page). */
  private readonly pages = new Map<number, { items: (T | undefined)[]; used: number }>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    return this.pages.get(id >>> PAGE_BITS)?.items[id & (PAGE_SIZE - 1)];
  }

  set(id: number, value: T): void {
    const key = id >>> PAGE_BITS;
    let page = this.pages.get(key);
    if (!page) {
      page = { items: new Array<T | undefined>(PAGE_SIZE).fill(undefined), used: 0 };
      this.pages.set(key, page);
    }
    const slot = id & (PAGE_SIZE - 1);
    if (page.items[slot] === undefined) {
      this.count += 1;
      page.used += 1;
    }
    page.items[slot] = value;
  }

  delete(id: number): void {
    const key = id >>> PAGE_BITS;
    const page = this.pages.get(key);
    const slot = id & (PAGE_SIZE - 1);
    if (!page || page.items[slot] === undefined) return;
    page.items[slot] = undefined;
    page.used -= 1;
    this.count -= 1;
    if (page.used === 0) this.pages.delete(key);
  }

  clear(): void {
    this.pages.clear();
    this.count = 0;
  }
}

/**
 * Open positions by slot: the hot fields a tick reads (generation, live-from tick, side) in typed
 * arrays, the rest in one value per slot. Slots of closed positions are reused. Generation 0 means
 * "closed": a slot keeps it from the tick that closes its position until `release`.
 */
export class Slots<T> {
  gens = new Uint32Array(1024);
  live = new Float64Array(1024);
  long = new Uint8Array(1024);
  private ids = new Float64Array(1024);
  readonly values: (T | undefined)[] = [];
  private readonly index = new PositionTable<number>();
  private readonly free: number[] = [];
  private used = 0;
  private generation = 0;

  get size(): number {
    return this.index.size;
  }

  slotOf(id: number): number | undefined {
    return this.index.get(id);
  }

  idOf(slot: number): number {
    return this.ids[slot] as number;
  }

  /** Puts (or refreshes) a position under a new generation, so its older levels are stale. */
  put(id: number, value: T, liveTick: number, long: boolean): { slot: number; generation: number } {
    let slot = this.index.get(id);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.used++;
      if (slot >= this.gens.length) {
        this.gens = grown(this.gens, slot + 1, slot);
        this.live = grown(this.live, slot + 1, slot);
        this.long = grown(this.long, slot + 1, slot);
        this.ids = grown(this.ids, slot + 1, slot);
      }
      this.index.set(id, slot);
      this.ids[slot] = id;
    }
    this.generation = this.generation >= 0xffff_ffff ? 1 : this.generation + 1;
    this.gens[slot] = this.generation;
    this.live[slot] = liveTick;
    this.long[slot] = long ? 1 : 0;
    this.values[slot] = value;
    return { slot, generation: this.generation };
  }

  /** Forgets a position; its slot is free for another. */
  release(id: number): void {
    const slot = this.index.get(id);
    if (slot === undefined) return;
    this.index.delete(id);
    this.gens[slot] = 0;
    this.values[slot] = undefined;
    this.free.push(slot);
  }

  clear(): void {
    this.index.clear();
    this.values.length = 0;
    this.free.length = 0;
    this.used = 0;
    this.gens.fill(0);
  }

  *entries(): IterableIterator<[number, T]> {
    for (let slot = 0; slot < this.used; slot++) {
      const value = this.values[slot];
      if (value !== undefined && this.gens[slot] !== 0) yield [slot, value];
    }
  }
}
