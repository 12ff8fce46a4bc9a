import {
  type Book,
  Code,
  formatMinor,
  type SmartPlan,
  type SmartPlanDetail,
  type SmartState,
  type SmartTrade,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { ppmText } from '../products/figures.ts';
import type { PositionRow } from '../products/ports.ts';
import { ratioText } from './smart.backtest.ts';
import { risk } from './smart.products.ts';
import {
  type IncomeRow,
  incomesOf,
  listProducts,
  type PlanRow,
  planById,
  plansOfUser,
  productById,
} from './smart.repository.ts';
import {
  ASSET,
  DAY,
  instrumentOf,
  iso,
  money,
  netOfPosition,
  type SmartContext,
  second,
} from './smart.shared.ts';
import { realisedOfSpan, spanOf } from './smart.yield.ts';

/* What a customer reads of their plans, and the plans' wire forms (the staff monitor's too). */

export async function owned(ctx: SmartContext, book: Book, userId: number, id: number): Promise<PlanRow> {
  const plan = await planById(ctx.db, id);
  // Another customer's plan, or one asked for in the demo book, is indistinguishable from none.
  if (!plan || plan.userId !== userId || book !== plan.book) throw new ApiError(Code.NOT_FOUND);
  return plan;
}

export async function list(
  ctx: SmartContext,
  book: Book,
  userId: number,
  state: SmartState | undefined,
): Promise<SmartPlan[]> {
  if (book !== 'live') return [];
  const plans = await plansOfUser(ctx.db, userId, state ?? null);
  return wirePlans(ctx, plans);
}

export async function plan(
  ctx: SmartContext,
  book: Book,
  userId: number,
  id: number,
): Promise<SmartPlanDetail> {
  return detail(ctx, await owned(ctx, book, userId, id));
}

export async function wirePlan(ctx: SmartContext, plan: PlanRow): Promise<SmartPlan> {
  const [wired] = await wirePlans(ctx, [plan]);
  if (!wired) throw new Error('plan not wired');
  return wired;
}

export async function wirePlans(ctx: SmartContext, plans: readonly PlanRow[]): Promise<SmartPlan[]> {
  const ids = plans.map((p) => p.id);
  const positions = await ctx.trading.planPositions(ids);
  const incomes = await incomesOf(ctx.db, ids);
  const products = new Map((await listProducts(ctx.db)).map((p) => [p.id, p]));
  return plans.map((plan) =>
    wire(
      ctx,
      plan,
      products.get(plan.productId)?.name ?? '',
      positions.filter((p) => p.planId === plan.id),
      incomes.filter((i) => i.planId === plan.id),
    ),
  );
}

function wire(
  ctx: SmartContext,
  plan: PlanRow,
  productName: string,
  positions: readonly PositionRow[],
  incomes: readonly IncomeRow[],
): SmartPlan {
  const now = second(ctx);
  const running = plan.state === 'in_progress';
  const until = running
    ? Math.min(now, plan.endTick)
    : Math.floor(Date.parse(plan.endedAt ?? iso(now)) / 1000);
  const income = incomes.reduce((a, i) => a + i.amountMinor, 0n);
  const closedNet = positions.filter((p) => p.status === 'closed').reduce((a, p) => a + netOfPosition(p), 0n);
  const runningSeconds = Math.max(0, until - plan.startTick);
  return {
    id: plan.id,
    productId: plan.productId,
    productName,
    strategy: plan.strategy,
    instruments: [plan.instrument],
    asset: ASSET,
    amount: money(plan.amountMinor),
    minAmount: money(plan.minMinor),
    maxAmount: money(plan.maxMinor),
    timeframeDays: plan.timeframeDays,
    feeShare: ppmText(plan.feeSharePpm),
    risk: risk(ctx, plan),
    state: plan.state,
    endReason: plan.endReason,
    startTime: iso(plan.startTick),
    endTime: iso(plan.endTick),
    nextIncomeTime: running ? iso(Math.min((Math.floor(now / DAY) + 1) * DAY, plan.endTick)) : null,
    runningDays: Math.floor(runningSeconds / DAY),
    runningSeconds,
    // Days that shared a profit: a day of a loss or of nothing shared none.
    profitShareDays: incomes.filter((i) => i.amountMinor > 0n).length,
    incomeToDate: money(income),
    dailyYield: realisedOf(plan, incomes, positions.length)?.dailyYield ?? null,
    realisedReturn: ratioText(income, plan.amountMinor),
    equity: money(plan.amountMinor + closedNet),
    fee: plan.feeMinor === null ? null : money(plan.feeMinor),
    returned: plan.returnedMinor === null ? null : money(plan.returnedMinor),
    endedAt: plan.endedAt,
    openTrades: positions.filter((p) => p.status === 'open').length,
    tradeCount: positions.length,
  };
}

export async function detail(ctx: SmartContext, plan: PlanRow): Promise<SmartPlanDetail> {
  const positions = await ctx.trading.planPositions([plan.id]);
  const incomes = await incomesOf(ctx.db, [plan.id]);
  const product = await productById(ctx.db, plan.productId);
  return {
    ...wire(ctx, plan, product?.name ?? '', positions, incomes),
    trades: positions.map((p) => trade(ctx, p)),
    incomes: incomes.map((i) => ({ day: i.day, amount: money(i.amountMinor), postedAt: i.postedAt })),
  };
}

/** A plan's realised yield over the time its money was in it, through its last recorded day. */
function realisedOf(plan: PlanRow, incomes: readonly IncomeRow[], trades: number) {
  const span = spanOf(plan, incomes, trades);
  return span && realisedOfSpan(span);
}

/** The lots in the instrument's own units (size × lot size) and their unit, as the trading screen states its lot. */
function unitsOf(ctx: SmartContext, p: PositionRow): { units: string; unit: string | null } {
  const instrument = instrumentOf(ctx, p.code);
  const quote = ctx.trading.terms(instrument.id).quoteCurrency;
  const lotSize = ctx.trading.termsOf(instrument).lotSize;
  const base = p.code.endsWith(quote) && p.code.length > quote.length ? p.code.slice(0, -quote.length) : null;
  return { units: formatMinor(p.centilots * lotSize, 2), unit: base };
}

function trade(ctx: SmartContext, p: PositionRow): SmartTrade {
  const d = p.priceDecimals;
  return {
    ...unitsOf(ctx, p),
    positionId: p.id,
    instrument: p.code,
    side: p.direction,
    openPrice: formatMinor(p.openTicks, d),
    closePrice: p.closeTicks === null ? null : formatMinor(p.closeTicks, d),
    openedAt: iso(p.liveTick),
    closedAt: p.closeTick === null ? null : iso(p.closeTick),
    size: formatMinor(p.centilots, 2),
    leverage: p.leverage,
    stopLoss: formatMinor(p.stopLossTicks, d),
    takeProfit: formatMinor(p.takeProfitTicks, d),
    fee: money(p.feeMinor),
    result: p.profitMinor === null ? null : money(p.profitMinor + p.absorbedMinor),
    closeReason: p.closeReason,
  };
}
