import { addDays, daysBetween, PPM } from '../products/figures.ts';

/**
 * The arithmetic of loans: the one place that computes what the information sheet shows and what
 * the ledger posts (DESIGN §2 rule 3). Amounts are bigint minor units of the loan's asset, rates
 * millionths (ppm), days UTC days `YYYY-MM-DD`. Nothing here reads a clock or a float.
 *
 * A loan is paid out on its payout day D0 (day index 0) and repaid in one instalment at its due
 * date D0 + term. Day index k is the UTC day D0 + k.
 *
 * - **Interest** accrues for the days F < k ≤ T (F interest-free days, T the term) on the principal
 *   owed when day k starts (a repayment on day k counts from day k + 1): after day k the interest
 *   charged is floor(S(k) × rate / 10^6), where S(k) is the sum of the principal owed on each
 *   interest day up to k; day k charges
 *   the difference with day k − 1. With no repayment before the due date the days sum exactly to
 *   floor(P × rate × (T − F) / 10^6), the total interest the sheet states; a part repayment only
 *   lowers S, so the interest charged never exceeds it.
 * - **Late cost** (the only cost of being overdue the agreement states): for the days k > T, the
 *   same cumulative rule at the late daily rate, capped at floor(P × lateCap / 10^6). No interest
 *   accrues after the due date.
 * - **Repayment** is allocated to late cost, then interest, then principal.
 */

export { addDays, daysBetween, PPM };

/** The terms a loan keeps for its life (copied from the product when quoted). */
export type LoanTerms = {
  amount: bigint;
  termDays: number;
  dailyPpm: bigint;
  interestFreeDays: number;
  lateDailyPpm: bigint;
  lateCapPpm: bigint;
};

/** A repayment's principal part and the UTC day it was made (it lowers the principal of that day). */
export type PrincipalPaid = { day: string; principal: bigint };

export const interestDays = (t: Pick<LoanTerms, 'termDays' | 'interestFreeDays'>) =>
  Math.max(0, t.termDays - t.interestFreeDays);

/** The interest when nothing is repaid before the due date. */
export const totalInterest = (t: LoanTerms) => (t.amount * t.dailyPpm * BigInt(interestDays(t))) / PPM;

/** The most the late cost can reach. */
export const lateCap = (t: LoanTerms) => (t.amount * t.lateCapPpm) / PPM;

/**
 * Σ over day indexes a..b (inclusive) of the principal owed at the end of each day, given the
 * principal repaid (by day) since the payout. Piecewise constant, so summed by segment.
 */
export function principalDaySum(
  t: LoanTerms,
  payoutDay: string,
  paid: readonly PrincipalPaid[],
  a: number,
  b: number,
): bigint {
  if (b < a) return 0n;
  // The day index from which each repayment lowers the principal: a day is charged on the
  // principal owed when it starts, so a repayment on day k counts from day k + 1 (and repaying
  // on the due date costs exactly the sheet's total).
  const steps = paid
    .map((p) => ({ k: daysBetween(payoutDay, p.day) + 1, principal: p.principal }))
    .sort((x, y) => x.k - y.k);
  let total = 0n;
  let owed = t.amount;
  let from = a;
  for (const step of steps) {
    if (step.k > b) break;
    if (step.k > from) {
      total += owed * BigInt(step.k - from);
      from = step.k;
    }
    owed -= step.principal;
  }
  total += owed * BigInt(b - from + 1);
  return total;
}

/** Interest charged through day index k (0 before the interest days, frozen after the due date). */
export function interestThrough(
  t: LoanTerms,
  payoutDay: string,
  paid: readonly PrincipalPaid[],
  k: number,
): bigint {
  const last = Math.min(k, t.termDays);
  const first = t.interestFreeDays + 1;
  if (last < first) return 0n;
  return (principalDaySum(t, payoutDay, paid, first, last) * t.dailyPpm) / PPM;
}

/** Late cost charged through day index k (from the day after the due date), never above the cap. */
export function lateThrough(
  t: LoanTerms,
  payoutDay: string,
  paid: readonly PrincipalPaid[],
  k: number,
): bigint {
  if (k <= t.termDays) return 0n;
  const raw = (principalDaySum(t, payoutDay, paid, t.termDays + 1, k) * t.lateDailyPpm) / PPM;
  const cap = lateCap(t);
  return raw < cap ? raw : cap;
}

/** What one day charges: interest (up to the due date) or late cost (after it). */
export function chargeOfDay(
  t: LoanTerms,
  payoutDay: string,
  paid: readonly PrincipalPaid[],
  day: string,
): { interest: bigint; late: bigint } {
  const k = daysBetween(payoutDay, day);
  if (k <= 0) return { interest: 0n, late: 0n };
  return {
    interest: interestThrough(t, payoutDay, paid, k) - interestThrough(t, payoutDay, paid, k - 1),
    late: lateThrough(t, payoutDay, paid, k) - lateThrough(t, payoutDay, paid, k - 1),
  };
}

/** One day's charge, as the daily settlement posts it. */
export type DayCharge = { day: string; interest: bigint; late: bigint };

/**
 * Each day's charge (`chargeOfDay`) from the payout through `through`, days that charge nothing
 * left out: what the settlement posts day by day. Their sums are `interestThrough` and
 * `lateThrough` of the last day.
 */
export function chargesThrough(
  t: LoanTerms,
  payoutDay: string,
  paid: readonly PrincipalPaid[],
  through: string,
): DayCharge[] {
  const days: DayCharge[] = [];
  for (let day = addDays(payoutDay, 1); day <= through; day = addDays(day, 1)) {
    const c = chargeOfDay(t, payoutDay, paid, day);
    if (c.interest !== 0n || c.late !== 0n) days.push({ day, ...c });
  }
  return days;
}

/** What is owed: principal, interest and late cost charged and not yet repaid. */
export type Owed = { principal: bigint; interest: bigint; late: bigint };
export const owedTotal = (o: Owed) => o.principal + o.interest + o.late;

/** A repayment of `amount` split late cost → interest → principal; refuses more than is owed. */
export function allocate(owed: Owed, amount: bigint): Owed {
  if (amount <= 0n) throw new Error('a repayment is positive');
  if (amount > owedTotal(owed)) throw new Error('a repayment above what is owed');
  const late = amount < owed.late ? amount : owed.late;
  const rest = amount - late;
  const interest = rest < owed.interest ? rest : owed.interest;
  return { late, interest, principal: rest - interest };
}

/** The information sheet's dated figures for a payout on `payoutDay`. */
export function scheduleOf(t: LoanTerms, payoutDay: string) {
  const interest = totalInterest(t);
  return {
    interestDays: interestDays(t),
    totalInterest: interest,
    totalPayable: t.amount + interest,
    interestFrom: addDays(payoutDay, Math.min(t.interestFreeDays, t.termDays) + 1),
    dueDate: addDays(payoutDay, t.termDays),
    lateCap: lateCap(t),
  };
}

/**
 * The annual percentage rate of charge of directive 2008/48/EC annex I (kept by 2023/2225 annex
 * III), in tenths of a percent, rounded half up to one decimal as the directive's sheet states it.
 *
 * The directive's equation Σ C_k (1+X)^(−t_k) = Σ D_l (1+X)^(−s_l), with t in years of 365 days,
 * has for this loan one drawdown P at t = 0 and one repayment A = P + interest at s = T / 365:
 * P = A (1+X)^(−T/365), i.e. (1+X)^T = (A/P)^365. Both sides are monotonic in X, so the rounded
 * APR is the largest m ≥ 0 (tenths of a percent) with (1 + (m − ½)/1000)^T ≤ (A/P)^365, which in
 * integers is (2000 + 2m − 1)^T · P^365 ≤ A^365 · 2000^T. That comparison is exact (bigints of a
 * few thousand digits), and m is found by exponential search then bisection: no float anywhere,
 * and the half-up rounding is exact too.
 */
export function aprTenths(amount: bigint, repayment: bigint, termDays: number): bigint {
  if (amount <= 0n || termDays <= 0) throw new Error('an APR needs an amount and a term');
  if (repayment <= amount) return 0n;
  const T = BigInt(termDays);
  const left = amount ** 365n;
  const right = repayment ** 365n;
  // (1 + (m − ½)/1000) ≤ the true rate's factor: the rounded value is at least m.
  const reaches = (m: bigint) => (2000n + 2n * m - 1n) ** T * left <= right * 2000n ** T;
  let high = 1n;
  while (reaches(high)) high *= 2n;
  let low = 0n; // reaches(0) always holds: (1999/2000)^T < 1 ≤ (A/P)^365
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    if (reaches(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/** Tenths of a percent as the sheet writes them: "12.3". */
export const aprText = (tenths: bigint) => `${tenths / 10n}.${tenths % 10n}`;

/** Every figure of a quote, from the terms alone: the sheet, the agreement and the postings use this. */
export function loanFiguresOf(t: LoanTerms, payoutDay: string) {
  const s = scheduleOf(t, payoutDay);
  return { ...s, apr: aprText(aprTenths(t.amount, s.totalPayable, t.termDays)) };
}
