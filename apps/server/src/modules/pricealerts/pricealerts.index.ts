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

/** Ascending keys; `pop(value)` takes every entry with key <= value. */
class AscendingRun {
  private keys: number[] = [];
  private ids: number[] = [];
  private gens: number[] = [];

  get length(): number {
    return this.keys.length;
  }

  insert(key: number, id: number, gen: number): void {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as number) <= key) lo = mid + 1;
      else hi = mid;
    }
    this.keys.splice(lo, 0, key);
    this.ids.splice(lo, 0, id);
    this.gens.splice(lo, 0, gen);
  }

  pop(value: number, visit: (id: number, gen: number) => void): void {
    let n = 0;
    while (n < this.keys.length && (this.keys[n] as number) <= value) n++;
    if (n === 0) return;
    const ids = this.ids.splice(0, n);
    const gens = this.gens.splice(0, n);
    this.keys.splice(0, n);
    for (let i = 0; i < n; i++) visit(ids[i] as number, gens[i] as number);
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
