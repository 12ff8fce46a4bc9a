import { LOAN_ASSETS } from '@swx/contract';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { loansMinuteJob } from './loans.jobs.ts';
import { loanApplicationReview, loanProofReview } from './loans.review.ts';
import { loansRoutes } from './loans.routes.ts';
import { LoansService } from './loans.service.ts';
import { LOAN_QUOTE } from './loans.shared.ts';

/** Loans: live book, paid from a lending pool; the credit score reads the loans' record. */
export const loansModule = defineProduct({
  name: 'loans',
  create: (platform, deps: ProductNeeds<{ customers: CustomerDirectory; operator: OperatorService }>) => {
    const loans = new LoansService({
      db: platform.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      kyc: deps.kyc,
      operator: deps.operator,
      uploads: deps.uploads,
      storage: platform.storage,
      params: deps.params,
      quoteKeys: platform.keys.purpose('quotes'),
      logger: platform.logger,
      mail: { mailer: platform.mailer, customers: deps.customers },
      platformAddress: platform.chain?.signer?.address ?? null,
      now: deps.clock.now,
    });
    deps.kyc.useLoanFacts((userId) => loans.creditFacts(userId));
    return { loans };
  },
  quotes: [LOAN_QUOTE],
  notices: [
    'loan_approved',
    'loan_rejected',
    'loan_due_in_three_days',
    'loan_due_tomorrow',
    'loan_overdue',
    'loan_repaid',
    'loan_proof_approved',
    'loan_proof_rejected',
  ],
  // A refusal, and a loan gone overdue (a late cost accrues), open the notice dialog; the rest wait in the list.
  mustReadNotices: ['loan_rejected', 'loan_proof_rejected', 'loan_overdue'],
  reviews: ({ loans, ledger, kyc, params }) => ({
    loanApplicationReview: loanApplicationReview(loans, ledger, kyc, params),
    loanProofReview: loanProofReview(loans, ledger, params),
  }),
  routes: (server, s) =>
    loansRoutes(server, s.loans, s.staff, {
      applications: s.loanApplicationReview,
      proofs: s.loanProofReview,
    }),
  // Each day: new loans booked, every asset's days charged, overdue marked, reminders sent.
  settle: ({ loans }, runner) => loans.runDaily(runner),
  // Every minute, new payouts' debts booked and approved repayment proofs applied.
  jobs: ({ loans }) => [loansMinuteJob(loans)],
  // Each asset's loan accounts against what its loans owe.
  subLedgers: ({ loans }) => LOAN_ASSETS.map((asset) => loans.subLedger(asset)),
});
