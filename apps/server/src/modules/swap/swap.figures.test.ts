import { ASSET_SCALES, Code, SWAP_ASSETS, type SwapAsset } from '@swx/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/http.ts';
import { type SidePrices, swapFigures, swapLegs, USDT_PRICE } from './swap.figures.ts';

/** A decimal string's exact value as numerator and power-of-ten denominator, read independently of the code under test. */
const exact = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return { n: BigInt(`${whole}${fraction}`), d: 10n ** BigInt(fraction.length) };
};

const input = (
  from: SwapAsset,
  to: SwapAsset,
  amount: bigint,
  fromPrice: SidePrices,
  toPrice: SidePrices,
  feePpm = 1000n,
) => ({
  amount,
  fromScale: ASSET_SCALES[from],
  toScale: ASSET_SCALES[to],
  from: fromPrice,
  to: toPrice,
  feePpm,
});

describe('swap figures', () => {
  it('0.01 BTC → USDT at 65,012.50 / 65,013.50, fee 0.1 %', () => {
    const f = swapFigures(input('BTC', 'USDT', 1_000_000n, { bid: '65012.50', ask: '65013.50' }, USDT_PRICE));
    // gross = floor(0.01 × 65,012.50) = 650.125000 USDT
    expect(f.gross).toBe(650_125_000n);
    // at the mid 65,013.00: 650.130000; spread = 650.130000 − 650.125000 = 0.005000
    expect(f.spread).toBe(5_000n);
    // fee = ceil(650.125000 × 0.001) = ceil(0.650125) at 6 places = 0.650125
    expect(f.fee).toBe(650_125n);
    // receive = 650.125000 − 0.650125 = 649.474875
    expect(f.receive).toBe(649_474_875n);
    expect(f.price).toBe('65012.500000000000000000');
    expect(f.rate).toBe('65013.000000000000000000');
  });

  it('100 USDT → BTC at 99,990 / 100,010: the ask of BTC is paid, the fee rounds up to a satoshi', () => {
    const f = swapFigures(input('USDT', 'BTC', 100_000_000n, USDT_PRICE, { bid: '99990', ask: '100010' }));
    // gross = floor(100 / 100,010 BTC in satoshis) = floor(10^10 / 100,010) = floor(99,990.0009…) = 99,990
    expect(f.gross).toBe(99_990n);
    // at the mid 100,000: 100,000 satoshis; spread = 10
    expect(f.spread).toBe(10n);
    // fee = ceil(99,990 × 0.001) = ceil(99.99) = 100
    expect(f.fee).toBe(100n);
    expect(f.receive).toBe(99_890n);
    // 1 / 100,010 = 0.0000099990000999900…, cut at 18 places
    expect(f.price).toBe('0.000009999000099990');
    expect(f.rate).toBe('0.000010000000000000');
  });

  it('1 ETH → BTC through both USDT prices (ETH 3,000.00 / 3,001.00, BTC 100,000.00 / 100,002.00)', () => {
    const f = swapFigures(
      input(
        'ETH',
        'BTC',
        10n ** 18n,
        { bid: '3000.00', ask: '3001.00' },
        { bid: '100000.00', ask: '100002.00' },
      ),
    );
    // gross = floor(3,000 / 100,002 × 10^8) = floor(2,999,940.0012) = 2,999,940 (100,002 × 2,999,940 = 299,999,999,880)
    expect(f.gross).toBe(2_999_940n);
    // at the mids 3,000.50 / 100,001: floor(300,050,000,000 / 100,001) = 3,000,469; spread = 529
    expect(f.spread).toBe(529n);
    // fee = ceil(2,999.94) = 3,000; receive = 2,996,940
    expect(f.fee).toBe(3_000n);
    expect(f.receive).toBe(2_996_940n);
  });

  it('no fee leg at a zero fee rate; an amount that receives nothing is refused with 10016', () => {
    const free = swapFigures(
      input('USDC', 'USDT', 10_000_000n, { bid: '0.9998', ask: '1.0002' }, USDT_PRICE, 0n),
    );
    // 10 × 0.9998 = 9.998000, all of it received
    expect(free).toMatchObject({ gross: 9_998_000n, fee: 0n, receive: 9_998_000n, spread: 2_000n });
    expect(swapLegs(free).map((l) => l.role)).toEqual(['wallet', 'house_pnl', 'house_pnl', 'wallet']);
    // 0.000001 USDT buys floor(10^8 / (100,010 × 10^6)) = 0 satoshis.
    const refused = (() => {
      try {
        swapFigures(input('USDT', 'BTC', 1n, USDT_PRICE, { bid: '99990', ask: '100010' }));
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(Code.INCORRECT_PURCHASE_AMOUNT);
  });

  it('for any pair, amount, prices (bid ≤ ask) and fee rate: legs net to zero per asset, fee = ceil(gross × rate), receive = gross − fee, spread ≥ 0', () => {
    const price = fc
      .record({
        decimals: fc.integer({ min: 0, max: 8 }),
        bid: fc.bigInt({ min: 1n, max: 10n ** 14n }),
        spread: fc.bigInt({ min: 0n, max: 10n ** 10n }),
      })
      .map(({ decimals, bid, spread }): SidePrices => {
        const text = (v: bigint) => {
          const s = v.toString().padStart(decimals + 1, '0');
          return decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
        };
        return { bid: text(bid), ask: text(bid + spread) };
      });
    const pair = fc
      .tuple(fc.constantFrom(...SWAP_ASSETS), fc.constantFrom(...SWAP_ASSETS))
      .filter(([a, b]) => a !== b);
    fc.assert(
      fc.property(
        pair,
        fc.bigInt({ min: 1n, max: 10n ** 26n }),
        price,
        price,
        fc.bigInt({ min: 0n, max: 999_999n }),
        ([from, to], amount, fromPrice, toPrice, feePpm) => {
          const given = input(
            from,
            to,
            amount,
            from === 'USDT' ? USDT_PRICE : fromPrice,
            to === 'USDT' ? USDT_PRICE : toPrice,
            feePpm,
          );
          // gross by its definition, cross-multiplied: gross ≤ amount × bid / ask < gross + 1
          const bid = exact(given.from.bid);
          const ask = exact(given.to.ask);
          const num = amount * bid.n * ask.d * 10n ** BigInt(given.toScale);
          const den = bid.d * ask.n * 10n ** BigInt(given.fromScale);
          let f: ReturnType<typeof swapFigures>;
          try {
            f = swapFigures(given);
          } catch (error) {
            // Refused (10016) only when nothing would be received: ceil(gross × p / 10^6) ≥ gross,
            // that is gross × p > (gross − 1) × 10^6 (true for a gross of 0).
            expect((error as ApiError).code).toBe(Code.INCORRECT_PURCHASE_AMOUNT);
            const gross = num / den;
            expect(gross * feePpm > (gross - 1n) * 1_000_000n).toBe(true);
            return;
          }
          expect(f.gross * den <= num && num < (f.gross + 1n) * den).toBe(true);
          // fee = ceil(gross × feePpm / 10^6): the least integer with fee × 10^6 ≥ gross × feePpm
          expect(f.fee * 1_000_000n >= f.gross * feePpm).toBe(true);
          expect((f.fee - 1n) * 1_000_000n < f.gross * feePpm).toBe(true);
          expect(f.receive).toBe(f.gross - f.fee);
          expect(f.receive > 0n).toBe(true);
          expect(f.spread >= 0n).toBe(true);
          const legs = swapLegs(f);
          for (const side of ['from', 'to'] as const)
            expect(legs.filter((l) => l.side === side).reduce((s, l) => s + l.amount, 0n)).toBe(0n);
          expect(legs.filter((l) => l.role === 'wallet').map((l) => l.amount)).toEqual([-amount, f.receive]);
          expect(legs.find((l) => l.role === 'fees')?.amount ?? 0n).toBe(f.fee);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
