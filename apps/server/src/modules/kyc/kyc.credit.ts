import { CREDIT_SCORE_MAX, type CreditScore, type KycState } from '@swx/contract';

/**
 * The credit score is computed from rules, never stored or typed in. Each rule has a key (its
 * text is in the locale files, so the screen states the rule), its points and whether it applies.
 * Modules that land later (loans repaid on time, late repayments) add their rules here with the
 * facts they need; the figure stays a sum of listed rules, between 0 and CREDIT_SCORE_MAX.
 */
export type CreditFacts = {
  kycState: KycState;
  /** Loans repaid (or withdrawn) without ever being overdue, and loans that ever went overdue. */
  loans?: LoanCreditFacts;
};
export type LoanCreditFacts = { repaidOnTime: number; everOverdue: number };
/** The loans module's facts of a customer, installed by it (the credit score reads them, KYC does not own them). */
export type LoanFactsSource = (userId: number) => Promise<LoanCreditFacts>;

export const CREDIT_RULES: readonly {
  key: string;
  points: number;
  applies: (facts: CreditFacts) => boolean;
}[] = [
  { key: 'base', points: 60, applies: () => true },
  { key: 'kycVerified', points: 20, applies: (facts) => facts.kycState === 'verified' },
  // Loans: one repaid by its due date, and then a record without any overdue loan.
  { key: 'loanRepaidOnTime', points: 10, applies: (facts) => (facts.loans?.repaidOnTime ?? 0) > 0 },
  {
    key: 'noLoanOverdue',
    points: 10,
    applies: (facts) => (facts.loans?.repaidOnTime ?? 0) > 0 && (facts.loans?.everOverdue ?? 0) === 0,
  },
];

export function computeCreditScore(facts: CreditFacts): CreditScore {
  const rules = CREDIT_RULES.map((rule) => ({
    key: rule.key,
    points: rule.points,
    applied: rule.applies(facts),
  }));
  const sum = rules.reduce((total, rule) => total + (rule.applied ? rule.points : 0), 0);
  return { score: Math.min(CREDIT_SCORE_MAX, Math.max(0, sum)), max: CREDIT_SCORE_MAX, rules };
}
