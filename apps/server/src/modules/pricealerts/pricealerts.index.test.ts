import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AlertWatch, PriceAlertIndex } from './pricealerts.index.ts';

/**
 * The index against the plainest model: a list of armed above and below alerts, each taken when a
 * tick's bid (above) or ask (below) reaches its level. Thousands of alerts, so the index's sorted
 * runs merge their buffers many times between ticks; alerts placed between ticks and cancelled.
 */
describe('price alert index', () => {
  it('pops exactly the armed alerts each tick crosses, whatever the order they were placed and merged in', () => {
    const step = fc.record({
      place: fc.array(fc.record({ below: fc.boolean(), level: fc.integer({ min: 1, max: 4000 }) }), {
        maxLength: 1500,
      }),
      cancel: fc.array(fc.nat(), { maxLength: 20 }),
      bid: fc.integer({ min: 0, max: 4000 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const index = new PriceAlertIndex();
        const model = new Map<number, { below: boolean; level: number }>();
        let next = 1;
        for (const { place, cancel, bid } of steps) {
          for (const { below, level } of place) {
            const watch: AlertWatch = {
              id: next,
              instrumentId: 7,
              kind: below ? 'below' : 'above',
              level,
              pctBp: null,
              armed: true,
            };
            index.place(watch);
            model.set(next, { below, level });
            next += 1;
          }
          const live = [...model.keys()];
          for (const pick of cancel) {
            const id = live[pick % Math.max(1, live.length)];
            if (id === undefined) continue;
            index.remove(id);
            model.delete(id);
          }
          const ask = bid + 3;
          const expected = [...model]
            .filter(([, a]) => (a.below ? ask <= a.level : bid >= a.level))
            .map(([id]) => id)
            .sort((a, b) => a - b);
          const crossed = index.crossed(7, bid, ask, null);
          expect(crossed.every((c) => c.fire)).toBe(true);
          expect(crossed.map((c) => c.id).sort((a, b) => a - b)).toEqual(expected);
          for (const id of expected) model.delete(id);
          expect(index.size).toBe(model.size);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('places 200,000 alerts in scattered order and pops exactly those a crossing tick reaches', () => {
    const index = new PriceAlertIndex();
    // Levels 800,001 to 1,000,000, each once, in a scattered order (7,919 is prime to 200,000).
    for (let i = 0; i < 200_000; i++) {
      const level = 800_001 + ((i * 7_919) % 200_000);
      index.place({ id: i + 1, instrumentId: 1, kind: 'below', level, pctBp: null, armed: true });
    }
    // Every level from 980,001 up is at or above an ask of 980,001: 20,000 alerts.
    const crossed = index.crossed(1, 979_998, 980_001, null);
    expect(crossed).toHaveLength(20_000);
    expect(new Set(crossed.map((c) => c.id)).size).toBe(20_000);
    expect(index.size).toBe(180_000);
    expect(index.crossed(1, 979_998, 980_001, null)).toHaveLength(0);
  });
});
