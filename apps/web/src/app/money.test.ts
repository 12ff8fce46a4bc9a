import { describe, expect, it } from 'vitest';
import { formatMoney } from './money.ts';

describe('formatMoney', () => {
  it("shows every digit of the asset's scale but trailing zeros, at least two decimals, in the reader's number format", () => {
    expect(formatMoney('en', '4.523411', 'USDT')).toBe('4.523411');
    expect(formatMoney('en', '0.998778', 'USDT')).toBe('0.998778');
    expect(formatMoney('en', '100000.000000', 'USDT')).toBe('100,000.00');
    expect(formatMoney('en', '5000.000000', 'USDT')).toBe('5,000.00');
    expect(formatMoney('de', '2371.378250', 'USDT')).toBe('2.371,37825');
    expect(formatMoney('fr', '2371.378250', 'USDT').replace(/\s/g, ' ')).toBe('2 371,37825');
    expect(formatMoney('en', '0.020000', 'BTC')).toBe('0.02');
    expect(formatMoney('en', '0.000000000000000001', 'ETH')).toBe('0.000000000000000001');
    expect(formatMoney('en', '1.234567891', 'BTC')).toBe('1.23456789');
  });

  it('signs a change, and rounds beyond the scale half away from zero without losing digits to a float', () => {
    expect(formatMoney('en', '-2.775', 'USDT', { sign: true })).toBe('-2.775');
    expect(formatMoney('en', '49.600000', 'USDT', { sign: true })).toBe('+49.60');
    expect(formatMoney('en', '-0.0000004', 'USDT', { sign: true })).toBe('0.00');
    expect(formatMoney('en', '1.0000005', 'USDT')).toBe('1.000001');
    expect(formatMoney('en', '9007199254740993.005', 'USDT')).toBe('9,007,199,254,740,993.005');
  });
});
