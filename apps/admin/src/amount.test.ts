import { describe, expect, it } from 'vitest';
import { amountText, rangeText, shownAmount } from './amount.ts';

describe('amounts on staff screens follow the display rule', () => {
  it('drops the trailing zeros of the scale, keeps at least two decimals, in the reader’s numbers', () => {
    expect(amountText('en', '5000.000000', 'USDT')).toBe('5,000.00 USDT');
    expect(amountText('en', '0.998778', 'USDT')).toBe('0.998778 USDT');
    expect(amountText('en', '0.02000000', 'BTC')).toBe('0.02 BTC');
    expect(amountText('en', '0.000000000000000001', 'ETH')).toBe('0.000000000000000001 ETH');
    expect(amountText('de', '100000.000000', 'USDT')).toBe('100.000,00 USDT');
    expect(amountText('en', '-12.500000', 'USDT')).toBe('-12.50 USDT');
    expect(amountText('en', '12.5', 'USDT', { sign: true })).toBe('+12.50 USDT');
  });

  it('writes a range once with its asset, and shows what is not a decimal as it came', () => {
    expect(rangeText('en', '100.000000', '5000.000000', 'USDT')).toBe('100.00 – 5,000.00 USDT');
    expect(shownAmount('en', 'n/a', 'USDT')).toBe('n/a');
  });
});
