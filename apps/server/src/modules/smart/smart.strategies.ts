import type { Direction, SmartStrategy } from '@swx/contract';
import { BollingerBands, DonchianChannels, EMA } from 'trading-signals';

/**
 * The strategies a plan can run, each a named rule documented in plain words on its product page
 * (web texts `smart.strategy.<key>.*`). Indicators come from `trading-signals`; their values are
 * floats used only to decide. Every price, size and amount the engine posts is exact (ticks and
 * minor units, smart.engine.ts).
 */

/** One bar the rule decides on: N one-minute mids aggregated (floats of the mid price). */
export type DecisionBar = { high: number; low: number; close: number };

/** long / short: be in that position (closing the other first); flat: close; null: nothing to do. */
export type Signal = Direction | 'flat' | null;

/** A strategy's state on one plan: fed one decision bar at a time, in order, never re-read. */
export interface Decider {
  next(bar: DecisionBar, position: Direction | null): Signal;
}

/** Risk limits in millionths (ppm) so the engine's arithmetic stays in integers. */
export type RiskLimits = {
  stopLossPpm: bigint;
  takeProfitPpm: bigint;
  /** The leverage wanted; the engine uses the highest of the instrument's choices at or below it. */
  leverage: number;
  marginSharePpm: bigint;
  drawdownStopPpm: bigint;
};

export type StrategyDefinition = {
  key: SmartStrategy;
  docKey: string;
  /** The instruments the rule is written for (the products staff create name one of them). */
  instruments: readonly string[];
  barMinutes: number;
  parameters: Readonly<Record<string, number>>;
  risk: RiskLimits;
  create(): Decider;
};

/**
 * Moving-average trend follower: on 15-minute bars, a 20-bar exponential average crossing above
 * the 50-bar one goes long, crossing below goes short; no entry between crosses.
 */
const maTrend: StrategyDefinition = {
  key: 'ma_trend',
  docKey: 'smart.strategy.ma_trend',
  instruments: ['BTCUSDT', 'ETHUSDT'],
  barMinutes: 15,
  parameters: { fast: 20, slow: 50 },
  risk: {
    stopLossPpm: 20_000n,
    takeProfitPpm: 40_000n,
    leverage: 2,
    marginSharePpm: 500_000n,
    drawdownStopPpm: 150_000n,
  },
  create() {
    const fast = new EMA(20);
    const slow = new EMA(50);
    let previous: Direction | null = null;
    return {
      next(bar) {
        const f = fast.add(bar.close);
        const s = slow.add(bar.close);
        if (f === null || s === null || !slow.isStable || f === s) return null;
        const side: Direction = f > s ? 'long' : 'short';
        const crossed = previous !== null && side !== previous;
        previous = side;
        return crossed ? side : null;
      },
    };
  },
};

/**
 * Mean reversion: on 15-minute bars, a close below the lower Bollinger band (20 bars, 2 standard
 * deviations) goes long, above the upper band short; the position closes when the price is back
 * at the middle band.
 */
const meanReversion: StrategyDefinition = {
  key: 'mean_reversion',
  docKey: 'smart.strategy.mean_reversion',
  instruments: ['EURUSD', 'GBPUSD'],
  barMinutes: 15,
  parameters: { period: 20, deviations: 2 },
  risk: {
    stopLossPpm: 2_500n,
    takeProfitPpm: 5_000n,
    leverage: 20,
    marginSharePpm: 200_000n,
    drawdownStopPpm: 100_000n,
  },
  create() {
    const bands = new BollingerBands(20, 2);
    return {
      next(bar, position) {
        const b = bands.add(bar.close);
        if (b === null) return null;
        if (position === 'long' && bar.close >= b.middle) return 'flat';
        if (position === 'short' && bar.close <= b.middle) return 'flat';
        if (position === null && bar.close < b.lower) return 'long';
        if (position === null && bar.close > b.upper) return 'short';
        return null;
      },
    };
  },
};

/**
 * Breakout: on one-hour bars, a close above the highest high of the previous 20 bars (Donchian
 * channel) goes long, below the lowest low short.
 */
const breakout: StrategyDefinition = {
  key: 'breakout',
  docKey: 'smart.strategy.breakout',
  instruments: ['XAUUSD', 'XAGUSD'],
  barMinutes: 60,
  parameters: { period: 20 },
  risk: {
    stopLossPpm: 10_000n,
    takeProfitPpm: 20_000n,
    leverage: 10,
    marginSharePpm: 300_000n,
    drawdownStopPpm: 150_000n,
  },
  create() {
    const channel = new DonchianChannels(20);
    let previous: { upper: number; lower: number } | null = null;
    return {
      next(bar, position) {
        // The channel of the bars before this one: the breakout is this bar leaving it.
        let signal: Signal = null;
        if (previous !== null) {
          if (bar.close > previous.upper && position !== 'long') signal = 'long';
          else if (bar.close < previous.lower && position !== 'short') signal = 'short';
        }
        const c = channel.add({ high: bar.high, low: bar.low });
        previous = c === null ? null : { upper: c.upper, lower: c.lower };
        return signal;
      },
    };
  },
};

export const STRATEGIES: Readonly<Record<SmartStrategy, StrategyDefinition>> = {
  ma_trend: maTrend,
  mean_reversion: meanReversion,
  breakout,
};
