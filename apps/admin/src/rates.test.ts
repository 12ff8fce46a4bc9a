import { describe, expect, it } from 'vitest';
import { addAmounts, percentToRatio, ratioToPercent } from './rates.ts';

describe('rates and amounts on staff screens', () => {
  it('shows a ratio as a percentage, exactly', () => {
    expect(ratioToPercent('0.12')).toBe('12');
    expect(ratioToPercent('0.125')).toBe('12.5');
    expect(ratioToPercent('0.000329')).toBe('0.0329');
    expect(ratioToPercent('-0.0031')).toBe('-0.31');
    expect(ratioToPercent('0')).toBe('0');
    expect(ratioToPercent('-0.000000')).toBe('0');
    expect(ratioToPercent('1.5')).toBe('150');
  });

  it('reads a typed percentage as the ratio the contract takes, refusing what it cannot hold', () => {
    expect(percentToRatio('12')).toBe('0.12');
    expect(percentToRatio(' 12.5 ')).toBe('0.125');
    expect(percentToRatio('3,25')).toBe('0.0325');
    expect(percentToRatio('0.0001')).toBe('0.000001');
    expect(percentToRatio('0')).toBe('0');
    expect(percentToRatio('0.00001')).toBeNull();
    expect(percentToRatio('-1')).toBeNull();
    expect(percentToRatio('abc')).toBeNull();
    expect(percentToRatio('')).toBeNull();
  });

  it('adds amounts at the asset scale without floats', () => {
    expect(addAmounts('USDT', '100.000000', '0.1')).toBe('100.1');
    expect(addAmounts('ETH', '0.000000000000000001', '0.2')).toBe('0.200000000000000001');
    expect(addAmounts('BTC', '1', '0.000000001')).toBeNull();
    expect(addAmounts('USDT', '1', 'x')).toBeNull();
  });
});
