// A year's backtest per smart-plan strategy through the ONE engine live plans run
// (apps/server/src/modules/smart/smart.engine.ts): the platform's one-minute bars of the past year
// (525,600 for a crypto pair that trades every minute; a forex pair or gold rests at weekends, so
// its own year has fewer — each strategy is also run on the 525,600 BTCUSDT bars), exact ticks and
// minor units, stops checked on every bar, sizing and fees as trading posts them.
// Beside it, in the same run and on the same BTCUSDT bars: a vectorised pandas backtest of the
// same moving-average rule (Debian's python3-pandas): EMA 20/50 of the 15-minute closes, long or
// short by their order, returns of the minute mids, the fee on each change — the textbook
// vectorised form, without per-trade stops or sizing in lots.
// Usage: node bench/smart.ts [runs, default 3]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE } from '../apps/server/src/modules/market/catalogue.data.ts';
import type { Instrument } from '../apps/server/src/modules/market/feed.ts';
import { decimalsFor } from '../apps/server/src/modules/market/market.service.ts';
import { simulatedSource } from '../apps/server/src/modules/market/source.ts';
import { termsOf } from '../apps/server/src/modules/market/terms.ts';
import { barsOf } from '../apps/server/src/modules/smart/smart.bars.ts';
import {
  type BarSeries,
  type EngineConfig,
  runEngine,
} from '../apps/server/src/modules/smart/smart.engine.ts';
import { STRATEGIES } from '../apps/server/src/modules/smart/smart.strategies.ts';

const RUNS = Number(process.argv[2] ?? 3);
const DAY = 86_400;
const END = Math.floor(Date.now() / 1000 / DAY) * DAY;
const START = END - 365 * DAY;
const AMOUNT = 10_000_000_000n; // 10,000 USDT

function instrument(code: string): Instrument {
  const entry = CATALOGUE.find((c) => c.code === code);
  if (!entry) throw new Error(`${code} is not listed`);
  return {
    id: 1,
    code,
    class: entry.class,
    ref: Number(entry.ref),
    decimals: decimalsFor(entry.class, entry.ref),
  };
}

/**
 * A strategy on an instrument. `timing`: its drawdown stop set at 100 %, so the engine decides on
 * every bar of the year (once a plan's stop fires, the engine skips the bars left, which would time
 * nothing); the real limits' outcome is reported beside it.
 */
function config(key: keyof typeof STRATEGIES, inst: Instrument, timing = false): EngineConfig {
  const terms = termsOf(inst.code, inst.class, inst.ref);
  const strategy = STRATEGIES[key];
  return {
    strategy: timing ? { ...strategy, risk: { ...strategy.risk, drawdownStopPpm: 1_000_000n } } : strategy,
    market: { ...terms, decimals: inst.decimals },
    amount: AMOUNT,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function timeEngine(cfg: EngineConfig, bars: BarSeries) {
  const times: number[] = [];
  let last: ReturnType<typeof runEngine> | null = null;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    last = runEngine(cfg, bars);
    times.push(performance.now() - started);
  }
  const engine = (last as ReturnType<typeof runEngine>).engine;
  return {
    ms: times,
    trades: engine.trades.length,
    finalUsdt: Number(engine.balance) / 1e6,
    stopped: engine.stoppedAt !== null,
  };
}

const btc = instrument('BTCUSDT');
let started = performance.now();
const btcBars = barsOf(simulatedSource, btc, START, END);
const btcBarsMs = performance.now() - started;
console.log(
  `bars: BTCUSDT ${btcBars.length.toLocaleString('en')} one-minute bars of ${new Date(START * 1000).toISOString().slice(0, 10)}..${new Date(END * 1000).toISOString().slice(0, 10)} computed from the price simulator in ${btcBarsMs.toFixed(0)} ms (not part of the backtest times)`,
);

const own = [
  { key: 'ma_trend', code: 'BTCUSDT' },
  { key: 'mean_reversion', code: 'EURUSD' },
  { key: 'breakout', code: 'XAUUSD' },
] as const;

console.log(
  `\nengine (one-minute bars, exact ticks and minor units, every bar decided: drawdown stop off for timing; min / median / max of ${RUNS} runs):`,
);
for (const { key, code } of own) {
  const inst = instrument(code);
  started = performance.now();
  const bars = code === 'BTCUSDT' ? btcBars : barsOf(simulatedSource, inst, START, END);
  const barsMs = code === 'BTCUSDT' ? btcBarsMs : performance.now() - started;
  const r = timeEngine(config(key, inst, true), bars);
  const real = runEngine(config(key, inst), bars).engine;
  console.log(
    `  ${key.padEnd(15)} on ${code.padEnd(8)} ${bars.length.toLocaleString('en').padStart(8)} bars: ${Math.min(...r.ms).toFixed(0)} / ${median(r.ms).toFixed(0)} / ${Math.max(...r.ms).toFixed(0)} ms, ${r.trades} trades, 10,000 → ${r.finalUsdt.toFixed(2)} USDT  [bars ${barsMs.toFixed(0)} ms]` +
      `\n  ${''.padEnd(15)}    with its drawdown stop: ${real.trades.length} trades, 10,000 → ${(Number(real.balance) / 1e6).toFixed(2)} USDT${real.stoppedAt !== null ? `, stopped ${new Date(real.stoppedAt * 1000).toISOString().slice(0, 10)}` : ''}`,
  );
}
for (const key of ['mean_reversion', 'breakout'] as const) {
  const r = timeEngine(config(key, btc, true), btcBars);
  console.log(
    `  ${key.padEnd(15)} on BTCUSDT  ${btcBars.length.toLocaleString('en').padStart(8)} bars: ${Math.min(...r.ms).toFixed(0)} / ${median(r.ms).toFixed(0)} / ${Math.max(...r.ms).toFixed(0)} ms, ${r.trades} trades (the rule off its own market: timing only)`,
  );
}

// The pandas peer on the same BTCUSDT bars.
const dir = mkdtempSync(join(tmpdir(), 'swx-bench-smart-'));
try {
  writeFileSync(join(dir, 't.f64'), Buffer.from(btcBars.t.buffer, btcBars.t.byteOffset, btcBars.length * 8));
  writeFileSync(
    join(dir, 'bid.f64'),
    Buffer.from(btcBars.bid.buffer, btcBars.bid.byteOffset, btcBars.length * 8),
  );
  writeFileSync(
    join(dir, 'ask.f64'),
    Buffer.from(btcBars.ask.buffer, btcBars.ask.byteOffset, btcBars.length * 8),
  );
  const script = `
import sys, time, numpy as np, pandas as pd
d = sys.argv[1]; runs = int(sys.argv[2]); scale = 10 ** ${btc.decimals}
t = np.fromfile(d + '/t.f64'); bid = np.fromfile(d + '/bid.f64'); ask = np.fromfile(d + '/ask.f64')
times = []
for _ in range(runs):
    s = time.perf_counter()
    mid = pd.Series((bid + ask) / 2 / scale, index=pd.to_datetime(t, unit='s'))
    closes = mid[(t % 900) == 0]
    fast = closes.ewm(span=20, adjust=False).mean(); slow = closes.ewm(span=50, adjust=False).mean()
    side = np.sign(fast - slow).iloc[50:]
    position = side.reindex(mid.index, method='ffill').fillna(0).shift(1).fillna(0)
    returns = mid.pct_change().fillna(0) * position
    changes = position.diff().abs().fillna(0)
    equity = (1 + returns - changes * 0.001).cumprod()
    trades = int((changes > 0).sum())
    times.append((time.perf_counter() - s) * 1000)
print(f"{min(times):.0f} {sorted(times)[len(times)//2]:.0f} {max(times):.0f} {trades} {equity.iloc[-1] * 10000:.2f} {pd.__version__}")
`;
  writeFileSync(join(dir, 'ma.py'), script);
  // Debian's interpreter, whose python3-pandas is installed (a python3 earlier on PATH may lack it).
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  if (spawnSync(python, ['-c', 'import pandas']).status !== 0) {
    // The peer is measured in the same run or not at all: as root, Debian's package is installed.
    if (process.getuid?.() === 0)
      spawnSync('apt-get', ['install', '-y', '-qq', 'python3-pandas'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    if (spawnSync(python, ['-c', 'import pandas']).status !== 0)
      throw new Error(
        `the pandas peer needs Debian's python3-pandas for ${python}: apt-get install -y python3-pandas`,
      );
  }
  const out = execFileSync(python, [join(dir, 'ma.py'), dir, String(RUNS)], { encoding: 'utf8' }).trim();
  const [min, med, max, trades, final, version] = out.split(' ');
  console.log(
    `\npandas ${version} (vectorised EMA 20/50 rule, same ${btcBars.length.toLocaleString('en')} BTCUSDT bars, no stops, fee 0.1 % per change): ${min} / ${med} / ${max} ms, ${trades} position changes, 10,000 → ${final}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
