import { formatMinor, SETTLEMENT_SCALE, type SmartBacktest } from '@swx/contract';
import { ppmText } from '../products/figures.ts';
import { type BarSeries, type EngineConfig, type EngineTrade, runEngine } from './smart.engine.ts';

const PPM = 1_000_000n;
const money = (minor: bigint) => formatMinor(minor, SETTLEMENT_SCALE);
const iso = (t: number) => new Date(t * 1000).toISOString();

/** A ratio of two amounts as text with 6 decimals, rounded towards zero. */
export function ratioText(num: bigint, den: bigint): string {
  if (den === 0n) return '0';
  return ppmText((num * PPM) / den);
}

/** A float statistic (Sharpe, a ratio of floats) as text with 4 decimals. */
const stat = (value: number) => (Number.isFinite(value) ? value.toFixed(4) : null);

/** What a trade left in the plan: its realised result less its fee. */
export const netOf = (trade: EngineTrade) => (trade.realised ?? 0n) - trade.feeMinor;

/**
 * The backtest report: the engine run over the bars from a reference amount, and its figures.
 * Equity points are the marked equity at the end of each UTC day. Sharpe is the mean of daily
 * equity returns over their standard deviation, × √365 (crypto trades every day; a market that
 * rests at weekends has flat days, which is what its plan's equity does too).
 */
export function backtestReport(
  productId: number,
  config: EngineConfig,
  instruments: string[],
  bars: BarSeries,
): SmartBacktest {
  const { engine, daily } = runEngine(config, bars);
  const amount = config.amount;
  const final = engine.balance;
  const closed = engine.trades.filter((t) => t.closeT !== null);
  const nets = closed.map(netOf);
  const wins = nets.filter((n) => n > 0n);
  const gains = wins.reduce((a, b) => a + b, 0n);
  const losses = nets.filter((n) => n < 0n).reduce((a, b) => a - b, 0n);
  const fees = engine.trades.reduce((a, t) => a + t.feeMinor, 0n);
  const returns: number[] = [];
  let previous = Number(amount);
  for (const point of daily) {
    const e = Number(point.equity);
    if (previous > 0) returns.push(e / previous - 1);
    previous = e;
  }
  const mean = returns.length ? returns.reduce((a, b) => a + b, 0) / returns.length : 0;
  const variance =
    returns.length > 1 ? returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1) : 0;
  const deviation = Math.sqrt(variance);
  const from = bars.length ? (bars.t[0] as number) : 0;
  const to = bars.length ? (bars.t[bars.length - 1] as number) : 0;
  const years = Math.max(to - from, 86_400) / (365 * 86_400);
  const growth = Number(final) / Number(amount);
  const firstMid = bars.length ? ((bars.bid[0] as number) + (bars.ask[0] as number)) / 2 : 0;
  const lastMid = bars.length
    ? ((bars.bid[bars.length - 1] as number) + (bars.ask[bars.length - 1] as number)) / 2
    : 0;
  const ppmOfFloat = (x: number) => ppmText(BigInt(Math.trunc(x * 1_000_000)));
  return {
    productId,
    strategy: config.strategy.key,
    instruments,
    from: iso(from),
    to: iso(to),
    bars: bars.length,
    amount: money(amount),
    finalEquity: money(final),
    equity: daily.map((p) => ({ t: iso((p.day + 1) * 86_400), equity: money(p.equity) })),
    totalReturn: ratioText(final - amount, amount),
    annualisedReturn: growth > 0 ? ppmOfFloat(growth ** (1 / years) - 1) : '-1',
    maxDrawdown: ppmText(engine.maxDrawdownPpm),
    sharpe: deviation > 0 ? stat((mean / deviation) * Math.sqrt(365)) : null,
    winRate: closed.length ? ratioText(BigInt(wins.length), BigInt(closed.length)) : null,
    profitFactor: losses > 0n ? stat(Number(gains) / Number(losses)) : null,
    trades: engine.trades.length,
    fees: money(fees),
    marketChange: firstMid > 0 ? ppmOfFloat(lastMid / firstMid - 1) : '0',
    stoppedByDrawdown: engine.stoppedAt !== null,
  };
}
