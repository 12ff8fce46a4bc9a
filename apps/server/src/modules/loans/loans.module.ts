import { LOAN_ASSETS } from '@swx/contract';
import { defineModule } from '../../platform/module.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { ProductBase } from '../products/ports.ts';
import { subLedgerReconciliationJob } from '../products/reconciliation.ts';
import { SettlementRunner } from '../products/settlement.ts';
import { loanApplicationReview, loanProofReview } from './loans.review.ts';
import { loansRoutes } from './loans.routes.ts';
import { LoansService, loansDailyJob, loansMinuteJob } from './loans.service.ts';

type Needs = ProductBase & { customers: CustomerDirectory };

/** Loans: live book, paid from a lending pool; the credit score reads the loans' record. */
export const loansModule = defineModule({
  name: 'loans',
  create: (platform, deps: Needs) => {
    const loans = new LoansService({
      db: platform.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      kyc: deps.kyc,
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
    return {
      loans,
      loanApplicationReview: deps.reviews.register(
        loanApplicationReview(loans, deps.ledger, deps.kyc, deps.params),
      ),
      loanProofReview: deps.reviews.register(loanProofReview(loans, deps.ledger, deps.params)),
    };
  },
  routes: (server, s) =>
    loansRoutes(server, s.loans, s.staff, {
      applications: s.loanApplicationReview,
      proofs: s.loanProofReview,
    }),
  // The daily servicing (charges, overdue, reminders) on the runner's clock; every minute, new
  // payouts' debts booked and approved repayment proofs applied; a daily sub-ledger check per asset.
  jobs: ({ loans, ledger, audit, clock }, platform) => [
    loansMinuteJob(loans),
    loansDailyJob(
      loans,
      new SettlementRunner({ db: platform.db, ledger, audit, now: clock.now, logger: platform.logger }),
    ),
    ...LOAN_ASSETS.map((asset) => subLedgerReconciliationJob(loans.subLedger(asset), ledger, audit)),
  ],
});
