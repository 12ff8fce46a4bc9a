import { type LoanProofItem, type LoanProofListItem, loanProofReviewCalls } from '@swx/contract';
import { useMemo } from 'react';
import { fetchUpload } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { plain, timeColumn } from '../DataTable.tsx';
import { Code, Facts } from '../Facts.tsx';
import { Money } from '../KitProductList.tsx';
import { Photo } from '../Photo.tsx';
import { keys } from '../query.ts';
import { oneApprovalReason } from '../review/fourEyes.ts';
import {
  type Reviewed,
  ReviewItemScreen,
  type ReviewKind,
  ReviewQueueScreen,
} from '../review/ReviewQueue.tsx';
import { fill, formatTime } from '../text.ts';
import { useLoanText } from './LoanProducts.tsx';
import { LOAN_TEXT, type LoanText } from './loans.text.ts';

/** A repayment by transfer on its review page: who paid what for which loan, where to, what the loan owes, and the image. */
function ProofDetails({ item }: { item: Reviewed<LoanProofItem> }) {
  const { language, text } = useBackOffice();
  const t = useLoanText();
  const asset = item.asset;
  const owed = item.outstanding;
  return (
    <>
      <Facts
        testId="loan-proof-facts"
        rows={[
          [t.customer, `${item.customer} (#${item.userId})`],
          [t.loan, fill(t.loanValue, { id: item.loanId })],
          [t.amountColumn, <Money key="a" value={item.amount} asset={asset} />],
          [t.txHash, <Code key="h" value={item.txHash} />],
          [t.address, <Code key="p" value={item.address} />],
          [t.submitted, formatTime(language, item.createdAt)],
          [t.proofState, t.proofStates[item.state]],
          [
            t.fourEyes,
            item.review.fourEyes
              ? fill(t.fourEyesNeeded, { count: item.review.approvals.length })
              : oneApprovalReason(text, item.review),
          ],
          ...(item.reason ? ([[t.reasonGiven, item.reason]] as [string, string][]) : []),
        ]}
      />
      <section className="kit-section" aria-labelledby="loan-owed-heading">
        <h3 id="loan-owed-heading">{t.owedHeading}</h3>
        <Facts
          testId="loan-proof-owed"
          rows={[
            [t.principal, <Money key="p" value={owed.principal} asset={asset} />],
            [t.interest, <Money key="i" value={owed.interest} asset={asset} />],
            [t.lateCost, <Money key="l" value={owed.lateCost} asset={asset} />],
            [t.total, <Money key="t" value={owed.total} asset={asset} />],
          ]}
        />
      </section>
      <h3>{t.proof}</h3>
      <div className="photos">
        <Photo key={item.proof} load={() => fetchUpload(item.proof)} label={t.proof} />
      </div>
    </>
  );
}

/** Loan repayment proofs as a review kind, worded in the loan screens' language. */
function proofKind(t: LoanText): ReviewKind<LoanProofListItem, LoanProofItem> {
  return {
    calls: loanProofReviewCalls,
    base: '/loans/proofs',
    root: keys.loanProofs[0],
    // An approval repays the loan: the pools, products and the overdue list change.
    alsoChanges: [keys.loans],
    words: () => ({
      heading: t.proofsHeading,
      empty: t.proofsEmpty,
      open: t.open,
      approved: t.proofApproved,
      rejected: t.proofRejected,
      onlyDeciders: t.onlyDeciders,
    }),
    itemHeading: (_text, item) => fill(t.proofItem, { id: item.id }),
    columns: ({ language }) => [
      { key: 'customer', header: t.customer, cell: (i) => i.customer, sortValue: (i) => i.customer },
      {
        key: 'loan',
        header: t.loan,
        cell: (i) => fill(t.loanValue, { id: i.loanId }),
        sortValue: (i) => i.loanId,
      },
      {
        key: 'amount',
        header: t.amountColumn,
        cell: (i) => <Money value={i.amount} asset={i.asset} />,
        sortValue: (i) => `${i.asset} ${i.amount.padStart(40, '0')}`,
      },
      { key: 'hash', header: t.txHash, cell: (i) => <Code value={`${i.txHash.slice(0, 10)}…`} /> },
      timeColumn('created', t.submitted, language, (i) => i.createdAt),
    ],
    rowName: (i) => `${i.customer} ${plain(i.amount)} ${i.asset}`,
    filterText: (i) => `${i.customer} ${i.loanId} ${i.txHash}`,
    Details: ProofDetails,
    testId: 'loan-proof-queue',
  };
}

function useProofKind() {
  const { language } = useBackOffice();
  return useMemo(() => proofKind(LOAN_TEXT[language]), [language]);
}

/** Loan repayment proofs (/admin/loans/proofs): finance checks each transfer and applies or refuses it. */
export function LoanProofQueue() {
  return <ReviewQueueScreen kind={useProofKind()} />;
}

/** One loan repayment proof (/admin/loans/proofs/:id). */
export function LoanProofPage() {
  return <ReviewItemScreen kind={useProofKind()} />;
}
