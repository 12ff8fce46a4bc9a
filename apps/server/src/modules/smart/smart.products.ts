import {
  Code,
  type SmartBacktest,
  type SmartLiveRecord,
  type SmartProduct,
  type SmartProductDetail,
  type SmartRealisedYield,
  type SmartRisk,
  type SmartStrategyInfo,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { ppmText } from '../products/figures.ts';
import { backtestReport } from './smart.backtest.ts';
import { barsOf } from './smart.bars.ts';
import { leverageFor } from './smart.engine.ts';
import {
  backtestOf,
  incomesOf,
  listProducts,
  type ProductRow,
  plansOfProduct,
  productById,
  saveBacktest,
} from './smart.repository.ts';
import {
  ASSET,
  DAY,
  dayOf,
  dayStart,
  engineConfig,
  instrumentOf,
  money,
  REFERENCE_AMOUNT,
  type SmartContext,
  second,
} from './smart.shared.ts';
import { STRATEGIES } from './smart.strategies.ts';
import { type PlanSpan, realisedOfSpan, realisedTogether, spanOf } from './smart.yield.ts';

/* The products as customers read them: terms, strategy and risk, the daily backtest, the live record. */

function strategyInfo(ctx: SmartContext, p: Pick<ProductRow, 'strategy' | 'instrument'>): SmartStrategyInfo {
  const s = STRATEGIES[p.strategy];
  return {
    key: s.key,
    docKey: s.docKey,
    instruments: [...s.instruments],
    barMinutes: s.barMinutes,
    parameters: { ...s.parameters },
    risk: risk(ctx, p),
  };
}

export function risk(ctx: SmartContext, p: Pick<ProductRow, 'strategy' | 'instrument'>): SmartRisk {
  const s = STRATEGIES[p.strategy];
  const config = engineConfig(ctx, p.strategy, p.instrument, 0n);
  return {
    stopLoss: ppmText(s.risk.stopLossPpm),
    takeProfit: ppmText(s.risk.takeProfitPpm),
    leverage: leverageFor(s.risk, config.market) ?? 1,
    marginShare: ppmText(s.risk.marginSharePpm),
    drawdownStop: ppmText(s.risk.drawdownStopPpm),
  };
}

/** The instrument's trading costs, as its trading terms state them. */
export function costs(ctx: SmartContext, code: string): { tradingFeeRate: string; spreadRate: string } {
  const instrument = instrumentOf(ctx, code);
  const terms = ctx.trading.terms(instrument.id);
  return { tradingFeeRate: terms.feeRate, spreadRate: terms.spreadRate };
}

export function wireProduct(
  ctx: SmartContext,
  p: ProductRow,
  realised: SmartRealisedYield | null,
): SmartProduct {
  return {
    ...costs(ctx, p.instrument),
    id: p.id,
    name: p.name,
    strategy: strategyInfo(ctx, p),
    asset: ASSET,
    instruments: [p.instrument],
    timeframes: p.timeframes,
    minAmount: money(p.minMinor),
    maxAmount: money(p.maxMinor),
    capacity: money(p.capacityMinor),
    taken: money(p.takenMinor),
    feeShare: ppmText(p.feeSharePpm),
    enabled: p.enabled,
    soldOut: p.takenMinor + p.minMinor > p.capacityMinor,
    realised,
  };
}

export async function products(ctx: SmartContext): Promise<SmartProduct[]> {
  const rows = await listProducts(ctx.db);
  const out: SmartProduct[] = [];
  for (const p of rows) out.push(wireProduct(ctx, p, (await liveRecord(ctx, p.id)).realised));
  return out;
}

export async function product(ctx: SmartContext, id: number): Promise<SmartProductDetail> {
  const p = await productById(ctx.db, id);
  if (!p) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
  const live = await liveRecord(ctx, p.id);
  return { product: wireProduct(ctx, p, live.realised), backtest: await backtest(ctx, p), live };
}

/**
 * The product's backtest over the year before today 00:00 UTC, on the platform's one-minute
 * bars, computed once per product and day (kept in `smart_backtests`, so every node serves the
 * same report).
 */
export async function backtest(ctx: SmartContext, p: ProductRow): Promise<SmartBacktest | null> {
  const today = dayOf(second(ctx));
  const key = `${p.id}:${today}`;
  const running = ctx.backtests.get(key);
  if (running) return running;
  const work = (async () => {
    const cached = await backtestOf(ctx.db, p.id, today);
    if (cached) return cached as SmartBacktest;
    const instrument = instrumentOf(ctx, p.instrument);
    const to = dayStart(today);
    const bars = barsOf(ctx.trading.market.source, instrument, to - 365 * DAY, to);
    let amount = REFERENCE_AMOUNT;
    if (amount < p.minMinor) amount = p.minMinor;
    if (amount > p.maxMinor) amount = p.maxMinor;
    const report = backtestReport(
      p.id,
      engineConfig(ctx, p.strategy, p.instrument, amount),
      [p.instrument],
      bars,
    );
    await saveBacktest(ctx.db, p.id, today, report, new Date(ctx.now()).toISOString());
    return report;
  })();
  ctx.backtests.set(key, work);
  try {
    return await work;
  } finally {
    ctx.backtests.delete(key);
  }
}

/** Computes today's backtest of every enabled product (the daily job). */
export async function refreshBacktests(ctx: SmartContext): Promise<number> {
  let done = 0;
  for (const p of await listProducts(ctx.db))
    if (p.enabled) {
      await backtest(ctx, p);
      done++;
    }
  return done;
}

/**
 * Every plan of a product with its realised yield and period (a plan that made no trade says so),
 * and all of them together: daily yield × days = period return, for each and for the whole.
 */
export async function liveRecord(ctx: SmartContext, productId: number): Promise<SmartLiveRecord> {
  const plans = await plansOfProduct(ctx.db, productId);
  const ids = plans.map((p) => p.id);
  const incomes = await incomesOf(ctx.db, ids);
  const positions = await ctx.trading.planPositions(ids);
  const spans: PlanSpan[] = [];
  const items: SmartLiveRecord['items'] = [];
  for (const plan of plans) {
    const trades = positions.filter((p) => p.planId === plan.id).length;
    const span = spanOf(
      plan,
      incomes.filter((i) => i.planId === plan.id),
      trades,
    );
    const realised = span && realisedOfSpan(span);
    if (!span || !realised) continue;
    spans.push(span);
    items.push({
      planId: plan.id,
      amount: money(plan.amountMinor),
      timeframeDays: plan.timeframeDays,
      state: plan.state,
      trades,
      realised,
    });
  }
  return {
    plans: plans.length,
    running: plans.filter((p) => p.state === 'in_progress').length,
    realised: realisedTogether(spans),
    items,
  };
}
