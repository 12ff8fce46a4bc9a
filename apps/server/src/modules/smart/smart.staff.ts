import {
  Code,
  MoneyFormatError,
  parseMinor,
  SETTLEMENT_SCALE,
  type SmartPlan,
  type SmartPlanMonitorItem,
  type SmartProduct,
  type SmartState,
  type smartProductBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { SMART as SMART_ACCOUNT } from '../ledger/ledger.service.ts';
import { ppmOf } from '../products/figures.ts';
import type { SubLedger } from '../products/reconciliation.ts';
import { ratioText } from './smart.backtest.ts';
import { wirePlans } from './smart.plans.ts';
import { liveRecord, products, wireProduct } from './smart.products.ts';
import {
  insertProduct,
  type PlanRow,
  type ProductFields,
  plansForMonitor,
  productById,
  runningPlans,
  updateProduct as updateProductRow,
} from './smart.repository.ts';
import { ASSET, instrumentOf, money, netOfPosition, type SmartContext } from './smart.shared.ts';
import { STRATEGIES } from './smart.strategies.ts';

/* Staff's products, the plan monitor, and the smart accounts' sub-ledger. */

function fields(ctx: SmartContext, body: z.infer<typeof smartProductBody>): ProductFields {
  const instrument = body.instruments[0] as string;
  const strategy = STRATEGIES[body.strategy];
  // A product runs its strategy on an instrument the rule is written for (and quoted in USD or USDT).
  if (!strategy.instruments.includes(instrument))
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'instruments', issue: 'not_for_strategy' }]);
  instrumentOf(ctx, instrument);
  const parse = (path: string, text: string) => {
    try {
      return parseMinor(text, SETTLEMENT_SCALE);
    } catch (error) {
      if (error instanceof MoneyFormatError)
        throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'too_many_decimals' }]);
      throw error;
    }
  };
  const minMinor = parse('minAmount', body.minAmount);
  const maxMinor = parse('maxAmount', body.maxAmount);
  const capacityMinor = parse('capacity', body.capacity);
  if (minMinor <= 0n || maxMinor < minMinor)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'maxAmount', issue: 'below_minimum' }]);
  if (capacityMinor < minMinor)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'capacity', issue: 'below_minimum' }]);
  return {
    name: body.name,
    strategy: body.strategy,
    instrument,
    asset: ASSET,
    timeframes: [...new Set(body.timeframes)].sort((a, b) => a - b),
    minMinor,
    maxMinor,
    capacityMinor,
    feeSharePpm: ppmOf(body.feeShare),
    enabled: body.enabled,
  };
}

export async function adminProducts(ctx: SmartContext): Promise<SmartProduct[]> {
  return products(ctx);
}

export async function createProduct(
  ctx: SmartContext,
  actor: string,
  body: z.infer<typeof smartProductBody>,
): Promise<SmartProduct> {
  const f = fields(ctx, body);
  const row = await ctx.db.transaction(async (tx) => {
    const p = await insertProduct(tx, f, new Date(ctx.now()).toISOString());
    await ctx.audit.appendInTx(tx, [
      { actor, action: 'smart.product.created', subject: `smart:${p.id}`, data: body },
    ]);
    return p;
  });
  return wireProduct(ctx, row, null);
}

/** A change applies to new plans only: each plan keeps the terms it was bought at. */
export async function updateProduct(
  ctx: SmartContext,
  actor: string,
  body: z.infer<typeof smartProductBody> & { id: number },
): Promise<SmartProduct> {
  const before = await productById(ctx.db, body.id);
  if (!before) throw new ApiError(Code.NOT_FOUND);
  const f = fields(ctx, body);
  if (f.capacityMinor < before.takenMinor)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'capacity', issue: 'below_taken' }]);
  const row = await ctx.db.transaction(async (tx: Queryable) => {
    const p = await updateProductRow(tx, body.id, f, new Date(ctx.now()).toISOString());
    if (!p) throw new ApiError(Code.NOT_FOUND);
    await ctx.audit.appendInTx(tx, [
      {
        actor,
        action: 'smart.product.updated',
        subject: `smart:${p.id}`,
        data: {
          before: {
            ...before,
            minMinor: String(before.minMinor),
            maxMinor: String(before.maxMinor),
            capacityMinor: String(before.capacityMinor),
            takenMinor: String(before.takenMinor),
            feeSharePpm: String(before.feeSharePpm),
          },
          after: body,
        },
      },
    ]);
    return p;
  });
  return wireProduct(ctx, row, (await liveRecord(ctx, row.id)).realised);
}

/** The plan monitor: plans with owner, equity and drawdown from the highest closed-trade equity. */
export async function monitor(
  ctx: SmartContext,
  query: { state?: SmartState; productId?: number },
): Promise<SmartPlanMonitorItem[]> {
  const plans = await plansForMonitor(ctx.db, {
    state: query.state ?? null,
    productId: query.productId ?? null,
  });
  const wired = await wirePlans(ctx, plans);
  const positions = await ctx.trading.planPositions(plans.map((p) => p.id));
  return plans.map((plan, i) => {
    let equity = plan.amountMinor;
    let high = equity;
    for (const p of positions)
      if (p.planId === plan.id && p.status === 'closed') {
        equity += netOfPosition(p);
        if (equity > high) high = equity;
      }
    return {
      ...(wired[i] as SmartPlan),
      userId: plan.userId,
      customer: plan.customer,
      highWater: money(high),
      drawdown: ratioText(high - equity, high),
    };
  });
}

/** The smart account of each customer equals what their running plans hold: amount + closed results − open margins and fees. */
export function subLedger(ctx: SmartContext): SubLedger {
  return {
    name: 'smart.plans',
    accountKind: SMART_ACCOUNT,
    asset: ASSET,
    expected: async () => {
      const plans: PlanRow[] = [];
      for (let after = 0; ; ) {
        const page = await runningPlans(ctx.db, after, 1000);
        plans.push(...page);
        if (page.length < 1000) break;
        after = page.at(-1)?.id ?? after;
      }
      const positions = await ctx.trading.planPositions(plans.map((p) => p.id));
      return plans.map((plan) => ({
        book: plan.book,
        ownerId: plan.userId,
        amount:
          plan.amountMinor +
          positions
            .filter((p) => p.planId === plan.id)
            .reduce(
              (a, p) => a + (p.status === 'closed' ? netOfPosition(p) : -(p.marginMinor + p.feeMinor)),
              0n,
            ),
      }));
    },
    alertMessage: (count) => `smart accounts differ from their plans for ${count} customer(s)`,
  };
}
