/**
 * Price-indexed trigger levels. Each list keeps its levels sorted so that the levels a price has
 * crossed are always a prefix: a tick pops that prefix and never looks at the rest, so its cost
 * grows with what triggers, not with what is open.
 *
 * Removing a level is lazy: a level carries its position's generation, and a position that closes
 * or moves its stops gets a new generation, so stale levels are skipped when they surface.
 * New levels go to a small unsorted buffer that is merged into the sorted run when it grows past
 * a share of it (so inserts are cheap and a tick scans at most the buffer plus the crossed prefix).
 */
export const TRIGGER_KINDS = ['take_profit', 'stop_loss', 'stop_out'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export type Fired = { positionId: number; kind: TriggerKind; generation: number };
/** Called for each crossed level: no allocation per level on the hot path. */
export type Visit = (positionId: number, kind: TriggerKind, generation: number) => void;

/** One sorted list: levels fire when `key <= threshold` (keys ascending). */
export class LevelList {
  private keys = new Float64Array(0);
  private ids = new Float64Array(0);
  private kinds = new Uint8Array(0);
  private gens = new Uint32Array(0);
  private head = 0;
  private size = 0;
  private buffer: { key: number; id: number; kind: number; gen: number }[] = [];
  /** Off during a bulk load: everything is merged once at the end. */
  autoMerge = true;

  get length(): number {
    return this.size - this.head + this.buffer.length;
  }

  add(key: number, positionId: number, kind: TriggerKind, generation: number): void {
    this.buffer.push({ key, id: positionId, kind: TRIGGER_KINDS.indexOf(kind), gen: generation });
    if (this.autoMerge && this.buffer.length > Math.max(512, (this.size - this.head) >> 5)) this.merge();
  }

  /** Pops every level with key <= threshold, visiting each (buffer first, then the sorted run). */
  take(threshold: number, visit: Visit): void {
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
      for (const level of crossed) visit(level.id, TRIGGER_KINDS[level.kind] as TriggerKind, level.gen);
    }
    let i = this.head;
    const keys = this.keys;
    while (i < this.size && (keys[i] as number) <= threshold) {
      visit(
        this.ids[i] as number,
        TRIGGER_KINDS[this.kinds[i] as number] as TriggerKind,
        this.gens[i] as number,
      );
      i++;
    }
    this.head = i;
    if (this.head > 4096 && this.head > this.size >> 1) this.compact();
  }

  /** Merges the buffer into the sorted run (linear merge after sorting the buffer). */
  merge(): void {
    if (this.buffer.length === 0) return;
    const add = this.buffer.sort((a, b) => a.key - b.key);
    this.buffer = [];
    const runLength = this.size - this.head;
    const total = runLength + add.length;
    const keys = new Float64Array(total);
    const ids = new Float64Array(total);
    const kinds = new Uint8Array(total);
    const gens = new Uint32Array(total);
    let a = this.head;
    let b = 0;
    for (let o = 0; o < total; o++) {
      const next = add[b];
      if (a < this.size && (next === undefined || (this.keys[a] as number) <= next.key)) {
        keys[o] = this.keys[a] as number;
        ids[o] = this.ids[a] as number;
        kinds[o] = this.kinds[a] as number;
        gens[o] = this.gens[a] as number;
        a++;
      } else if (next) {
        keys[o] = next.key;
        ids[o] = next.id;
        kinds[o] = next.kind;
        gens[o] = next.gen;
        b++;
      }
    }
    this.keys = keys;
    this.ids = ids;
    this.kinds = kinds;
    this.gens = gens;
    this.head = 0;
    this.size = total;
  }

  private compact(): void {
    this.keys = this.keys.slice(this.head, this.size);
    this.ids = this.ids.slice(this.head, this.size);
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

  addLong(
    positionId: number,
    generation: number,
    stopLoss: number,
    takeProfit: number,
    stopOut: number,
  ): void {
    this.bidFalls.add(-stopLoss, positionId, 'stop_loss', generation);
    this.bidFalls.add(-stopOut, positionId, 'stop_out', generation);
    this.bidRises.add(takeProfit, positionId, 'take_profit', generation);
  }

  addShort(
    positionId: number,
    generation: number,
    stopLoss: number,
    takeProfit: number,
    stopOut: number,
  ): void {
    this.askRises.add(stopLoss, positionId, 'stop_loss', generation);
    this.askRises.add(stopOut, positionId, 'stop_out', generation);
    this.askFalls.add(-takeProfit, positionId, 'take_profit', generation);
  }

  /** Every level crossed by a tick with this bid and ask (in ticks). */
  crossed(bid: number, ask: number, visit: Visit): void {
    this.bidRises.take(bid, visit);
    this.bidFalls.take(-bid, visit);
    this.askFalls.take(-ask, visit);
    this.askRises.take(ask, visit);
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

/** A binary min-heap of (tick, position, generation) for auto-close times. */
export class ExpiryHeap {
  private readonly items: { tick: number; id: number; gen: number }[] = [];

  get length(): number {
    return this.items.length;
  }

  push(tick: number, id: number, gen: number): void {
    const items = this.items;
    items.push({ tick, id, gen });
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

  peek(): { tick: number; id: number; gen: number } | undefined {
    return this.items[0];
  }

  pop(): { tick: number; id: number; gen: number } | undefined {
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
  private readonly pages = new Map<number, (T | undefined)[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    return this.pages.get(id >>> PAGE_BITS)?.[id & (PAGE_SIZE - 1)];
  }

  set(id: number, value: T): void {
    const key = id >>> PAGE_BITS;
    let page = this.pages.get(key);
    if (!page) {
      page = new Array<T | undefined>(PAGE_SIZE).fill(undefined);
      this.pages.set(key, page);
    }
    const slot = id & (PAGE_SIZE - 1);
    if (page[slot] === undefined) this.count += 1;
    page[slot] = value;
  }

  delete(id: number): void {
    const key = id >>> PAGE_BITS;
    const page = this.pages.get(key);
    const slot = id & (PAGE_SIZE - 1);
    if (!page || page[slot] === undefined) return;
    page[slot] = undefined;
    this.count -= 1;
    if (this.count === 0 || page.every((v) => v === undefined)) this.pages.delete(key);
  }

  clear(): void {
    this.pages.clear();
    this.count = 0;
  }

  *values(): IterableIterator<T> {
    for (const page of this.pages.values()) for (const value of page) if (value !== undefined) yield value;
  }
}
