import { type Book, Code, type SmartPlanDetail } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { barAt, barsOf, MINUTE } from './smart.bars.ts';
import { end } from './smart.end.ts';
import { type EngineAction, type EngineTrade, SmartEngine } from './smart.engine.ts';
import { detail, owned } from './smart.plans.ts';
import { advancePlan, type PlanRow, planById, runningPlans } from './smart.repository.ts';
import {
  engineConfig,
  exclusive,
  instrumentOf,
  language,
  minuteOf,
  requestIdOf,
  type SmartContext,
  second,
} from './smart.shared.ts';

/* The live runner: each running plan's engine stepped minute by minute, its actions traded; the customer's stop. */

/** Stops the customer's plan now: it is first brought up to the last complete minute, then closed there. */
export async function stop(
  ctx: SmartContext,
  book: Book,
  userId: number,
  planId: number,
): Promise<SmartPlanDetail> {
  if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
  const plan = await owned(ctx, book, userId, planId);
  if (plan.state !== 'in_progress') throw new ApiError(Code.NOT_FOUND);
  await exclusive(ctx, plan.id, async () => {
    const fresh = await planById(ctx.db, plan.id);
    if (fresh?.state !== 'in_progress') return;
    const engine = await advance(ctx, fresh, Math.min(minuteOf(second(ctx)), fresh.endTick));
    const current = await planById(ctx.db, plan.id);
    if (current?.state !== 'in_progress' || !engine) return;
    const open = engine.open;
    await execute(ctx, current, engine, engine.closeAll('manual'), open);
    await end(ctx, current, 'stopped', engine.lastT ?? current.lastTick);
  });
  return detail(ctx, (await planById(ctx.db, plan.id)) as PlanRow);
}

/** The live runner: every running plan stepped through the minutes completed since its last run. */
export async function runLive(ctx: SmartContext): Promise<number> {
  let stepped = 0;
  for (let after = 0; ; ) {
    const page = await runningPlans(ctx.db, after, 200);
    for (const plan of page) {
      try {
        await exclusive(ctx, plan.id, () => runPlan(ctx, plan.id), false);
        stepped++;
      } catch (error) {
        // Another node (or a stop) is stepping this plan now: it is this run's work done there.
        if (error instanceof ApiError && error.code === Code.SERVICE_UNAVAILABLE) continue;
        // One plan's failure (a price source gone stale) must not stop the others; it resumes next run.
        ctx.logger?.error({ err: error, plan: plan.id }, 'smart: plan run failed');
      }
    }
    if (page.length < 200) break;
    after = page.at(-1)?.id ?? after;
  }
  return stepped;
}

async function runPlan(ctx: SmartContext, planId: number): Promise<void> {
  const plan = await planById(ctx.db, planId);
  if (plan?.state !== 'in_progress') return;
  const upTo = Math.min(minuteOf(second(ctx)), plan.endTick);
  const engine = await advance(ctx, plan, upTo);
  if (!engine) return;
  const current = (await planById(ctx.db, planId)) as PlanRow;
  if (current.state !== 'in_progress') return;
  if (engine.stoppedAt !== null) await end(ctx, current, 'drawdown', engine.stoppedAt);
  else if (upTo >= plan.endTick) {
    const open = engine.open;
    await execute(ctx, current, engine, engine.closeAll('expiry'), open);
    await end(ctx, current, 'expired', plan.endTick);
  }
}

/**
 * Steps the plan's engine through the bars after its last run up to `upTo`, executing each
 * action through trading at its bar's second and recording progress. The engine is rebuilt from
 * the plan's bars when this process has none at the plan's progress (a restart, another node).
 */
async function advance(ctx: SmartContext, plan: PlanRow, upTo: number): Promise<SmartEngine | null> {
  const instrument = instrumentOf(ctx, plan.instrument);
  const source = ctx.trading.market.source;
  let cached = ctx.engines.get(plan.id);
  if (!cached || cached.through !== plan.lastTick) {
    const engine = new SmartEngine(engineConfig(ctx, plan.strategy, plan.instrument, plan.amountMinor));
    const bars = barsOf(source, instrument, plan.startTick, plan.lastTick);
    for (let i = 0; i < bars.length; i++)
      engine.step(bars.t[i] as number, BigInt(bars.bid[i] as number), BigInt(bars.ask[i] as number));
    cached = { engine, through: plan.lastTick };
    ctx.engines.set(plan.id, cached);
  }
  const { engine } = cached;
  let through = plan.lastTick;
  try {
    for (let t = plan.lastTick + MINUTE; t <= upTo && engine.stoppedAt === null; t += MINUTE) {
      const bar = barAt(source, instrument, t);
      if (bar) {
        const before = engine.open;
        const actions = engine.step(t, bar.bid, bar.ask);
        if (actions.length > 0) {
          await execute(ctx, plan, engine, actions, before);
          await advancePlan(ctx.db, plan.id, t);
        }
      }
      through = t;
      cached.through = t;
    }
  } catch (error) {
    // The engine may have stepped past what was executed: the next run rebuilds it from the bars.
    ctx.engines.delete(plan.id);
    throw error;
  }
  if (through > plan.lastTick) await advancePlan(ctx.db, plan.id, through);
  return engine;
}

/** Runs the engine's actions through trading: opens under `smart-<plan>-<t>`, closes under the position's close key. */
async function execute(
  ctx: SmartContext,
  plan: PlanRow,
  engine: SmartEngine,
  actions: readonly EngineAction[],
  openBefore: EngineTrade | null,
): Promise<void> {
  const instrument = instrumentOf(ctx, plan.instrument);
  for (const action of actions) {
    if (action.kind === 'open') {
      await ctx.trading.openForPlan(
        { planId: plan.id, userId: plan.userId, language: language(plan) },
        {
          marketId: instrument.id,
          t: action.t,
          direction: action.direction,
          centilots: action.centilots,
          leverage: action.leverage,
          stopLossTicks: action.stopLossTicks,
          takeProfitTicks: action.takeProfitTicks,
          marginMinor: action.marginMinor,
          feeMinor: action.feeMinor,
        },
        requestIdOf(plan.id, action.t),
      );
      continue;
    }
    const trade = openBefore ?? engine.trades.at(-1);
    if (!trade) throw new Error(`plan ${plan.id}: a close without a trade`);
    const [row] = (await ctx.trading.planPositions([plan.id])).filter(
      (p) => p.requestId === requestIdOf(plan.id, trade.t),
    );
    if (!row) throw new Error(`plan ${plan.id}: the position of ${trade.t} is missing`);
    if (row.status === 'open') await ctx.trading.settle(row, action.reason, action.t, action.closeTicks);
  }
}
