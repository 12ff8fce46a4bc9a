import {
  Code,
  CREDIT_SCORE_MAX,
  LOAN_LIMIT_STEP_MAX,
  type LoanLimit,
  type LoanLimitProposal,
  type LoanLimitRule,
  type LoanLimitSettings,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { computeCreditScore } from '../kyc/kyc.credit.ts';
import { ppmOf, ppmText } from '../products/figures.ts';
import {
  currentRule,
  decideProposal,
  insertProposal,
  type LimitRule,
  type LimitRuleRow,
  limitFactsOf,
  proposalById,
  ruleChanges,
} from './loans.limit.repository.ts';
import { creditFactsOf } from './loans.repository.ts';
import { type LoansContext, nowIso } from './loans.shared.ts';

/*
 * The customer's limit: a share of each product's maximum by a rule staff set with four eyes
 * (`loan_limit_rules`). Verified identity opens the base share; each loan repaid on time that ran
 * at least the rule's days adds one bounded step (less one per loan that went overdue), up to the
 * highest share. The customer reads the rule, their facts and the next step.
 */

const STEP_MAX = ppmOf(LOAN_LIMIT_STEP_MAX);
const RECENT = 20;

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
  const rule = await currentRule(ctx.db);
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

export type StaffRefs = (ids: number[]) => Promise<Map<number, { id: number; email: string }>>;

/** The rule that applies, a change waiting, the latest decided. */
export async function limitSettings(ctx: LoansContext, refs: StaffRefs): Promise<LoanLimitSettings> {
  const [current, changes] = await Promise.all([currentRule(ctx.db), ruleChanges(ctx.db, RECENT)]);
  const rows = [current, ...(changes.pending ? [changes.pending] : []), ...changes.recent];
  const [wiredCurrent, ...rest] = await wireProposals(rows, refs);
  if (!wiredCurrent) throw new Error('no loan limit rule');
  return {
    current: wiredCurrent,
    pending: changes.pending ? (rest.shift() ?? null) : null,
    recent: rest,
  };
}

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

/** Proposes a rule; it applies once another staff member approves it (10048 while one waits). */
export async function proposeLimitRule(
  ctx: LoansContext,
  staffId: number,
  body: LoanLimitRule,
  refs: StaffRefs,
): Promise<LoanLimitProposal> {
  const rule = checked(body);
  const row = await ctx.db.transaction(async (tx) => {
    const before = await currentRule(tx);
    const proposed = await insertProposal(tx, rule, staffId, nowIso(ctx));
    if (!proposed) throw new ApiError(Code.CHANGE_AWAITS_SECOND_ADMIN);
    await ctx.audit.appendInTx(tx, [
      {
        actor: `staff:${staffId}`,
        action: 'loan.limit_rule.proposed',
        subject: `loan-limit-rule:${proposed.id}`,
        data: { before: wireRule(before), rule: body },
      },
    ]);
    return proposed;
  });
  return one(row, refs);
}

/** Approves (applies from now on; the proposer may not: 10049) or turns down a waiting rule. */
export async function decideLimitRule(
  ctx: LoansContext,
  staffId: number,
  id: number,
  decision: 'approved' | 'rejected',
  refs: StaffRefs,
): Promise<LoanLimitProposal> {
  const row = await ctx.db.transaction(async (tx) => {
    const proposal = await proposalById(tx, id);
    if (proposal?.state !== 'pending') throw new ApiError(Code.NOT_FOUND);
    if (decision === 'approved' && proposal.proposedBy === staffId) throw new ApiError(Code.OWN_PROPOSAL);
    const decided = await decideProposal(tx, id, decision, staffId, nowIso(ctx));
    if (!decided) throw new ApiError(Code.NOT_FOUND);
    await ctx.audit.appendInTx(tx, [
      {
        actor: `staff:${staffId}`,
        action: `loan.limit_rule.${decision}`,
        subject: `loan-limit-rule:${id}`,
        data: { proposedBy: `staff:${decided.proposedBy}`, rule: wireRule(decided) },
      },
    ]);
    return decided;
  });
  return one(row, refs);
}

async function one(row: LimitRuleRow, refs: StaffRefs): Promise<LoanLimitProposal> {
  const [out] = await wireProposals([row], refs);
  if (!out) throw new Error('no limit rule');
  return out;
}

async function wireProposals(rows: LimitRuleRow[], refs: StaffRefs): Promise<LoanLimitProposal[]> {
  const ids = rows.flatMap((r) => [r.proposedBy, r.decidedBy]).filter((id): id is number => id !== null);
  const named = await refs([...new Set(ids)]);
  const ref = (id: number | null) => (id === null ? null : (named.get(id) ?? { id, email: `staff:${id}` }));
  return rows.map((r) => ({
    id: r.id,
    rule: wireRule(r),
    state: r.state,
    proposedBy: ref(r.proposedBy),
    proposedAt: r.proposedAt,
    decidedBy: ref(r.decidedBy),
    decidedAt: r.decidedAt,
  }));
}
