import { describe, expect, it } from 'vitest';
import { movableClock, parseDuration, systemClock } from './clock.ts';

describe('the clock', () => {
  it('the system’s cannot be moved', () => {
    expect(() => systemClock.advance(1000)).toThrow();
  });

  it('moves only forward, by whole positive milliseconds', () => {
    const clock = movableClock();
    const before = clock.now();
    clock.advance(86_400_000);
    expect(clock.now() - before).toBeGreaterThanOrEqual(86_400_000);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => clock.advance(bad)).toThrow();
  });

  it('reads the operator’s durations and nothing else', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('6h')).toBe(21_600_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    for (const bad of ['', '0h', '-1d', '1.5h', '1w', 'h', '401d', '6 h'])
      expect(parseDuration(bad), bad).toBeNull();
  });
});
