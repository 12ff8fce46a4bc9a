import { openingFigures, type TradingTerms, USD, unreasonableStops } from '@swx/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  autoCloseKey,
  checkTicket,
  defaultStops,
  parsePrice,
  stepLots,
  stopIssues,
  stopMessage,
  stopsOfFigures,
  ticksOf,
  trailingIssue,
} from './ticket.ts';

const BTC: TradingTerms = {
  id: 7,
  code: 'BTCUSDT',
  lotSize: '1',
  minLots: '0.01',
  maxLots: '100.00',
  lotStep: '0.01',
  leverages: [1, 2],
  maxLeverage: 2,
  feeRate: '0.001',
  spreadRate: '0.0005',
  quoteCurrency: 'USDT',
  priceDecimals: 2,
  stopOutPercent: 50,
  autoCloseChoices: [3600, 14_400, 86_400, 604_800, 2_592_000],
  open: true,
};

describe('default stop loss and take profit', () => {
  it('a long at bid 65,000.00 / ask 65,032.50: stop loss 1 % under the bid, take profit 2 % over it', () => {
    // 1 % of 6,500,000 ticks = 65,000 ticks; 2 % = 130,000 ticks.
    expect(defaultStops('long', '65000.00', '65032.50', 2, BTC)).toEqual({
      stopLoss: '64350.00',
      takeProfit: '66300.00',
    });
  });

  it('a short closes at the ask, so its stops sit around 65,032.50, rounded to whole ticks', () => {
    // 1 % of 6,503,250 = 65,032 ticks (rounded down); 2 % = 130,065 ticks.
    expect(defaultStops('short', '65000.00', '65032.50', 2, BTC)).toEqual({
      stopLoss: '65682.82',
      takeProfit: '63731.85',
    });
  });

  it('at 30× leverage the stop loss stays halfway to the stop-out price, not 1 % away', () => {
    const eurusd = { priceDecimals: 5, stopOutPercent: 50 };
    // Stop-out ≈ 108,010 × 50 % ÷ 30 = 1,800 ticks below the ask; 1,790 below the bid; half is 895.
    expect(defaultStops('long', '1.08000', '1.08010', 30, eurusd)).toEqual({
      stopLoss: '1.07105',
      takeProfit: '1.10160',
    });
  });

  it('leaves the stop loss empty when the spread alone reaches the stop-out price', () => {
    expect(defaultStops('long', '100.00', '101.00', 1000, BTC).stopLoss).toBe('');
  });

  it('are always reasonable by the arithmetic the server checks them with', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1000n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 500n }),
        fc.constantFrom(1, 2, 5, 10, 20, 30, 50, 100),
        fc.constantFrom(0, 2, 5, 8),
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.bigInt({ min: 1n, max: 10_000_000n }),
        (bidTicks, spreadPerMille, leverage, decimals, direction, centilots) => {
          const askTicks = bidTicks + (bidTicks * spreadPerMille) / 1_000_000n;
          const fmt = (t: bigint) =>
            decimals === 0
              ? t.toString()
              : `${t / 10n ** BigInt(decimals)}.${(t % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`;
          const stops = defaultStops(direction, fmt(bidTicks), fmt(askTicks), leverage, {
            priceDecimals: decimals,
            stopOutPercent: 50,
          });
          const open = direction === 'long' ? askTicks : bidTicks;
          const close = direction === 'long' ? bidTicks : askTicks;
          const { liquidationTicks, marginMinor } = openingFigures(
            direction,
            open,
            { centilots, lotSize: 1n, decimals },
            USD,
            BigInt(leverage),
            1000n,
          );
          // Positions under 1 USDT of margin are refused by the server; rounding rules them.
          fc.pre(marginMinor >= 1_000_000n);
          const check = unreasonableStops(
            direction,
            close,
            liquidationTicks,
            stops.stopLoss ? ticksOf(stops.stopLoss, decimals) : close,
            stops.takeProfit ? ticksOf(stops.takeProfit, decimals) : close,
          );
          if (stops.stopLoss) expect(check.stopLoss).toBe(false);
          if (stops.takeProfit) expect(check.takeProfit).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('typed numbers', () => {
  it('refuses more decimals than the instrument has, zero and text', () => {
    expect(parsePrice('65000.123', 2)).toBeNull();
    expect(parsePrice('65000.120', 2)).toBe(6_500_012n);
    expect(parsePrice('0', 2)).toBeNull();
    expect(parsePrice('abc', 2)).toBeNull();
    expect(parsePrice('1.', 2)).toBe(100n);
  });
});

describe('the ticket check', () => {
  const input = {
    direction: 'long' as const,
    lots: '0.5',
    leverage: 2,
    stopLoss: '64350',
    takeProfit: '66300,5',
    autoCloseAfter: 86_400,
  };

  it('builds the body in canonical form', () => {
    expect(checkTicket(input, BTC)).toEqual({
      body: {
        marketId: 7,
        direction: 'long',
        lots: '0.50',
        leverage: 2,
        stopLoss: '64350.00',
        takeProfit: '66300.50',
        autoCloseAfter: 86_400,
      },
      errors: [],
    });
  });

  it('asks for the stop loss and take profit, and lots within the terms', () => {
    const check = checkTicket({ ...input, lots: '100.01', stopLoss: '', takeProfit: ' ' }, BTC);
    expect(check.body).toBeNull();
    expect(check.errors).toEqual([
      { field: 'lots', key: 'lotsRange' },
      { field: 'stopLoss', key: 'enterStopLoss' },
      { field: 'takeProfit', key: 'enterTakeProfit' },
    ]);
    expect(checkTicket({ ...input, lots: '' }, BTC).errors).toEqual([{ field: 'lots', key: 'enterLots' }]);
    expect(checkTicket({ ...input, stopLoss: '1.234' }, BTC).errors).toEqual([
      { field: 'stopLoss', key: 'priceFormat' },
    ]);
  });

  it('sends a trailing distance when one is typed, in canonical form, and refuses one it cannot read', () => {
    expect(checkTicket({ ...input, trailingDistance: '250,5' }, BTC).body?.trailingDistance).toBe('250.50');
    expect(checkTicket({ ...input, trailingDistance: ' ' }, BTC).body).not.toHaveProperty('trailingDistance');
    const bad = checkTicket({ ...input, trailingDistance: '1.234' }, BTC);
    expect(bad.body).toBeNull();
    expect(bad.errors).toEqual([{ field: 'trailingDistance', key: 'priceFormat' }]);
    expect(checkTicket({ ...input, trailingDistance: '0' }, BTC).errors).toEqual([
      { field: 'trailingDistance', key: 'priceFormat' },
    ]);
    expect(trailingIssue([{ path: 'trailingDistance', issue: 'unreasonable' }])).toBe(true);
    expect(trailingIssue([{ path: 'stopLoss', issue: 'unreasonable' }])).toBe(false);
  });

  it('sends nothing for a leverage or auto-close the terms do not offer', () => {
    expect(checkTicket({ ...input, leverage: 3 }, BTC).body).toBeNull();
    expect(checkTicket({ ...input, autoCloseAfter: 60 }, BTC).body).toBeNull();
    expect(checkTicket({ ...input, autoCloseAfter: null }, BTC).body?.autoCloseAfter).toBeNull();
  });

  it('steps lots to the next multiple of the step, within min and max', () => {
    const terms = { minLots: '0.05', maxLots: '1.00', lotStep: '0.05' };
    expect(stepLots('0.37', 1, terms)).toBe('0.40');
    expect(stepLots('0.37', -1, terms)).toBe('0.35');
    expect(stepLots('0.35', -1, terms)).toBe('0.30');
    expect(stepLots('0.05', -1, terms)).toBe('0.05');
    expect(stepLots('1.00', 1, terms)).toBe('1.00');
    expect(stepLots('', 1, terms)).toBe('0.05');
  });
});

describe('stop messages', () => {
  it('reads the preview verdict', () => {
    expect(stopsOfFigures([])).toEqual({ stopLoss: false, takeProfit: false });
    expect(stopsOfFigures(['takeProfit'])).toEqual({ stopLoss: false, takeProfit: true });
  });

  it('reads the issues of a 10026 refusal and picks one of three messages', () => {
    expect(stopIssues({ issues: [{ path: 'stopLoss', issue: 'unreasonable' }] })).toEqual({
      stopLoss: true,
      takeProfit: false,
    });
    expect(
      stopIssues([
        { path: 'stopLoss', issue: 'unreasonable' },
        { path: 'takeProfit', issue: 'unreasonable' },
      ]),
    ).toEqual({ stopLoss: true, takeProfit: true });
    expect(stopIssues([{ path: 'stopLoss', issue: 'too_many_decimals' }])).toBeNull();
    expect(stopIssues({ issues: [{ path: 'lots', issue: 'invalid_format' }] })).toBeNull();
    expect(stopIssues(null)).toBeNull();
    expect(stopMessage({ stopLoss: true, takeProfit: true })).toBe('both');
    expect(stopMessage({ stopLoss: false, takeProfit: true })).toBe('takeProfit');
    expect(stopMessage({ stopLoss: true, takeProfit: false })).toBe('stopLoss');
    expect(stopMessage({ stopLoss: false, takeProfit: false })).toBeNull();
  });

  it('names the auto-close choices', () => {
    expect([3600, 14_400, 86_400, 604_800, 2_592_000, 60].map(autoCloseKey)).toEqual([
      'hour1',
      'hours4',
      'day1',
      'week1',
      'days30',
      null,
    ]);
  });
});
