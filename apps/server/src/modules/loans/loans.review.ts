import {
  ASSET_SCALES,
  Code,
  formatMinor,
  type LoanApplicationListItem,
  loanApplicationReviewCalls,
  loanProofReviewCalls,
} from '@swx/contract';
import { computeCreditScore } from '../kyc/kyc.credit.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import { decideHold, defineReview, fourEyesOnAmount, type ReviewNotice } from '../review/review.define.ts';
import { addDays } from './loans.figures.ts';
import type { RepaymentRow } from './loans.repayments.repository.ts';
import type { LoanRow } from './loans.repository.ts';
import type { LoansService } from './loans.service.ts';

const BOOK = 'live' as const;

const applicationItem = (l: LoanRow): LoanApplicationListItem => {
  const scale = ASSET_SCALES[l.asset];
  return {
    id: l.id,
    userId: l.userId,
    customer: l.customer,
    productName: l.productName,
    asset: l.asset,
    amount: formatMinor(l.amount, scale),
    termDays: l.termDays,
    totalPayable: formatMinor(l.amount + l.totalInterest, scale),
    apr: l.apr,
    createdAt: new Date(l.createdAt).toISOString(),
  };
};

/** An application as staff read it: the loan, the customer's identity state and score, the pool. */
async function applicationDetails(
  loans: LoansService,
  ledger: LedgerService,
  kyc: Pick<KycService, 'stateOf'>,
  id: number,
) {
  const l = await loans.loanRow(id);
  if (!l) return null;
  const [kycState, facts] = await Promise.all([kyc.stateOf(l.userId), loans.creditFacts(l.userId)]);
  const pool = await ledger.account(await loans.poolAccount(l.asset));
  return {
    ...applicationItem(l),
    loan: loans.wireLoan(l),
    kycState,
    creditScore: computeCreditScore({ kycState, loans: facts }).score,
    signature: l.signatureUpload,
    agreementSha256: l.agreementSha256,
    poolAvailable: formatMinor(pool ? pool.balance - pool.held : 0n, ASSET_SCALES[l.asset]),
  };
}

/**
 * Loan applications on the staff review queue: admin, finance and compliance read them (with the
 * signed agreement and the drawn signature), admin and finance decide, two of them above
 * `fourEyesAbove.loan.<asset>`. The amount was reserved on the lending pool (a hold) when the
 * customer applied: approval posts that hold to the customer's wallet (the payout), rejection
 * voids it. The customer's debt is booked right after the payout (`LoansService.book`).
 */
export function loanApplicationReview(
  loans: LoansService,
  ledger: LedgerService,
  kyc: Pick<KycService, 'stateOf'>,
  params: Pick<ParamsService, 'get'>,
) {
  return defineReview({
    kind: 'loan_application',
    calls: loanApplicationReviewCalls,
    decidedCode: Code.WRONG_COLLECTION_STATUS,
    list: async ({ after, limit }) => (await loans.pendingApplications(after, limit)).map(applicationItem),
    get: (id) => applicationDetails(loans, ledger, kyc, id),
    facts: (item) => ({
      userId: item.userId,
      state:
        item.loan.state === 'pending' ? 'pending' : item.loan.state === 'rejected' ? 'rejected' : 'approved',
    }),
    fourEyes: fourEyesOnAmount(params, 'fourEyesAbove.loan'),
    ledger: async (context, attach) => {
      const l = await loans.loanRow(context.itemId);
      if (!l || l.poolHoldId === null) throw new Error(`loan ${context.itemId} has no pool reservation`);
      return decideHold(ledger, context, attach, l.poolHoldId, async () => ({
        toAccountId: await ledger.walletAccount(BOOK, l.userId, l.asset),
        amount: l.amount,
        kind: 'loan',
        reference: `loan:${l.id}`,
      }));
    },
    record: async (tx, decided) => {
      if (decided.decision === 'rejected')
        return loans.recordRejection(tx, decided.itemId, decided.reason ?? '');
      await loans.recordApproval(tx, decided.itemId, decided.ledger?.entryId ?? null);
    },
    notice: (decided): ReviewNotice => {
      const { amount, asset, totalPayable, termDays } = decided.item;
      return decided.decision === 'approved'
        ? {
            kind: 'loan_approved',
            params: { amount, asset, total: totalPayable, dueDate: addDays(loans.today(), termDays) },
          }
        : { kind: 'loan_rejected', params: { amount, asset, reason: decided.reason ?? '' } };
    },
  });
}

const proofItem = (r: RepaymentRow) => ({
  id: r.id,
  loanId: r.loanId,
  userId: r.userId,
  customer: r.customer,
  asset: r.asset,
  amount: formatMinor(r.amount, ASSET_SCALES[r.asset]),
  txHash: r.txHash ?? '',
  address: r.address ?? '',
  createdAt: new Date(r.createdAt).toISOString(),
});

/**
 * Repayments by transfer on the staff review queue: admin and finance decide, two of them above
 * `fourEyesAbove.loanRepayment.<asset>`. The declared amount was held on external clearing:
 * approval posts it to the customer's wallet, and `applyProofs` repays the loan from there at
 * once (late cost, interest, principal); rejection voids the hold and the loan is unchanged.
 */
export function loanProofReview(
  loans: LoansService,
  ledger: LedgerService,
  params: Pick<ParamsService, 'get'>,
) {
  const proof = async (id: number) => {
    const r = await loans.repaymentRow(id);
    return r?.method === 'proof' ? r : null;
  };
  return defineReview({
    kind: 'loan_repayment_proof',
    calls: loanProofReviewCalls,
    decidedCode: Code.WRONG_COLLECTION_STATUS,
    list: async ({ after, limit }) => (await loans.pendingProofs(after, limit)).map(proofItem),
    get: async (id) => {
      const r = await proof(id);
      if (!r) return null;
      const loan = await loans.loanRow(r.loanId);
      if (!loan) return null;
      return {
        ...proofItem(r),
        proof: r.proofUpload ?? '',
        state: r.state,
        reason: r.reason,
        outstanding: (await loans.wireLoanNow(loan)).outstanding,
      };
    },
    facts: (item) => ({ userId: item.userId, state: item.state }),
    fourEyes: fourEyesOnAmount(params, 'fourEyesAbove.loanRepayment'),
    ledger: async (context, attach) => {
      const r = await proof(context.itemId);
      if (!r || r.holdId === null) throw new Error(`loan repayment proof ${context.itemId} has no hold`);
      return decideHold(ledger, context, attach, r.holdId, async () => ({
        toAccountId: await ledger.walletAccount(BOOK, r.userId, r.asset),
        amount: r.amount,
        kind: 'deposit',
        reference: `loan:${r.loanId}`,
      }));
    },
    record: (tx, decided) => loans.recordProofDecision(tx, decided.itemId, decided.decision, decided.reason),
    notice: (decided): ReviewNotice =>
      decided.decision === 'approved'
        ? { kind: 'loan_proof_approved', params: { amount: decided.item.amount, asset: decided.item.asset } }
        : {
            kind: 'loan_proof_rejected',
            params: { amount: decided.item.amount, asset: decided.item.asset, reason: decided.reason ?? '' },
          },
  });
}
