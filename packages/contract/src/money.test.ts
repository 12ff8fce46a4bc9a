import { describe, expect, it } from 'vitest';
import {
  ASSET_SCALES,
  displayScaleOf,
  formatMinor,
  MoneyFormatError,
  parseMinor,
  roundDecimal,
  toDisplay,
  valueAtPrice,
} from './money.ts';

describe('money', () => {
  it('parses decimal strings into minor units at the asset scale', () => {
    expect(parseMinor('120', ASSET_SCALES.USDT)).toBe(120_000_000n);
    expect(parseMinor('0.015', ASSET_SCALES.BTC)).toBe(1_500_000n); // 0.015 × 10^8
    expect(parseMinor('0.2', ASSET_SCALES.ETH)).toBe(200_000_000_000_000_000n); // 0.2 × 10^18
    expect(parseMinor('1.500000', 6)).toBe(1_500_000n);
  });

  it('refuses more decimals than the scale instead of rounding', () => {
    expect(() => parseMinor('0.0000001', 6)).toThrow(MoneyFormatError);
    expect(parseMinor('0.1000000', 6)).toBe(100_000n); // trailing zeros lose nothing
  });

  it('refuses what is not a non-negative decimal', () => {
    for (const bad of ['', '-1', '1e3', '0x10', '1.', '.5', ' 1 2', 'NaN', 'Infinity']) {
      expect(() => parseMinor(bad, 6), bad).toThrow(MoneyFormatError);
    }
  });

  it('formats minor units with exactly the scale, negatives included', () => {
    expect(formatMinor(1_500_000n, 6)).toBe('1.500000');
    expect(formatMinor(5n, 8)).toBe('0.00000005');
    expect(formatMinor(-250n, 2)).toBe('-2.50');
    expect(formatMinor(42n, 0)).toBe('42');
  });

  it('round-trips any amount', () => {
    for (const text of ['0.000000', '1.000001', '123456789012345678.123456']) {
      expect(formatMinor(parseMinor(text, 6), 6)).toBe(text);
    }
    const wei = '1.000000000000000001';
    expect(formatMinor(parseMinor(wei, 18), 18)).toBe(wei);
  });

  it('values an amount at a decimal price in integers only, rounding down', () => {
    // 0.015 BTC (1,500,000 satoshi) at 83,576.78 → 1,253.6517 USDT
    expect(valueAtPrice(1_500_000n, 8, '83576.78', 6)).toBe(1_253_651_700n);
    // 0.2 ETH (2e17 wei) at 3,000.50 → 600.10 USDT
    expect(valueAtPrice(200_000_000_000_000_000n, 18, '3000.50', 6)).toBe(600_100_000n);
    // 10 USDC at 0.9998 → 9.998 USDT
    expect(valueAtPrice(10_000_000n, 6, '0.9998', 6)).toBe(9_998_000n);
    // 1 wei at 3,000 rounds down to 0
    expect(valueAtPrice(1n, 18, '3000', 6)).toBe(0n);
  });
});

describe('display precision', () => {
  it('rounds to the asset display scale, half away from zero, without floats', () => {
    expect(toDisplay('4.523411', 'USDT')).toBe('4.52');
    expect(toDisplay('4.525', 'USDT')).toBe('4.53');
    expect(toDisplay('-2.775000', 'USDT')).toBe('-2.78');
    expect(toDisplay('-2.774999', 'USDT')).toBe('-2.77');
    expect(toDisplay('-0.004', 'USDT')).toBe('0.00');
    expect(toDisplay('100000', 'USDT')).toBe('100000.00');
    expect(toDisplay('99.995', 'USDC')).toBe('100.00');
    expect(toDisplay('0.123456789', 'BTC')).toBe('0.12345679');
    expect(toDisplay('1.000000000000000001', 'ETH')).toBe('1.00000000');
    expect(toDisplay('12345678901234567890.5', 'XYZ')).toBe('12345678901234567890.50');
    expect(roundDecimal('0.5', 0)).toBe('1');
    expect(displayScaleOf('BTC')).toBe(8);
    expect(displayScaleOf('toString')).toBe(2);
  });

  it('refuses what is not a decimal', () => {
    for (const bad of ['', '1e3', '.5', '1.', '--1', 'NaN'])
      expect(() => toDisplay(bad, 'USDT'), bad).toThrow();
  });
});
