/**
 * The arithmetic of earn investments: the one place that computes what a customer is shown before
 * buying or redeeming and what the ledger posts (DESIGN §2 rule 3: the figures shown are the
 * figures applied). Amounts are bigint minor units; rates are millionths (ppm); days are UTC days
 * as `YYYY-MM-DD`.
 *
 * Interest is actual/365 from 00:00 UTC the day after the purchase: after k days the interest
 * earned is floor(amount × annualRate × k / 365), and day k pays the difference between k and
 * k − 1, so the days of a term sum exactly to its total (never one minor unit more or less).
 */

import { addDays, daysBetween, PPM } from '../products/figures.ts';

/** Static interest earned by the end of the k-th day of interest (k ≥ 0). */
export function interestThrough(amount: bigint, annualRatePpm: bigint, k: number): bigint {
  if (k <= 0) return 0n;
  return (amount * annualRatePpm * BigInt(k)) / (365n * PPM);
}

/** What day k (1-based) of a static investment pays. */
export function interestOfDay(amount: bigint, annualRatePpm: bigint, k: number): bigint {
  return interestThrough(amount, annualRatePpm, k) - interestThrough(amount, annualRatePpm, k - 1);
}

/** A dynamic day's payment: the basket's return on the principal when positive, else nothing. */
export function dynamicPayment(amount: bigint, ratePpm: bigint): bigint {
  return ratePpm > 0n ? (amount * ratePpm) / PPM : 0n;
}

export function penaltyOf(amount: bigint, penaltyPpm: bigint): bigint {
  return (amount * penaltyPpm) / PPM;
}

/** The terms an investment keeps for its life (copied from the product when bought). */
export type Terms = {
  income: 'static' | 'dynamic';
  amount: bigint;
  /** null: flexible. */
  termDays: number | null;
  annualRatePpm: bigint | null;
  penaltyPpm: bigint;
};

/** A purchase's schedule: first and last day of interest, and the interest promised for the term. */
export type Schedule = {
  accrualStart: string;
  /** Last day of interest; null when flexible. */
  endDay: string | null;
  /** Fixed-term static only: the exact interest of the term, reserved at purchase. */
  totalInterest: bigint | null;
};

export function scheduleOf(terms: Terms, purchaseDay: string): Schedule {
  const accrualStart = addDays(purchaseDay, 1);
  const endDay = terms.termDays === null ? null : addDays(accrualStart, terms.termDays - 1);
  const totalInterest =
    terms.income === 'static' && terms.termDays !== null && terms.annualRatePpm !== null
      ? interestThrough(terms.amount, terms.annualRatePpm, terms.termDays)
      : null;
  return { accrualStart, endDay, totalInterest };
}

/** The k of a day within an investment's interest days (1 on accrualStart), or 0 before it. */
export function dayIndex(accrualStart: string, day: string): number {
  return daysBetween(accrualStart, day) + 1;
}

/** What a static investment pays for `day` (0 outside its days). */
export function staticPaymentFor(terms: Terms, accrualStart: string, day: string): bigint {
  if (terms.annualRatePpm === null) return 0n;
  const k = dayIndex(accrualStart, day);
  if (k < 1 || (terms.termDays !== null && k > terms.termDays)) return 0n;
  return interestOfDay(terms.amount, terms.annualRatePpm, k);
}

/**
 * Redeeming on `day` (before the end): interest is owed for the days before it. A fixed-term
 * investment loses the penalty share of principal and the income of those days (spec §9: "deducts
 * a share of principal as liquidated damages, plus total income"); a flexible one loses nothing.
 * `incomeToDate` of a dynamic investment is what it was paid (its days are published, not known
 * ahead); a static one's is computed, so a day already earned but not yet settled counts too.
 * `remaining`: promised interest not yet earned, which goes back to the reserve.
 */
export type Redemption = {
  day: string;
  penalty: bigint;
  incomeToDate: bigint;
  receive: bigint;
  /** What is deducted of the income (at most the principal less the penalty). */
  clawback: bigint;
  remaining: bigint;
};

export function redemptionOn(terms: Terms, schedule: Schedule, day: string, dynamicPaid = 0n): Redemption {
  const earnedDays = Math.max(0, daysBetween(schedule.accrualStart, day));
  const days = terms.termDays === null ? earnedDays : Math.min(earnedDays, terms.termDays);
  const incomeToDate =
    terms.income === 'dynamic'
      ? dynamicPaid
      : terms.annualRatePpm === null
        ? 0n
        : interestThrough(terms.amount, terms.annualRatePpm, days);
  const remaining = schedule.totalInterest === null ? 0n : schedule.totalInterest - incomeToDate;
  if (terms.termDays === null)
    return { day, penalty: 0n, incomeToDate, receive: terms.amount, clawback: 0n, remaining };
  const penalty = penaltyOf(terms.amount, terms.penaltyPpm);
  const clawback = minBig(incomeToDate, terms.amount - penalty);
  return { day, penalty, incomeToDate, receive: terms.amount - penalty - clawback, clawback, remaining };
}

/** Fixed-term static: what redeeming would give on each day from the purchase to the last day of interest. */
export function redemptionTable(terms: Terms, schedule: Schedule, purchaseDay: string): Redemption[] {
  if (terms.termDays === null || schedule.endDay === null || terms.income !== 'static') return [];
  const out: Redemption[] = [];
  for (let d = purchaseDay; d <= schedule.endDay; d = addDays(d, 1))
    out.push(redemptionOn(terms, schedule, d));
  return out;
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
