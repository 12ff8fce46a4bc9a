import { trailedLevel, trailingCrossed, trailingDistanceValid } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import {
  Crossed,
  LevelList,
  PositionTable,
  Slots,
  STOP_LOSS,
  STOP_OUT,
  TAKE_PROFIT,
  TrailingList,
} from './trigger-index.ts';

function popped(out: Crossed): { slot: number; kind: number; gen: number }[] {
  return Array.from({ length: out.length }, (_, i) => ({
    slot: out.slots[i] as number,
    kind: out.kinds[i] as number,
    gen: out.gens[i] as number,
  }));
}

describe('LevelList', () => {
  it('pops exactly the levels at or below the threshold, in key order, and never again', () => {
    const list = new LevelList();
    // 3,000 levels in a scrambled order, merged into the sorted run as the buffer grows.
    const keys = Array.from({ length: 3_000 }, (_, i) => (i * 7_919) % 3_000);
    for (const key of keys) list.add(key, key, STOP_LOSS, key + 1);
    const out = new Crossed();
    list.take(1_499, out);
    const first = popped(out);
    // Levels still in the buffer come first, then the sorted run's prefix in key order.
    const run = first.slice(first.length - 1_000);
    expect(run.map((l) => l.slot)).toEqual([...run.map((l) => l.slot)].sort((x, y) => x - y));
    expect(first.map((l) => l.slot).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 1_500 }, (_, i) => i),
    );
    expect(first.every((l) => l.gen === l.slot + 1 && l.kind === STOP_LOSS)).toBe(true);
    out.reset();
    list.take(1_499, out);
    expect(out.length).toBe(0);
    expect(list.length).toBe(1_500);
  });

  it('pops buffered levels (not yet merged) as well as the sorted run', () => {
    const list = new LevelList();
    for (let key = 0; key < 2_000; key++) list.add(key * 2, key, TAKE_PROFIT, 1);
    list.merge();
    list.add(5, 9_001, STOP_OUT, 2); // buffered
    list.add(3, 9_000, STOP_LOSS, 2); // buffered
    list.add(10_000, 9_002, STOP_LOSS, 2); // buffered, not crossed
    const out = new Crossed();
    list.take(6, out);
    // buffered first (in key order), then the run's 0, 2, 4, 6
    expect(popped(out).map((l) => l.slot)).toEqual([9_000, 9_001, 0, 1, 2, 3]);
    expect(popped(out).map((l) => l.kind)).toEqual([STOP_LOSS, STOP_OUT, 0, 0, 0, 0]);
    expect(list.length).toBe(1_997);
  });
});

describe('Slots', () => {
  it('gives each open position a slot and a fresh generation; a released slot is reused', () => {
    const slots = new Slots<string>();
    const a = slots.put(10, 'a', 5, true);
    const b = slots.put(11, 'b', 6, false);
    expect(a.slot).not.toBe(b.slot);
    expect(slots.gens[a.slot]).toBe(a.generation);
    expect(slots.live[b.slot]).toBe(6);
    expect(slots.long[a.slot]).toBe(1);
    expect(slots.long[b.slot]).toBe(0);
    // Moving the stops: same slot, new generation, so the old levels are stale.
    const a2 = slots.put(10, 'a2', 5, true);
    expect(a2.slot).toBe(a.slot);
    expect(a2.generation).not.toBe(a.generation);
    slots.release(10);
    expect(slots.slotOf(10)).toBeUndefined();
    expect(slots.gens[a.slot]).toBe(0);
    expect(slots.size).toBe(1);
    const c = slots.put(12, 'c', 7, true);
    expect(c.slot).toBe(a.slot);
    expect(slots.idOf(c.slot)).toBe(12);
    expect([...slots.entries()].map(([, v]) => v).sort()).toEqual(['b', 'c']);
  });

  it('grows past its first arrays without losing anything', () => {
    const slots = new Slots<number>();
    for (let id = 1; id <= 5_000; id++) slots.put(id, id, id, id % 2 === 0);
    expect(slots.size).toBe(5_000);
    for (let id = 1; id <= 5_000; id++) {
      const slot = slots.slotOf(id) as number;
      expect(slots.values[slot]).toBe(id);
      expect(slots.live[slot]).toBe(id);
      expect(slots.long[slot]).toBe(id % 2 === 0 ? 1 : 0);
    }
  });
});

describe('PositionTable', () => {
  it('keeps what is set across pages through deletes in any order, and a page emptied and filled again', () => {
    const table = new PositionTable<number>();
    const ids = Array.from({ length: 10_000 }, (_, i) => i * 3 + 1); // over eight pages of 4,096 ids
    for (const id of ids) table.set(id, id * 2);
    table.set(ids[0] as number, 7); // a second set of one id counts once
    expect(table.size).toBe(ids.length);
    for (const id of ids.filter((_, i) => i % 2 === 0)) table.delete(id);
    table.delete(2); // never set
    expect(table.size).toBe(ids.length / 2);
    for (const [i, id] of ids.entries()) expect(table.get(id)).toBe(i % 2 === 0 ? undefined : id * 2);
    for (const id of ids.filter((_, i) => i % 2 === 1).reverse()) table.delete(id);
    expect(table.size).toBe(0);
    table.set(4, 40);
    expect([table.get(4), table.size]).toEqual([40, 1]);
  });
});

describe('TrailingList and the trailing arithmetic', () => {
  it('keeps its pairs through growth, and a dropped pair is replaced by the last', () => {
    const list = new TrailingList();
    for (let i = 0; i < 200; i++) list.add(i, i + 1);
    expect(list.length).toBe(200);
    list.drop(10);
    expect(list.length).toBe(199);
    expect([list.slots[10], list.gens[10]]).toEqual([199, 200]);
    const slots = new Set(Array.from(list.slots.subarray(0, list.length)));
    expect(slots.has(10)).toBe(false);
    expect(slots.size).toBe(199);
  });

  it('a long follows the bid up and never down; a short follows the ask down and never up', () => {
    expect(trailedLevel('long', null, 10_000n, 300n)).toBe(9_700n);
    expect(trailedLevel('long', 9_700n, 10_100n, 300n)).toBe(9_800n);
    expect(trailedLevel('long', 9_800n, 9_900n, 300n)).toBe(9_800n);
    expect(trailedLevel('short', null, 10_000n, 300n)).toBe(10_300n);
    expect(trailedLevel('short', 10_300n, 9_900n, 300n)).toBe(10_200n);
    expect(trailedLevel('short', 10_200n, 10_100n, 300n)).toBe(10_200n);
    expect(trailingCrossed('long', 9_800n, 9_800n)).toBe(true);
    expect(trailingCrossed('long', 9_800n, 9_801n)).toBe(false);
    expect(trailingCrossed('short', 10_200n, 10_200n)).toBe(true);
    expect(trailingCrossed('short', 10_200n, 10_199n)).toBe(false);
    expect(trailingDistanceValid('long', 10_000n, 0n)).toBe(false);
    expect(trailingDistanceValid('long', 10_000n, 10_000n)).toBe(false);
    expect(trailingDistanceValid('long', 10_000n, 9_999n)).toBe(true);
    expect(trailingDistanceValid('short', 10_000n, 50_000n)).toBe(true);
  });
});
