import { describe, expect, it } from 'vitest';
import { basketCodes } from './basket.ts';

describe('earn baskets on staff screens', () => {
  it('reads a basket typed with commas or spaces', () => {
    expect(basketCodes('btcusdt, ETHUSDT  BTCUSDT\nSOLUSDT')).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(basketCodes(' ')).toEqual([]);
  });
});
