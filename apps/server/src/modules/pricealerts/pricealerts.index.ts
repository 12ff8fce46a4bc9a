import type { PriceAlertKind } from '@swx/contract';

/**
 * The price alerts' level index: per instrument, sorted runs of levels, so that a tick pops the
 * levels it crossed (a prefix of each run) and never looks at the rest (the way the positions'
 * trigger index works, positions/trigger-index.ts).
 *
 * An alert sits in exactly one run, by what it waits for:
 * - `above`, armed: the bid rising to the level; disarmed (a repeating alert after a firing): the
 *   bid back below it (at most level − 1 tick), which re-arms it;
 * - `below`, armed: the ask falling to the level; disarmed: the ask back above it (level + 1);
 * - `move_pct`, armed: the absolute 24-hour change (basis points) rising to its percentage;
 *   disarmed: the change back under it.
 * A popped alert leaves the index; the caller claims its firing or re-arming in the database and
 * places it again in its new state (`place`). Removal is lazy: an entry carries its alert's
 * generation, and an entry whose generation is no longer the alert's is dropped when it surfaces.
 */
export type AlertWatch = {
  id: number;
  instrumentId: number;
  kind: PriceAlertKind;
  /** Ticks (above, below). */
  level: number | null;
  /** Basis points (move_pct). */
  pctBp: number | null;
  armed: boolean;
};

/** What a tick did to an alert: `fire` (armed, crossed) or re-arm; `price` (ticks): the bid, the ask, or for a move the mid. */
export type AlertCrossing = { id: number; fire: boolean; price: number };

/**
 * Ascending keys; `pop(value)` takes every entry with key <= value. A sorted run read from `head`
 * (popping moves it, the space is given back now and then) and a small unsorted buffer of new
 * entries, merged in once it outgrows a thirty-second of the run: placing n alerts costs n log n,
 * not n² (an insert into the middle of an array moves half of it), and a tick what it pops.
 */
class AscendingRun {
  private keys: number[] = [];
  private ids: number[] = [];
  private gens: number[] = [];
  private head = 0;
  private newKeys: number[] = [];
  private newIds: number[] = [];
  private newGens: number[] = [];

  get length(): number {
    return this.keys.length - this.head + this.newKeys.length;
  }

  insert(key: number, id: number, gen: number): void {
    this.newKeys.push(key);
    this.newIds.push(id);
    this.newGens.push(gen);
    if (this.newKeys.length > Math.max(512, (this.keys.length - this.head) >> 5)) this.merge();
  }

  pop(value: number, visit: (id: number, gen: number) => void): void {
    // The buffer: what crossed is visited, the rest kept in place.
    let kept = 0;
    for (let i = 0; i < this.newKeys.length; i++) {
      const key = this.newKeys[i] as number;
      if (key <= value) visit(this.newIds[i] as number, this.newGens[i] as number);
      else {
        this.newKeys[kept] = key;
        this.newIds[kept] = this.newIds[i] as number;
        this.newGens[kept] = this.newGens[i] as number;
        kept++;
      }
    }
    this.newKeys.length = this.newIds.length = this.newGens.length = kept;
    let n = this.head;
    for (; n < this.keys.length && (this.keys[n] as number) <= value; n++)
      visit(this.ids[n] as number, this.gens[n] as number);
    this.head = n;
    if (this.head > 4096 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.ids = this.ids.slice(this.head);
      this.gens = this.gens.slice(this.head);
      this.head = 0;
    }
  }

  /** The buffer sorted and merged into the run. */
  private merge(): void {
    const order = this.newKeys
      .map((_, i) => i)
      .sort((a, b) => (this.newKeys[a] as number) - (this.newKeys[b] as number));
    const keys: number[] = [];
    const ids: number[] = [];
    const gens: number[] = [];
    let i = this.head;
    for (const j of order) {
      const key = this.newKeys[j] as number;
      for (; i < this.keys.length && (this.keys[i] as number) <= key; i++) {
        keys.push(this.keys[i] as number);
        ids.push(this.ids[i] as number);
        gens.push(this.gens[i] as number);
      }
      keys.push(key);
      ids.push(this.newIds[j] as number);
      gens.push(this.newGens[j] as number);
    }
    for (; i < this.keys.length; i++) {
      keys.push(this.keys[i] as number);
      ids.push(this.ids[i] as number);
      gens.push(this.gens[i] as number);
    }
    this.keys = keys;
    this.ids = ids;
    this.gens = gens;
    this.head = 0;
    this.newKeys = [];
    this.newIds = [];
    this.newGens = [];
  }
}

/** The six runs of one instrument (falling conditions stored negated, so every run pops by <=). */
class InstrumentAlerts {
  readonly bidUp = new AscendingRun();
  readonly bidDown = new AscendingRun();
  readonly askDown = new AscendingRun();
  readonly askUp = new AscendingRun();
  readonly moveUp = new AscendingRun();
  readonly moveDown = new AscendingRun();

  get length(): number {
    return (
      this.bidUp.length +
      this.bidDown.length +
      this.askDown.length +
      this.askUp.length +
      this.moveUp.length +
      this.moveDown.length
    );
  }
}

export class PriceAlertIndex {
  private readonly instruments = new Map<number, InstrumentAlerts>();
  private readonly current = new Map<number, number>();
  private generation = 0;

  /** Alerts in the index. */
  get size(): number {
    return this.current.size;
  }

  has(id: number): boolean {
    return this.current.has(id);
  }

  /** The instruments with any entry (live or stale). */
  instrumentIds(): number[] {
    return [...this.instruments].filter(([, runs]) => runs.length > 0).map(([id]) => id);
  }

  /** Puts an alert in (or moves it to) the run of what it now waits for. */
  place(watch: AlertWatch): void {
    this.generation += 1;
    const gen = this.generation;
    this.current.set(watch.id, gen);
    let runs = this.instruments.get(watch.instrumentId);
    if (!runs) {
      runs = new InstrumentAlerts();
      this.instruments.set(watch.instrumentId, runs);
    }
    if (watch.kind === 'move_pct') {
      const pct = watch.pctBp as number;
      if (watch.armed) runs.moveUp.insert(pct, watch.id, gen);
      else runs.moveDown.insert(-(pct - 1), watch.id, gen);
      return;
    }
    const level = watch.level as number;
    if (watch.kind === 'above') {
      if (watch.armed) runs.bidUp.insert(level, watch.id, gen);
      else runs.bidDown.insert(-(level - 1), watch.id, gen);
    } else if (watch.armed) runs.askDown.insert(-level, watch.id, gen);
    else runs.askUp.insert(level + 1, watch.id, gen);
  }

  /** Forgets an alert (cancelled, or fired for good): its entries are stale from now on. */
  remove(id: number): void {
    this.current.delete(id);
  }

  /**
   * The alerts of one instrument a tick crossed, popped out of the index: with this bid and ask
   * (ticks) and 24-hour change (basis points; null when not known, which moves no move alert).
   */
  crossed(instrumentId: number, bid: number, ask: number, changeBp: number | null): AlertCrossing[] {
    const runs = this.instruments.get(instrumentId);
    const out: AlertCrossing[] = [];
    if (!runs || runs.length === 0) return out;
    const take = (fire: boolean, price: number) => (id: number, gen: number) => {
      if (this.current.get(id) !== gen) return;
      this.current.delete(id);
      out.push({ id, fire, price });
    };
    runs.bidUp.pop(bid, take(true, bid));
    runs.bidDown.pop(-bid, take(false, bid));
    runs.askDown.pop(-ask, take(true, ask));
    runs.askUp.pop(ask, take(false, ask));
    if (changeBp !== null) {
      const move = Math.abs(changeBp);
      const mid = Math.floor((bid + ask) / 2);
      runs.moveUp.pop(move, take(true, mid));
      runs.moveDown.pop(-move, take(false, mid));
    }
    return out;
  }

  clear(): void {
    this.instruments.clear();
    this.current.clear();
  }
}

/** Whether an alert's condition holds at this bid, ask and change: armed at creation only when it does not. */
export function conditionHolds(
  watch: Omit<AlertWatch, 'armed' | 'id' | 'instrumentId'>,
  bid: number,
  ask: number,
  changeBp: number | null,
): boolean {
  if (watch.kind === 'above') return bid >= (watch.level as number);
  if (watch.kind === 'below') return ask <= (watch.level as number);
  return changeBp !== null && Math.abs(changeBp) >= (watch.pctBp as number);
}
