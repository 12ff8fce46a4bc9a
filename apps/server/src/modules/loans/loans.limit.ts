import {
  Code,
  CREDIT_SCORE_MAX,
  LOAN_LIMIT_STEP_MAX,
  type LoanLimit,
  type LoanLimitProposal,
  type LoanLimitRule,
  type LoanLimitSettings,
  loanLimitRule,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { computeCreditScore } from '../kyc/kyc.credit.ts';
import {
  type FourEyesSetting,
  ParamProposals,
  type SettingProposal,
  type StaffRefs,
} from '../params/params.proposals.ts';
import { ppmOf, ppmText } from '../products/figures.ts';
import { limitFactsOf } from './loans.limit.repository.ts';
import { creditFactsOf } from './loans.repository.ts';
import type { LoansContext } from './loans.shared.ts';

export type { StaffRefs } from '../params/params.proposals.ts';

/*
 * The customer's limit: a share of each product's maximum by a rule staff set with four eyes (the
 * system parameter `loans.limitRule`, changed through the params' `ParamProposals`). Verified identity opens the base share; each loan repaid on time that ran
 * at least the rule's days adds one bounded step (less one per loan that went overdue), up to the
 * highest share. The customer reads the rule, their facts and the next step.
 */

const STEP_MAX = ppmOf(LOAN_LIMIT_STEP_MAX);

/** The system parameter of the rule: the contract's `loanLimitRule` as JSON (migration 0042 seeds it). */
export const LIMIT_RULE_KEY = 'loans.limitRule';

export type LimitRule = { basePpm: bigint; stepPpm: bigint; maxPpm: bigint; minLoanDays: number };

/** The share a rule gives for these facts (identity verified), and the next step if any. */
export function shareOf(
  rule: LimitRule,
  facts: { counted: number; overdue: number },
): { sharePpm: bigint; next: { sharePpm: bigint; loans: number } | null } {
  const steps = Math.max(0, facts.counted - facts.overdue);
  const capped = (n: number) => {
    const s = rule.basePpm + rule.stepPpm * BigInt(n);
    return s > rule.maxPpm ? rule.maxPpm : s;
  };
  const sharePpm = capped(steps);
  if (rule.stepPpm === 0n || sharePpm >= rule.maxPpm) return { sharePpm, next: null };
  // Loans that went overdue are made up first: one more loan than they outnumber the counted ones.
  const loans = facts.overdue > facts.counted ? facts.overdue - facts.counted + 1 : 1;
  return { sharePpm, next: { sharePpm: capped(steps + 1), loans } };
}

export function wireRule(rule: LimitRule): LoanLimitRule {
  return {
    baseShare: ppmText(rule.basePpm),
    stepShare: ppmText(rule.stepPpm),
    maxShare: ppmText(rule.maxPpm),
    minLoanDays: rule.minLoanDays,
  };
}

/** The customer's limit, the rule that gives it and the next step; identity verified first. */
export async function limit(ctx: LoansContext, userId: number): Promise<LoanLimit & { sharePpm: bigint }> {
  const rule = ruleOf(await ctx.params.get(LIMIT_RULE_KEY));
  const [kycState, credit, facts] = await Promise.all([
    ctx.kyc.stateOf(userId),
    creditFactsOf(ctx.db, userId),
    limitFactsOf(ctx.db, userId, rule.minLoanDays),
  ]);
  const score = computeCreditScore({ kycState, loans: credit });
  const verified = kycState === 'verified';
  const { sharePpm, next } = verified ? shareOf(rule, facts) : { sharePpm: 0n, next: null };
  const applied = new Map(score.rules.map((r) => [r.key, r]));
  return {
    kycState,
    score: score.score,
    maxScore: CREDIT_SCORE_MAX,
    share: ppmText(sharePpm),
    sharePpm,
    rule: wireRule(rule),
    counted: facts.counted,
    overdue: facts.overdue,
    next: next === null ? null : { share: ppmText(next.sharePpm), loans: next.loans },
    steps: (['kycVerified', 'loanRepaidOnTime', 'noLoanOverdue'] as const).map((key) => ({
      key,
      points: applied.get(key)?.points ?? 0,
      done: applied.get(key)?.applied ?? false,
    })),
    openLoanId: credit.openLoanId,
  };
}

// Staff: the rule, changed with four eyes

/** A rule as staff wrote it: a step above the most (a quarter) or a base above the highest is 10026. */
function checked(body: LoanLimitRule): LimitRule {
  const rule = {
    basePpm: ppmOf(body.baseShare),
    stepPpm: ppmOf(body.stepShare),
    maxPpm: ppmOf(body.maxShare),
    minLoanDays: body.minLoanDays,
  };
  if (rule.stepPpm > STEP_MAX)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'stepShare', issue: 'too_big' }]);
  if (rule.basePpm > rule.maxPpm)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'baseShare', issue: 'above_max' }]);
  return rule;
}

/** The rule a stored value states; none, or one the contract refuses, is a fault of the setup. */
function ruleOf(value: string | null): LimitRule {
  const parsed = value === null ? null : loanLimitRule.safeParse(JSON.parse(value));
  if (!parsed?.success) throw new Error(`no valid loan limit rule in ${LIMIT_RULE_KEY}`);
  return checked(parsed.data);
}

/** The rule as a setting changed under four eyes: its JSON, checked and in one form; audited as `loan.limit_rule.*`. */
const LIMIT_RULE: FourEyesSetting = {
  prefix: LIMIT_RULE_KEY,
  audit: 'loan.limit_rule',
  normalise: (_key, value) => {
    const parsed = value === null ? null : loanLimitRule.safeParse(JSON.parse(value));
    if (!parsed?.success) throw new ApiError(Code.INVALID_INPUT);
    return JSON.stringify(wireRule(checked(parsed.data)));
  },
  describe: () => "The rule of customers' loan limits (changed with four eyes)",
  audited: (value) => (value === null ? null : JSON.parse(value)),
};

const proposals = (ctx: LoansContext) =>
  new ParamProposals({ db: ctx.db, audit: ctx.audit, now: ctx.now }, LIMIT_RULE);

const wireProposal = ({ key: _key, value, before: _before, ...p }: SettingProposal): LoanLimitProposal => ({
  ...p,
  rule: wireRule(ruleOf(value)),
});

/** The rule that applies (who proposed and approved it; none for the platform's first), a change waiting, the latest decided. */
export async function limitSettings(ctx: LoansContext, refs: StaffRefs): Promise<LoanLimitSettings> {
  const rule = proposals(ctx);
  const [applied, changes] = await Promise.all([rule.applied(LIMIT_RULE_KEY, refs), rule.list(refs)]);
  if (!applied) throw new Error(`no loan limit rule in ${LIMIT_RULE_KEY}`);
  const pending = changes.pending[0];
  return {
    current: applied.setBy
      ? wireProposal(applied.setBy)
      : {
          id: 0,
          rule: wireRule(ruleOf(applied.value)),
          state: 'approved',
          proposedBy: null,
          proposedAt: applied.updatedAt,
          decidedBy: null,
          decidedAt: null,
        },
    pending: pending ? wireProposal(pending) : null,
    recent: changes.recent.map(wireProposal),
  };
}

/** Proposes a rule; it applies once another staff member approves it (10048 while one waits). */
export async function proposeLimitRule(
  ctx: LoansContext,
  staffId: number,
  body: LoanLimitRule,
  refs: StaffRefs,
): Promise<LoanLimitProposal> {
  return wireProposal(await proposals(ctx).propose({ staffId }, LIMIT_RULE_KEY, JSON.stringify(body), refs));
}

/** Approves (applies from now on; the proposer may not: 10049) or turns down a waiting rule. */
export async function decideLimitRule(
  ctx: LoansContext,
  staffId: number,
  id: number,
  decision: 'approved' | 'rejected',
  refs: StaffRefs,
): Promise<LoanLimitProposal> {
  const rule = proposals(ctx);
  return wireProposal(
    decision === 'approved'
      ? await rule.approve({ staffId }, id, refs)
      : await rule.reject({ staffId }, id, refs),
  );
}
