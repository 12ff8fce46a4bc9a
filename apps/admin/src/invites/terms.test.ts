import { describe, expect, it } from 'vitest';
import { bpsToPercent, checkSettings, percentToBps } from './terms.ts';

describe('the invite programme terms on staff screens', () => {
  it('shows basis points as a percentage, exactly', () => {
    expect(bpsToPercent(2000)).toBe('20');
    expect(bpsToPercent(1250)).toBe('12.5');
    expect(bpsToPercent(1234)).toBe('12.34');
    expect(bpsToPercent(5)).toBe('0.05');
    expect(bpsToPercent(0)).toBe('0');
    expect(bpsToPercent(10_000)).toBe('100');
  });

  it('reads a typed percentage as basis points, refusing what basis points cannot hold', () => {
    expect(percentToBps('20')).toBe(2000);
    expect(percentToBps(' 12.5 ')).toBe(1250);
    expect(percentToBps('12,34')).toBe(1234);
    expect(percentToBps('0.01')).toBe(1);
    expect(percentToBps('0')).toBe(0);
    expect(percentToBps('100')).toBe(10_000);
    expect(percentToBps('100.01')).toBeNull();
    expect(percentToBps('12.345')).toBeNull();
    expect(percentToBps('-1')).toBeNull();
    expect(percentToBps('1e2')).toBeNull();
    expect(percentToBps('')).toBeNull();
  });

  it('makes the settings body from the draft, or names each field to fix', () => {
    expect(checkSettings({ sharePercent: '15', dailyCapUsdt: ' 250.5 ', enabled: false })).toEqual({
      body: { shareBps: 1500, dailyCapUsdt: '250.5', enabled: false },
      problems: new Map(),
    });
    const bad = checkSettings({ sharePercent: '120', dailyCapUsdt: '-3', enabled: true });
    expect(bad.body).toBeNull();
    expect([...bad.problems.keys()].sort()).toEqual(['dailyCapUsdt', 'sharePercent']);
    // A cap is an amount of USDT above zero, at most its 6 decimals.
    expect(checkSettings({ sharePercent: '20', dailyCapUsdt: '0', enabled: true }).body).toBeNull();
    expect(checkSettings({ sharePercent: '20', dailyCapUsdt: '1.0000001', enabled: true }).body).toBeNull();
    expect(checkSettings({ sharePercent: '20', dailyCapUsdt: 'abc', enabled: true }).body).toBeNull();
    expect(
      checkSettings({ sharePercent: '20', dailyCapUsdt: '0.000001', enabled: true }).body,
    ).not.toBeNull();
  });
});
