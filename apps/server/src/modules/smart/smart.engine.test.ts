import { openingFigures, profitMinor, USD } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { termsOf } from '../market/terms.ts';
import { backtestReport } from './smart.backtest.ts';
import {
  type BarSeries,
  type EngineConfig,
  type EngineMarket,
  runEngine,
  SmartEngine,
} from './smart.engine.ts';
import { STRATEGIES, type StrategyDefinition } from './smart.strategies.ts';

const DAY = 86_400;
const START = 20_000 * DAY; // a Thursday, 00:00 UTC

function marketOf(
  code: string,
  cls: 'crypto' | 'forex' | 'metals',
  ref: number,
  decimals: number,
): EngineMarket {
  const t = termsOf(code, cls, ref);
  return {
    decimals,
    lotSize: t.lotSize,
    minCentilots: t.minCentilots,
    maxCentilots: t.maxCentilots,
    leverages: t.leverages,
    feePpm: t.feePpm,
  };
}

const BTC = marketOf('BTCUSDT', 'crypto', 100_000, 2);
const EUR = marketOf('EURUSD', 'forex', 1.1, 5);
const GOLD = marketOf('XAUUSD', 'metals', 4000, 2);

/** One-minute bars from mids in ticks, with a spread of two ticks. */
function bars(mids: readonly number[], spread = 2): BarSeries {
  const n = mids.length;
  const out = { length: n, t: new Float64Array(n), bid: new Float64Array(n), ask: new Float64Array(n) };
  mids.forEach((m, i) => {
    out.t[i] = START + (i + 1) * 60;
    out.bid[i] = Math.round(m) - spread / 2;
    out.ask[i] = Math.round(m) + spread / 2;
  });
  return out;
}

/** A path of `minutes` one-minute mids moving linearly from `from` to `to`. */
const line = (from: number, to: number, minutes: number) =>
  Array.from({ length: minutes }, (_, i) => from + ((to - from) * (i + 1)) / minutes);

const config = (
  strategy: StrategyDefinition,
  market: EngineMarket,
  amount = 10_000_000_000n,
): EngineConfig => ({
  strategy,
  market,
  amount,
});

describe('the smart engine', () => {
  it('ma_trend goes long on the 15-minute bar where the fast average crosses above the slow one, and takes profit', () => {
    const mids = [...line(10_000_000, 9_500_000, 900), ...line(9_500_000, 10_500_000, 900)];
    const series = bars(mids);
    const { engine } = runEngine(config(STRATEGIES.ma_trend, BTC), series);
    const first = engine.trades[0];
    expect(first).toBeDefined();
    if (!first) return;
    expect(first.direction).toBe('long');
    expect(first.t % 900).toBe(0);
    expect(first.t).toBeGreaterThan(START + 900 * 60); // after the turn
    const i = series.t.indexOf(first.t);
    expect(first.openTicks).toBe(BigInt(series.ask[i] as number));
    // Sized by the rule: half the account as margin at leverage 2, in hundredths of a lot.
    const perCentilot = openingFigures(
      'long',
      first.openTicks,
      { centilots: 1n, lotSize: BTC.lotSize, decimals: 2 },
      USD,
      1n,
      0n,
    ).notionalMinor;
    expect(first.centilots).toBe((5_000_000_000n * 2n) / perCentilot);
    expect(first.leverage).toBe(2);
    // Take profit at the first bar whose bid reaches it, at that bid.
    const hit = Array.from(series.bid).findIndex((b, k) => k > i && BigInt(b) >= first.takeProfitTicks);
    expect(first.reason).toBe('take_profit');
    expect(first.closeT).toBe(series.t[hit]);
    expect(first.closeTicks).toBe(BigInt(series.bid[hit] as number));
    expect(first.profit).toBe(
      profitMinor(
        'long',
        first.openTicks,
        first.closeTicks as bigint,
        { centilots: first.centilots, lotSize: BTC.lotSize, decimals: 2 },
        USD,
      ),
    );
    // The account: amount + the trade's result − its fee.
    expect(engine.balance).toBe(10_000_000_000n + (first.realised as bigint) - first.feeMinor);
  });

  it('closes a trade at its stop loss', () => {
    const mids = [
      ...line(10_000_000, 9_500_000, 900),
      ...line(9_500_000, 9_800_000, 300),
      ...line(9_800_000, 9_300_000, 300),
    ];
    const series = bars(mids);
    const { engine } = runEngine(config(STRATEGIES.ma_trend, BTC), series);
    const first = engine.trades[0];
    expect(first?.direction).toBe('long');
    expect(first?.reason).toBe('stop_loss');
    const i = series.t.indexOf(first?.closeT as number);
    expect(BigInt(series.bid[i] as number)).toBeLessThanOrEqual(first?.stopLossTicks as bigint);
    expect(BigInt(series.bid[i - 1] as number)).toBeGreaterThan(first?.stopLossTicks as bigint);
    // Stops stated on every trade, at the strategy's distances.
    expect(first?.stopLossTicks).toBe(((first?.openTicks as bigint) * 980_000n + 999_999n) / 1_000_000n);
  });

  it('mean_reversion buys below the lower band and closes back at the middle', () => {
    const calm = Array.from({ length: 600 }, (_, i) => 110_000 + (i % 30 < 15 ? 5 : -5));
    // Back up to 109,800 (below the take profit), where the middle band comes down to meet it.
    const mids = [
      ...calm,
      ...line(110_000, 109_300, 15),
      ...line(109_300, 109_800, 60),
      ...Array(600).fill(109_800),
    ];
    const series = bars(mids);
    const { engine } = runEngine(config(STRATEGIES.mean_reversion, EUR), series);
    const first = engine.trades[0];
    expect(first?.direction).toBe('long');
    expect((first?.t as number) % 900).toBe(0);
    expect(first?.leverage).toBe(20);
    expect(first?.reason).toBe('signal');
    expect((first?.closeT as number) % 900).toBe(0);
    expect(first?.closeTicks).toBe(109_799n);
    expect(engine.trades).toHaveLength(1);
  });

  it('breakout goes long when an hour closes above the channel of the 20 before it', () => {
    const range = Array.from({ length: 60 * 24 }, (_, i) => 400_000 + ((i * 37) % 400) - 200);
    const mids = [...range, ...line(400_000, 404_000, 60), ...Array(120).fill(404_000)];
    const series = bars(mids);
    const { engine } = runEngine(config(STRATEGIES.breakout, GOLD), series);
    const first = engine.trades[0];
    expect(first?.direction).toBe('long');
    expect(first?.t).toBe(START + (60 * 24 + 60) * 60);
    expect(first?.leverage).toBe(10);
  });

  it('the drawdown stop closes everything and halts the plan at the limit', () => {
    const tight: StrategyDefinition = {
      ...STRATEGIES.ma_trend,
      risk: { ...STRATEGIES.ma_trend.risk, stopLossPpm: 100_000n, drawdownStopPpm: 5_000n },
    };
    const mids = [
      ...line(10_000_000, 9_500_000, 900),
      ...line(9_500_000, 9_800_000, 300),
      ...line(9_800_000, 9_000_000, 600),
    ];
    const series = bars(mids);
    const engine = new SmartEngine(config(tight, BTC));
    let previousEquity = engine.balance;
    for (let i = 0; i < series.length; i++) {
      const bid = BigInt(series.bid[i] as number);
      const ask = BigInt(series.ask[i] as number);
      const equity = engine.equityAt(bid, ask);
      engine.step(series.t[i] as number, bid, ask);
      if (engine.stoppedAt !== null) {
        expect(equity * 1_000_000n).toBeLessThanOrEqual(engine.high * 995_000n);
        expect(previousEquity * 1_000_000n).toBeGreaterThan(engine.high * 995_000n);
        break;
      }
      previousEquity = equity;
    }
    expect(engine.stoppedAt).not.toBeNull();
    expect(engine.open).toBeNull();
    expect(engine.trades.at(-1)?.reason).toBe('drawdown');
    expect(engine.step((engine.stoppedAt as number) + 60, 9_000_000n, 9_000_002n)).toEqual([]);
  });

  it('is deterministic: stepping bars one by one, as a live plan does, gives the run over all of them', () => {
    const mids = Array.from(
      { length: 20_000 },
      (_, i) => 10_000_000 + Math.round(300_000 * Math.sin(i / 700) + 50_000 * Math.sin(i / 37)),
    );
    const series = bars(mids);
    const whole = runEngine(config(STRATEGIES.ma_trend, BTC), series, false).engine;
    const live = new SmartEngine(config(STRATEGIES.ma_trend, BTC));
    const actions = [];
    for (let i = 0; i < series.length; i++)
      actions.push(
        ...live.step(series.t[i] as number, BigInt(series.bid[i] as number), BigInt(series.ask[i] as number)),
      );
    expect(whole.trades.length).toBeGreaterThan(2);
    expect(live.trades).toEqual(whole.trades);
    expect(actions.filter((a) => a.kind === 'open')).toHaveLength(whole.trades.length);
  });

  it('reports a backtest from the same run', () => {
    const mids = Array.from(
      { length: 3 * 1440 },
      (_, i) => 10_000_000 + Math.round(300_000 * Math.sin(i / 700)),
    );
    const report = backtestReport(1, config(STRATEGIES.ma_trend, BTC), ['BTCUSDT'], bars(mids));
    expect(report.bars).toBe(3 * 1440);
    expect(report.equity).toHaveLength(3);
    const { engine } = runEngine(config(STRATEGIES.ma_trend, BTC), bars(mids));
    expect(report.trades).toBe(engine.trades.length);
    expect(report.finalEquity).toBe((Number(engine.balance) / 1e6).toFixed(6).replace(/\.?0+$/, ''));
  });
});
