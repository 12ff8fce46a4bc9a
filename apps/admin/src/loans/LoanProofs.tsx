import { type LoanProofItem, type LoanProofListItem, loanProofReviewCalls } from '@swx/contract';
import { Code, FactsSection } from '../Facts.tsx';
import { Money } from '../KitProductList.tsx';
import { keys } from '../query.ts';
import { type Reviewed, reviewScreens } from '../review/ReviewQueue.tsx';
import { ProofDetails, productProofKind, productProofWords } from '../review/reviewParts.tsx';
import { fill } from '../text.ts';
import { useLoanText } from './LoanProducts.tsx';
import { LOAN_TEXT, type LoanText } from './loans.text.ts';

/** A repayment by transfer on its review page: who paid what for which loan, where to, what the loan owes, and the image. */
function LoanProofDetails({ item }: { item: Reviewed<LoanProofItem> }) {
  const t = useLoanText();
  const asset = item.asset;
  const owed = item.outstanding;
  return (
    <ProofDetails
      item={item}
      words={productProofWords(t, t.proofState)}
      testId="loan-proof-facts"
      about={[[t.loan, fill(t.loanValue, { id: item.loanId })]]}
      amount={<Money value={item.amount} asset={asset} />}
      sentTo={[[t.address, <Code key="p" value={item.address} />]]}
      state={t.proofStates[item.state]}
      reason={item.reason}
    >
      <FactsSection
        id="loan-owed-heading"
        heading={t.owedHeading}
        testId="loan-proof-owed"
        rows={[
          [t.principal, <Money key="p" value={owed.principal} asset={asset} />],
          [t.interest, <Money key="i" value={owed.interest} asset={asset} />],
          [t.lateCost, <Money key="l" value={owed.lateCost} asset={asset} />],
          [t.total, <Money key="t" value={owed.total} asset={asset} />],
        ]}
      />
    </ProofDetails>
  );
}

/**
 * Loan repayment proofs (/admin/loans/proofs, one at /admin/loans/proofs/:id): finance checks each
 * transfer and applies or refuses it.
 */
export const { Queue: LoanProofQueue, Item: LoanProofPage } = reviewScreens(
  productProofKind<LoanText, LoanProofListItem, LoanProofItem>({
    calls: loanProofReviewCalls,
    base: '/loans/proofs',
    root: keys.loanProofs[0],
    // An approval repays the loan: the pools, products and the overdue list change.
    alsoChanges: [keys.loans],
    texts: LOAN_TEXT,
    decided: (t) => ({ approved: t.proofApproved, rejected: t.proofRejected }),
    paysFor: (t) => ({
      key: 'loan',
      header: t.loan,
      cell: (i) => fill(t.loanValue, { id: i.loanId }),
      sortValue: (i) => i.loanId,
    }),
    filterText: (i) => `${i.customer} ${i.loanId} ${i.txHash}`,
    Details: LoanProofDetails,
    testId: 'loan-proof-queue',
  }),
);
