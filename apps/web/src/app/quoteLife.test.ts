import { describe, expect, it } from 'vitest';
import { quoteLeftMs, untilRenewal } from './quoteLife.ts';

describe('a quote on the screen', () => {
  // Issued on a server clock five days ahead of the browser's: only its life counts.
  const ahead = 1_900_000_000;
  const quote = { issuedAt: ahead, expiresAt: ahead + 60 };
  const arrivedAt = 1_000_000_000_000;

  it('has its own life left, counted from when it arrived, whatever the server clock says', () => {
    expect(quoteLeftMs(quote, arrivedAt, arrivedAt)).toBe(60_000);
    expect(quoteLeftMs(quote, arrivedAt, arrivedAt + 45_000)).toBe(15_000);
    expect(quoteLeftMs(quote, arrivedAt, arrivedAt + 70_000)).toBe(-10_000);
  });

  it('is asked again the margin before it runs out, never sooner than a second, at once without one', () => {
    const realNow = Date.now;
    try {
      Date.now = () => arrivedAt + 20_000;
      expect(untilRenewal(quote, arrivedAt, 5_000)).toBe(35_000);
      expect(untilRenewal(quote, arrivedAt, 30_000)).toBe(10_000);
      Date.now = () => arrivedAt + 59_500;
      expect(untilRenewal(quote, arrivedAt, 5_000)).toBe(1_000);
      expect(untilRenewal(undefined, arrivedAt, 5_000)).toBe(0);
    } finally {
      Date.now = realNow;
    }
  });
});
