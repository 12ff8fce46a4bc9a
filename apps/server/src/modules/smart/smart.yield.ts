import type { SmartRealisedYield } from '@swx/contract';
import { ppmText } from '../products/figures.ts';
import type { IncomeRow, PlanRow } from './smart.repository.ts';

/*
 * Realised yields, one rule for a plan and for all of a product's plans together: the parts of a
 * figure multiply to its whole, daily yield × days = period return (simple, not compounded), where
 * days is the time the money was in the plan, not a count of calendar days it touched.
 */

const DAY = 86_400n;
const PPM = 1_000_000n;

const iso = (t: number) => new Date(t * 1000).toISOString();
/** num / den as a decimal of 6 places, rounded half away from zero. */
const ratio = (num: bigint, den: bigint): string => {
  const scaled = num * PPM * 2n;
  const half = (scaled < 0n ? scaled - den : scaled + den) / (2n * den);
  return ppmText(half);
};

/** What one plan realised over the time its money was in it (seconds [from, to)). */
export type PlanSpan = {
  amountMinor: bigint;
  /** Income recorded over the span (its closed trades' results less their fees). */
  incomeMinor: bigint;
  from: number;
  to: number;
  /** The trades it made in the span (0: none). */
  trades: number;
};

/** One plan's realised yield; null for a plan whose money was in it no time at all. */
export function realisedOfSpan(span: PlanSpan): SmartRealisedYield | null {
  const seconds = BigInt(Math.max(0, span.to - span.from));
  if (seconds === 0n || span.amountMinor <= 0n) return null;
  return {
    dailyYield: ratio(span.incomeMinor * DAY, span.amountMinor * seconds),
    periodReturn: ratio(span.incomeMinor, span.amountMinor),
    from: iso(span.from),
    to: iso(span.to),
    days: ratio(seconds, DAY),
  };
}

/**
 * All plans together: the return of their money (Σ income / Σ amount) over their mean duration
 * weighted by amount (Σ amount × days / Σ amount), so the daily yield is Σ income / Σ amount × days.
 * Null while no plan has made a trade: plans that only waited are no record of the strategy.
 */
export function realisedTogether(spans: readonly PlanSpan[]): SmartRealisedYield | null {
  const ran = spans.filter((s) => s.to > s.from && s.amountMinor > 0n);
  if (!ran.some((s) => s.trades > 0)) return null;
  let amount = 0n;
  let income = 0n;
  let amountSeconds = 0n;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const s of ran) {
    amount += s.amountMinor;
    income += s.incomeMinor;
    amountSeconds += s.amountMinor * BigInt(s.to - s.from);
    from = Math.min(from, s.from);
    to = Math.max(to, s.to);
  }
  return {
    dailyYield: ratio(income * DAY, amountSeconds),
    periodReturn: ratio(income, amount),
    from: iso(from),
    to: iso(to),
    days: ratio(amountSeconds, amount * DAY),
  };
}

/**
 * The span a plan's recorded income covers: from its start to its end once ended (the last bar it
 * stepped), else to the end of its last recorded day; null before its first recorded day.
 */
export function spanOf(
  plan: Pick<PlanRow, 'amountMinor' | 'startTick' | 'endTick' | 'lastTick' | 'state'>,
  incomes: readonly Pick<IncomeRow, 'day' | 'amountMinor'>[],
  trades: number,
): PlanSpan | null {
  const last = incomes.at(-1);
  if (!last) return null;
  const endOfLastDay = Date.parse(`${last.day}T00:00:00Z`) / 1000 + Number(DAY);
  const to =
    plan.state === 'in_progress'
      ? Math.min(endOfLastDay, plan.endTick)
      : Math.min(plan.lastTick, plan.endTick);
  return {
    amountMinor: plan.amountMinor,
    incomeMinor: incomes.reduce((a, i) => a + i.amountMinor, 0n),
    from: plan.startTick,
    to: Math.max(plan.startTick, to),
    trades,
  };
}
