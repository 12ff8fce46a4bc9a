import type { SmartState } from '@swx/contract';
import { SMART as SMART_ACCOUNT } from '../ledger/ledger.service.ts';
import type { PositionRow } from '../products/ports.ts';
import { addDays } from '../products/settlement.ts';
import {
  incomesOf,
  insertIncome,
  type PlanRow,
  planById,
  plansActiveOn,
  productById,
} from './smart.repository.ts';
import {
  ASSET,
  dayOf,
  dayStart,
  exclusive,
  money,
  netOfPosition,
  notify,
  PPM,
  type SmartContext,
  second,
} from './smart.shared.ts';

/* A plan's end (principal ± result, less the fee share), and its days' realised income. */

/**
 * Ends a plan whose positions are all closed: the income of its days not yet recorded (through
 * the end's day), then ONE entry: smart account −(amount + result), wallet +(amount + result −
 * fee), fees +fee (the fee share of a positive result only). The attachment ends the plan and
 * gives its room back.
 */
export async function end(
  ctx: SmartContext,
  plan: PlanRow,
  reason: 'expired' | 'stopped' | 'drawdown',
  at: number,
): Promise<void> {
  const positions = await ctx.trading.planPositions([plan.id]);
  if (positions.some((p) => p.status === 'open'))
    throw new Error(`plan ${plan.id}: positions still open at its end`);
  await postIncomes(ctx, plan, dayOf(Math.max(at - 1, plan.startTick)), positions);
  const result = positions.reduce((a, p) => a + netOfPosition(p), 0n);
  const fee = result > 0n ? (result * plan.feeSharePpm) / PPM : 0n;
  const total = plan.amountMinor + result;
  const returned = total - fee;
  const state: SmartState = reason === 'expired' ? (result > 0n ? 'profit_shared' : 'expired') : 'stopped';
  const book = plan.book;
  const postings = [
    { accountId: await ctx.ledger.accountId(book, plan.userId, ASSET, SMART_ACCOUNT), amount: -total },
    { accountId: await ctx.ledger.walletAccount(book, plan.userId, ASSET), amount: returned },
    ...(fee > 0n ? [{ accountId: await ctx.ledger.systemAccount(book, ASSET, 'fees'), amount: fee }] : []),
  ].filter((p) => p.amount !== 0n);
  const entry = await ctx.ledger.transfer({
    book,
    kind: 'smart_end',
    idempotencyKey: `smart-end:${plan.id}`,
    actor: reason === 'stopped' ? `customer:${plan.userId}` : 'system:smart',
    reference: `smart:${plan.id}`,
    reason,
    postings,
    attach: ctx.attachments.ends.with({
      id: plan.id,
      state,
      endReason: reason,
      feeMinor: fee,
      returnedMinor: returned,
      lastTick: at,
      endedAt: new Date(ctx.now()).toISOString(),
    }),
  });
  ctx.engines.delete(plan.id);
  if (entry.replayed) return;
  const product = await productById(ctx.db, plan.productId);
  await notify(ctx, plan, reason === 'drawdown' ? 'smart_drawdown_stop' : 'smart_ended', {
    product: product?.name ?? '',
    // Exact amounts: the notices module words them by the one display rule (`formatDisplay`).
    amount: money(plan.amountMinor),
    result: money(result),
    fee: money(fee),
    returned: money(returned),
  });
}

/** Records each day of the plan through `lastDay` not yet recorded: the trades closed that day, less their fees. */
async function postIncomes(
  ctx: SmartContext,
  plan: PlanRow,
  lastDay: string,
  known?: readonly PositionRow[],
): Promise<void> {
  const positions = known ?? (await ctx.trading.planPositions([plan.id]));
  const recorded = new Set((await incomesOf(ctx.db, [plan.id])).map((i) => i.day));
  const product = await productById(ctx.db, plan.productId);
  for (let day = dayOf(plan.startTick); day <= lastDay; day = addDays(day, 1)) {
    if (recorded.has(day)) continue;
    // A close belongs to the day its bar ends in: the bar of 00:00:00 ends the day before.
    const closed = positions.filter(
      (p) => p.status === 'closed' && p.closeTick !== null && dayOf(p.closeTick - 1) === day,
    );
    const amount = closed.reduce((a, p) => a + netOfPosition(p), 0n);
    if (
      !(await insertIncome(ctx.db, {
        planId: plan.id,
        day,
        amountMinor: amount,
        trades: closed.length,
        postedAt: new Date(ctx.now()).toISOString(),
      }))
    )
      continue;
    if (closed.length > 0)
      await notify(ctx, plan, 'smart_income', {
        product: product?.name ?? '',
        day,
        amount: money(amount),
        trades: String(closed.length),
      });
  }
}

/** The daily income: each running plan's complete days not yet recorded (idempotent: a day is recorded once). */
export async function postDailyIncome(ctx: SmartContext): Promise<number> {
  const today = dayOf(second(ctx));
  const yesterday = addDays(today, -1);
  let posted = 0;
  for (const active of await plansActiveOn(ctx.db, dayStart(yesterday), dayStart(today))) {
    if (active.state !== 'in_progress') continue;
    await exclusive(ctx, active.id, async () => {
      const plan = await planById(ctx.db, active.id);
      if (plan?.state !== 'in_progress') return;
      // Only days the live runner has stepped through to their end: a later run records the rest.
      const complete = addDays(dayOf(plan.lastTick), -1);
      await postIncomes(ctx, plan, complete < yesterday ? complete : yesterday);
    });
    posted++;
  }
  return posted;
}
