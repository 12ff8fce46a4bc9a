import { describe, expect, it } from 'vitest';
import { daysOf, instrumentsFor } from './terms.ts';

describe('smart-plan timeframes as typed', () => {
  it('reads days separated by commas or spaces, each once, in order', () => {
    expect(daysOf('90, 7 30')).toEqual([7, 30, 90]);
    expect(daysOf('30،7، 30')).toEqual([7, 30]);
    expect(daysOf('365, 3650')).toEqual([365, 3650]);
  });
  it('refuses what is not a list of whole days', () => {
    for (const typed of ['', '  ', '7.5', '-7', 'seven', '36500']) expect(daysOf(typed)).toBeNull();
  });
});

describe('the instruments offered for a strategy', () => {
  it('are the strategy’s own, before any product exists', () => {
    expect(instrumentsFor('breakout')).toEqual(['XAUUSD', 'XAGUSD']);
  });
});
