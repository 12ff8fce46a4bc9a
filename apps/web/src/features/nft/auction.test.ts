import { describe, expect, it } from 'vitest';
import {
  announceStep,
  bidReaches,
  clockText,
  countdownParts,
  deadlineOf,
  endAfterBid,
  minNextBid,
  percentOfBps,
} from './auction.ts';

const rules = { startPrice: '100', minIncrementBps: 500 };

describe('the least next bid', () => {
  it('is the start price before the first bid', () => {
    expect(minNextBid(rules, null, 'USDT')).toBe('100.000000');
  });

  it('is the current bid plus 5 %: 100 + 5 = 105', () => {
    expect(minNextBid(rules, '100.000000', 'USDT')).toBe('105.000000');
  });

  it('rounds the increment up to the minor unit: 0.000021 × 5 % = 0.00000105 → 0.000002', () => {
    expect(minNextBid(rules, '0.000021', 'USDT')).toBe('0.000023');
  });

  it('steps by at least one minor unit when the increment rounds to nothing', () => {
    expect(minNextBid({ startPrice: '1', minIncrementBps: 1 }, '0.000001', 'USDT')).toBe('0.000002');
  });

  it('tells a bid that reaches it from one below it, or one that is not a number', () => {
    expect(bidReaches('105', '105.000000', 'USDT')).toBe(true);
    expect(bidReaches('104.999999', '105.000000', 'USDT')).toBe(false);
    expect(bidReaches('1e3', '105.000000', 'USDT')).toBe(false);
    expect(bidReaches('105.0000001', '105.000000', 'USDT')).toBe(false);
  });
});

describe('the end after a bid', () => {
  const end = 1_000_000_000;
  it('stays when the bid comes more than ten minutes before it', () => {
    expect(endAfterBid(end, end - 601_000, 600)).toBe(end);
  });
  it('moves to ten minutes after a bid in the last ten minutes', () => {
    expect(endAfterBid(end, end - 5_000, 600)).toBe(end - 5_000 + 600_000);
  });
});

describe('the countdown', () => {
  it('counts from what the server said was left, on the reader clock', () => {
    expect(deadlineOf(90, 1_000)).toBe(91_000);
  });

  it('splits days, hours, minutes and seconds, rounding up to the second', () => {
    expect(countdownParts(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 - 400)).toEqual({
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
    expect(countdownParts(-5)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
    expect(clockText(countdownParts(3_723_000))).toBe('01:02:03');
  });

  it('is announced each minute, then each ten seconds in the last ten minutes, then each second', () => {
    expect(announceStep(3_599_000)).toBe(3_600);
    expect(announceStep(3_541_000)).toBe(3_600);
    expect(announceStep(599_000)).toBe(600);
    expect(announceStep(591_000)).toBe(600);
    expect(announceStep(589_000)).toBe(590);
    expect(announceStep(9_000)).toBe(9);
  });
});

describe('a share in basis points', () => {
  it('reads as a percentage without a float', () => {
    expect(percentOfBps(10_000)).toBe('100');
    expect(percentOfBps(500)).toBe('5');
    expect(percentOfBps(250)).toBe('2.5');
    expect(percentOfBps(1)).toBe('0.01');
  });
});
