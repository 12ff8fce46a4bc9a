import type { MarketService } from '../market/market.service.ts';
import { PPM } from '../products/figures.ts';

/**
 * A dynamic product's daily rate: the mean of its basket's realised daily returns at the
 * platform's own prices (each instrument's daily close against the close of the day before), in
 * ppm rounded toward zero. Null when no instrument of the basket has both closes (the day is
 * published as 0: nothing is paid, nothing is invented).
 */
export function marketBasketRate(market: Pick<MarketService, 'candles'>) {
  return (basket: readonly string[], day: string): bigint | null => {
    const returns: bigint[] = [];
    for (const code of basket) {
      try {
        const candles = market.candles(code, '1d', day, 2);
        const [before, on] = candles.slice(-2);
        if (!before || !on || Math.floor(on.time / 86_400) * 86_400 * 1000 !== Date.parse(`${day}T00:00:00Z`))
          continue;
        const [a, b] = sameScale(before.close, on.close);
        if (a <= 0n) continue;
        returns.push(((b - a) * PPM) / a);
      } catch {
        // Not listed, or outside the prices the market keeps: left out of the day's mean.
      }
    }
    if (returns.length === 0) return null;
    return returns.reduce((s, r) => s + r, 0n) / BigInt(returns.length);
  };
}

/** Two decimal strings as integers of one scale. */
function sameScale(x: string, y: string): [bigint, bigint] {
  const decimals = (s: string) => (s.split('.')[1] ?? '').length;
  const scale = Math.max(decimals(x), decimals(y));
  const int = (s: string) => {
    const [whole = '0', frac = ''] = s.split('.');
    return BigInt(whole + frac.padEnd(scale, '0'));
  };
  return [int(x), int(y)];
}
