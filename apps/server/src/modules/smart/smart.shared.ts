import {
  Code,
  formatMinor,
  LANGUAGES,
  type Language,
  SETTLEMENT_SCALE,
  type SmartBacktest,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { EntryAttachment, LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { NoticeKind, NoticesService } from '../notices/notices.service.ts';
import type { PositionDesk, PositionRow } from '../products/ports.ts';
import type { Quotes } from '../products/quotes.ts';
import { MINUTE } from './smart.bars.ts';
import type { EngineConfig, SmartEngine } from './smart.engine.ts';
import type { SMART } from './smart.quote.ts';
import {
  claimPlan,
  type NewPlan,
  type PlanEnd,
  type PlanRow,
  type ProductRow,
  releasePlan,
} from './smart.repository.ts';
import { STRATEGIES } from './smart.strategies.ts';

/*
 * What the smart use cases share (products, buying, plans, the live runner, the end, staff): the
 * figures' units, the parts they work with, and the few steps more than one of them takes (the
 * instrument and engine of a product, a plan's lease, its notices).
 */

export const DAY = 86_400;
export const PPM = 1_000_000n;
export const ASSET = 'USDT';
/** The backtest's reference amount when the product's range allows it: 10,000 USDT. */
export const REFERENCE_AMOUNT = 10_000n * 10n ** BigInt(SETTLEMENT_SCALE);
export const money = (minor: bigint) => formatMinor(minor, SETTLEMENT_SCALE);
export const iso = (t: number) => new Date(t * 1000).toISOString();
export const dayOf = (t: number) => iso(t).slice(0, 10);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
export const minuteOf = (t: number) => Math.floor(t / MINUTE) * MINUTE;

/** What a closed position left in its plan: its realised result (profit, plus any loss absorbed by the house) less its fee. */
export const netOfPosition = (p: PositionRow) => (p.profitMinor ?? 0n) + p.absorbedMinor - p.feeMinor;

export const requestIdOf = (planId: number, t: number) => `smart-${planId}-${t}`;

/** The records the smart module writes with its ledger entries (`smart.attachments.ts`). */
export type SmartAttachments = {
  /** `smart_subscribe` entries: the plan and its room in the product. */
  readonly subscribe: EntryAttachment<NewPlan, number>;
  /** `smart_end` entries: the plan ended, its room given back. */
  readonly ends: EntryAttachment<PlanEnd, never>;
};

/** The parts every use case works with; `SmartService` builds it once. */
export type SmartContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly trading: PositionDesk;
  readonly audit: AuditService;
  readonly notices: NoticesService | undefined;
  readonly logger: Logger | undefined;
  /** Epoch milliseconds (an injected clock in tests). */
  readonly now: () => number;
  readonly quotes: Quotes<typeof SMART.figures>;
  readonly attachments: SmartAttachments;
  /** Each running plan's engine, stepped through `through` (rebuilt from the bars when missing or behind). */
  readonly engines: Map<number, { engine: SmartEngine; through: number }>;
  /** One advance of a plan at a time in this process (the runner and a stop). */
  readonly busy: Map<number, Promise<unknown>>;
  readonly backtests: Map<string, Promise<SmartBacktest | null>>;
  /** Names this service as a plan's lease holder. */
  readonly owner: string;
};

export function second(ctx: SmartContext): number {
  return Math.floor(ctx.now() / 1000);
}

// Products

export function instrumentOf(ctx: SmartContext, code: string): Instrument {
  const instrument = ctx.trading.market.instrument(code);
  if (!instrument) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
  return instrument;
}

export function engineConfig(
  ctx: SmartContext,
  strategy: ProductRow['strategy'],
  instrumentCode: string,
  amount: bigint,
): EngineConfig {
  const instrument = instrumentOf(ctx, instrumentCode);
  const terms = ctx.trading.termsOf(instrument);
  return {
    strategy: STRATEGIES[strategy],
    market: {
      decimals: instrument.decimals,
      lotSize: terms.lotSize,
      minCentilots: terms.minCentilots,
      maxCentilots: terms.maxCentilots,
      leverages: terms.leverages,
      feePpm: terms.feePpm,
    },
    amount,
  };
}

// Plans

/**
 * Runs `work` as the plan's only stepper: in this process one after another, across nodes under
 * the plan's lease (`smart_plans.lease_*`, 5 minutes, renewed by each claim). A lease held
 * elsewhere is waited for a few seconds, then the call answers 10031 (the runner skips the plan
 * until its next run).
 */
export async function exclusive<T>(
  ctx: SmartContext,
  planId: number,
  work: () => Promise<T>,
  wait = true,
): Promise<T> {
  const before = ctx.busy.get(planId) ?? Promise.resolve();
  const leased = async () => {
    for (let attempt = 0; ; attempt++) {
      const t = second(ctx);
      if (await claimPlan(ctx.db, planId, ctx.owner, t, t + 300)) break;
      if (!wait || attempt >= 20) throw new ApiError(Code.SERVICE_UNAVAILABLE);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    try {
      return await work();
    } finally {
      await releasePlan(ctx.db, planId, ctx.owner);
    }
  };
  const next = before.catch(() => undefined).then(leased);
  ctx.busy.set(planId, next);
  try {
    return await next;
  } finally {
    if (ctx.busy.get(planId) === next) ctx.busy.delete(planId);
  }
}

export function language(plan: PlanRow): Language {
  return (LANGUAGES as readonly string[]).includes(plan.language) ? (plan.language as Language) : 'en';
}

export async function notify(
  ctx: SmartContext,
  plan: PlanRow,
  kind: NoticeKind,
  params: Record<string, string>,
): Promise<void> {
  if (!ctx.notices) return;
  try {
    await ctx.notices.notify(plan.userId, language(plan), kind, params);
  } catch (error) {
    ctx.logger?.warn({ err: error, plan: plan.id }, 'smart: notice failed');
  }
}
