import { type EarnProofItem, type EarnProofListItem, earnProofReviewCalls } from '@swx/contract';
import { useMemo } from 'react';
import { fetchUpload } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, plain, timeColumn } from '../DataTable.tsx';
import { Code, Facts } from '../Facts.tsx';
import { Photo } from '../Photo.tsx';
import { keys } from '../query.ts';
import {
  type Reviewed,
  ReviewItemScreen,
  type ReviewKind,
  ReviewQueueScreen,
} from '../review/ReviewQueue.tsx';
import { fill, formatTime } from '../text.ts';
import { useEarnText } from './EarnProducts.tsx';
import { EARN_TEXT, type EarnText } from './earn.text.ts';
import './earn.css';
import { oneApprovalReason } from '../review/fourEyes.ts';

/** A fund payment proof on its review page: who paid what for which product, where to, and the image. */
function ProofDetails({ item }: { item: Reviewed<EarnProofItem> }) {
  const { language, text } = useBackOffice();
  const t = useEarnText();
  return (
    <>
      <Facts
        testId="earn-proof-facts"
        rows={[
          [t.customer, `${item.customer} (#${item.userId})`],
          [t.product, item.productName],
          [t.amountColumn, <Amount key="a" value={`${plain(item.amount)} ${item.asset}`} />],
          [t.txHash, <Code key="h" value={item.txHash} />],
          [t.payIn, item.payInAddress ? <Code key="p" value={item.payInAddress} /> : t.noPayIn],
          [t.submitted, formatTime(language, item.createdAt)],
          [t.state, t.states[item.status]],
          [
            t.fourEyes,
            item.review.fourEyes
              ? fill(t.fourEyesNeeded, { count: item.review.approvals.length })
              : oneApprovalReason(text, item.review),
          ],
          ...(item.reason ? ([[t.reasonGiven, item.reason]] as [string, string][]) : []),
        ]}
      />
      <h3>{t.proof}</h3>
      <div className="photos">
        <Photo key={item.proof} load={() => fetchUpload(item.proof)} label={t.proof} />
      </div>
    </>
  );
}

/** Fund payment proofs as a review kind, worded in the earn screens' language. */
function proofKind(t: EarnText): ReviewKind<EarnProofListItem, EarnProofItem> {
  return {
    calls: earnProofReviewCalls,
    base: '/earn/proofs',
    root: keys.earnProofs[0],
    // An approval starts an investment: the products' invested figures and reserves change.
    alsoChanges: [keys.earn],
    words: () => ({
      heading: t.proofsHeading,
      empty: t.proofsEmpty,
      open: t.open,
      approved: t.approved,
      rejected: t.rejected,
      onlyDeciders: t.onlyDeciders,
    }),
    itemHeading: (_text, item) => fill(t.proofItem, { id: item.id }),
    columns: ({ language }) => [
      { key: 'customer', header: t.customer, cell: (i) => i.customer, sortValue: (i) => i.customer },
      { key: 'product', header: t.product, cell: (i) => i.productName, sortValue: (i) => i.productName },
      {
        key: 'amount',
        header: t.amountColumn,
        cell: (i) => <Amount value={`${plain(i.amount)} ${i.asset}`} />,
        sortValue: (i) => `${i.asset} ${i.amount.padStart(40, '0')}`,
      },
      { key: 'hash', header: t.txHash, cell: (i) => <Code value={`${i.txHash.slice(0, 10)}…`} /> },
      timeColumn('created', t.submitted, language, (i) => i.createdAt),
    ],
    rowName: (i) => `${i.customer} ${plain(i.amount)} ${i.asset}`,
    filterText: (i) => `${i.customer} ${i.productName} ${i.txHash}`,
    Details: ProofDetails,
    testId: 'earn-proof-queue',
  };
}

function useProofKind() {
  const { language } = useBackOffice();
  return useMemo(() => proofKind(EARN_TEXT[language]), [language]);
}

/** Fund payment proofs (/admin/earn/proofs): finance checks each transfer and starts or refuses the investment. */
export function EarnProofQueue() {
  return <ReviewQueueScreen kind={useProofKind()} />;
}

/** One fund payment proof (/admin/earn/proofs/:id). */
export function EarnProofPage() {
  return <ReviewItemScreen kind={useProofKind()} />;
}
