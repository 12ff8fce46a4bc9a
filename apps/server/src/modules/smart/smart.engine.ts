import {
  type CloseReason,
  type Direction,
  openingFigures,
  profitMinor,
  type Size,
  settlement,
  USD,
  unreasonableStops,
} from '@swx/contract';
import type { Decider, DecisionBar, RiskLimits, StrategyDefinition } from './smart.strategies.ts';

/**
 * The ONE engine of smart plans, for backtests and live plans alike: a deterministic state machine
 * fed the one-minute bars of one instrument in order. A bar is the quote of the second that ends a
 * minute (`t`, a multiple of 60), in integer ticks — exactly the tick the trading engine fills at
 * that second — so a live plan, which executes each action through trading at the bar's second,
 * books exactly the trades the engine computed, and replaying its bars reproduces them.
 *
 * Each bar: (1) an open position's stop loss and take profit are checked on the bar's closing
 * price (the bid for a long, the ask for a short) and closed there; (2) the plan's equity is marked
 * to market and the drawdown stop closes everything and halts the plan once equity falls to
 * `high × (1 − drawdown)`; (3) the bar joins the strategy's decision bar, and when that completes
 * the strategy's signal closes and opens positions at this bar's prices. Sizes, margins, fees and
 * results are computed with the trading contract's functions, as the trading engine posts them.
 * Instruments are quoted in USD or USDT, so the conversion is 1.
 */

/** What the engine needs of the instrument: its trading terms (modules/market/terms.ts). */
export type EngineMarket = {
  decimals: number;
  lotSize: bigint;
  minCentilots: bigint;
  maxCentilots: bigint;
  /** The leverage choices the instrument offers (already capped at the retail limits). */
  leverages: readonly number[];
  feePpm: bigint;
};

export type EngineConfig = {
  strategy: StrategyDefinition;
  market: EngineMarket;
  /** The plan's amount in USDT minor units. */
  amount: bigint;
};

export type OpenAction = {
  kind: 'open';
  t: number;
  direction: Direction;
  centilots: bigint;
  leverage: number;
  openTicks: bigint;
  stopLossTicks: bigint;
  takeProfitTicks: bigint;
  marginMinor: bigint;
  feeMinor: bigint;
};
export type CloseAction = { kind: 'close'; t: number; reason: CloseReason; closeTicks: bigint };
export type EngineAction = OpenAction | CloseAction;

/** A trade as the engine books it: the open's figures and, once closed, the close. */
export type EngineTrade = Omit<OpenAction, 'kind'> & {
  closeT: number | null;
  closeTicks: bigint | null;
  reason: CloseReason | null;
  /** The price move's result (before the fee), as trading computes it. */
  profit: bigint | null;
  /** What closing changed in the plan's account beyond the margin: payout − margin (profit unless absorbed). */
  realised: bigint | null;
};

const PPM = 1_000_000n;

/** The leverage used: the highest choice of the instrument at or below what the strategy wants. */
export function leverageFor(risk: RiskLimits, market: EngineMarket): number | null {
  let best: number | null = null;
  for (const l of market.leverages) if (l <= risk.leverage && (best === null || l > best)) best = l;
  return best;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** Stop loss and take profit ticks of a position opened at `open` (rounded towards the open: never wider than stated). */
export function stopsFor(direction: Direction, open: bigint, risk: RiskLimits) {
  if (direction === 'long')
    return {
      stopLossTicks: ceilDiv(open * (PPM - risk.stopLossPpm), PPM),
      takeProfitTicks: (open * (PPM + risk.takeProfitPpm)) / PPM,
    };
  return {
    stopLossTicks: (open * (PPM + risk.stopLossPpm)) / PPM,
    takeProfitTicks: ceilDiv(open * (PPM - risk.takeProfitPpm), PPM),
  };
}

export class SmartEngine {
  readonly config: EngineConfig;
  private readonly decider: Decider;
  private readonly size: Size;
  private readonly leverage: number | null;
  private readonly decisionSeconds: number;
  /** What the plan's account holds: the amount, less open margin and fees, plus closed results. */
  balance: bigint;
  /** The highest marked equity so far, and the worst fall below it in millionths of it. */
  high: bigint;
  maxDrawdownPpm = 0n;
  open: EngineTrade | null = null;
  readonly trades: EngineTrade[] = [];
  /** Set when the drawdown stop fired: the plan trades no more. */
  stoppedAt: number | null = null;
  lastT: number | null = null;
  /** The last bar's prices: where the plan's end or stop closes what is open. */
  lastBid = 0n;
  lastAsk = 0n;
  private bar: DecisionBar | null = null;

  constructor(config: EngineConfig) {
    this.config = config;
    this.decider = config.strategy.create();
    this.size = { centilots: 0n, lotSize: config.market.lotSize, decimals: config.market.decimals };
    this.leverage = leverageFor(config.strategy.risk, config.market);
    this.decisionSeconds = config.strategy.barMinutes * 60;
    this.balance = config.amount;
    this.high = config.amount;
  }

  /** The plan's equity at a bar: the account plus what closing the open position there would pay. */
  equityAt(bid: bigint, ask: bigint): bigint {
    const p = this.open;
    if (!p) return this.balance;
    const profit = profitMinor(
      p.direction,
      p.openTicks,
      p.direction === 'long' ? bid : ask,
      this.sized(p),
      USD,
    );
    return this.balance + settlement(p.marginMinor, profit).payoutMinor;
  }

  private sized(p: { centilots: bigint }): Size {
    return { ...this.size, centilots: p.centilots };
  }

  /**
   * One one-minute bar (its closing second `t`, bid and ask in ticks). Returns what to do at `t`,
   * in order; the engine's own state already includes it.
   */
  step(t: number, bid: bigint, ask: bigint): EngineAction[] {
    if (this.stoppedAt !== null) return [];
    if (this.lastT !== null && t <= this.lastT)
      throw new Error(`bars out of order: ${t} after ${this.lastT}`);
    this.lastT = t;
    this.lastBid = bid;
    this.lastAsk = ask;
    const actions: EngineAction[] = [];
    const risk = this.config.strategy.risk;
    const p = this.open;
    if (p) {
      const closeTicks = p.direction === 'long' ? bid : ask;
      const long = p.direction === 'long';
      if (long ? closeTicks <= p.stopLossTicks : closeTicks >= p.stopLossTicks)
        actions.push(this.close(t, 'stop_loss', closeTicks));
      else if (long ? closeTicks >= p.takeProfitTicks : closeTicks <= p.takeProfitTicks)
        actions.push(this.close(t, 'take_profit', closeTicks));
    }
    const equity = this.equityAt(bid, ask);
    if (equity > this.high) this.high = equity;
    else if (this.high > 0n) {
      const drawdown = ((this.high - equity) * PPM) / this.high;
      if (drawdown > this.maxDrawdownPpm) this.maxDrawdownPpm = drawdown;
    }
    if (equity * PPM <= this.high * (PPM - risk.drawdownStopPpm)) {
      const open = this.open;
      if (open) actions.push(this.close(t, 'drawdown', open.direction === 'long' ? bid : ask));
      this.stoppedAt = t;
      return actions;
    }
    // Decision bars are built from mids; they complete on the minute that ends their period.
    const scale = 10 ** this.config.market.decimals;
    const mid = Number(bid + ask) / 2 / scale;
    if (this.bar === null) this.bar = { high: mid, low: mid, close: mid };
    else {
      if (mid > this.bar.high) this.bar.high = mid;
      if (mid < this.bar.low) this.bar.low = mid;
      this.bar.close = mid;
    }
    if (t % this.decisionSeconds !== 0) return actions;
    const decision = this.bar;
    this.bar = null;
    const signal = this.decider.next(decision, this.open?.direction ?? null);
    if (signal === null) return actions;
    const current = this.open;
    if (current && current.direction !== signal)
      actions.push(this.close(t, 'signal', current.direction === 'long' ? bid : ask));
    if (signal !== 'flat' && !this.open) {
      const opened = this.tryOpen(t, signal, bid, ask);
      if (opened) actions.push(opened);
    }
    return actions;
  }

  /**
   * Closes what is open at the last bar (its second and prices): the plan's end or the customer's
   * stop. A market closed since then (a weekend) closes at its last traded price.
   */
  closeAll(reason: CloseReason): CloseAction[] {
    const p = this.open;
    if (!p || this.lastT === null) return [];
    return [this.close(this.lastT, reason, p.direction === 'long' ? this.lastBid : this.lastAsk)];
  }

  private close(t: number, reason: CloseReason, closeTicks: bigint): CloseAction {
    const p = this.open;
    if (!p) throw new Error('nothing to close');
    const profit = profitMinor(p.direction, p.openTicks, closeTicks, this.sized(p), USD);
    const { payoutMinor } = settlement(p.marginMinor, profit);
    this.balance += payoutMinor;
    p.closeT = t;
    p.closeTicks = closeTicks;
    p.reason = reason;
    p.profit = profit;
    p.realised = payoutMinor - p.marginMinor;
    this.open = null;
    return { kind: 'close', t, reason, closeTicks };
  }

  /**
   * Opens at this bar's price with the strategy's share of the plan's account as margin, in whole
   * hundredths of a lot within the instrument's limits; nothing when that is below the minimum
   * size, the account cannot pay margin and fee, or the stops would be unreasonable.
   */
  private tryOpen(t: number, direction: Direction, bid: bigint, ask: bigint): OpenAction | null {
    const leverage = this.leverage;
    if (leverage === null) return null;
    const { market, strategy } = this.config;
    const risk = strategy.risk;
    const openTicks = direction === 'long' ? ask : bid;
    const perCentilot = openingFigures(
      direction,
      openTicks,
      this.sized({ centilots: 1n }),
      USD,
      1n,
      0n,
    ).notionalMinor;
    if (perCentilot <= 0n) return null;
    const budget = (this.balance * risk.marginSharePpm) / PPM;
    let centilots = (budget * BigInt(leverage)) / perCentilot;
    if (centilots > market.maxCentilots) centilots = market.maxCentilots;
    if (centilots < market.minCentilots) return null;
    const size = this.sized({ centilots });
    const figures = openingFigures(direction, openTicks, size, USD, BigInt(leverage), market.feePpm);
    if (figures.marginMinor <= 0n || figures.marginMinor + figures.feeMinor > this.balance) return null;
    const stops = stopsFor(direction, openTicks, risk);
    const check = unreasonableStops(
      direction,
      direction === 'long' ? bid : ask,
      figures.liquidationTicks,
      stops.stopLossTicks,
      stops.takeProfitTicks,
    );
    if (check.stopLoss || check.takeProfit) return null;
    const action: OpenAction = {
      kind: 'open',
      t,
      direction,
      centilots,
      leverage,
      openTicks,
      ...stops,
      marginMinor: figures.marginMinor,
      feeMinor: figures.feeMinor,
    };
    this.balance -= figures.marginMinor + figures.feeMinor;
    const { kind: _kind, ...trade } = action;
    this.open = { ...trade, closeT: null, closeTicks: null, reason: null, profit: null, realised: null };
    this.trades.push(this.open);
    return action;
  }
}

/** One-minute bars of one instrument: closing seconds and integer ticks, in time order. */
export type BarSeries = {
  length: number;
  t: Float64Array;
  bid: Float64Array;
  ask: Float64Array;
};

export type EngineRun = {
  engine: SmartEngine;
  /** Marked equity at the end of each UTC day (the last bar of the day), in order. */
  daily: { day: number; equity: bigint }[];
};

/**
 * Runs the engine over bars (a backtest, or the replay of a live plan), closing what is open at
 * the last bar with reason `expiry` when `closeAtEnd`. After a drawdown stop the bars still run
 * (the engine ignores them), so the equity curve covers the whole period, flat after the stop.
 */
export function runEngine(config: EngineConfig, bars: BarSeries, closeAtEnd = true): EngineRun {
  const engine = new SmartEngine(config);
  const daily: { day: number; equity: bigint }[] = [];
  for (let i = 0; i < bars.length; i++) {
    const t = bars.t[i] as number;
    const bid = BigInt(bars.bid[i] as number);
    const ask = BigInt(bars.ask[i] as number);
    engine.step(t, bid, ask);
    // The bar that ends a day (its 00:00 UTC second) closes it: its equity is the day before's.
    const d = Math.floor((t - 1) / 86_400);
    const equity = engine.stoppedAt !== null ? engine.balance : engine.equityAt(bid, ask);
    const last = daily.at(-1);
    if (last && last.day === d) last.equity = equity;
    else daily.push({ day: d, equity });
  }
  if (closeAtEnd && engine.open) {
    engine.closeAll('expiry');
    const last = daily.at(-1);
    if (last) last.equity = engine.balance;
  }
  return { engine, daily };
}
