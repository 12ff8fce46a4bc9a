import { type EarnProofItem, type EarnProofListItem, earnProofReviewCalls } from '@swx/contract';
import { textColumn } from '../DataTable.tsx';
import { Code } from '../Facts.tsx';
import { Money } from '../KitProductList.tsx';
import { keys } from '../query.ts';
import { type Reviewed, reviewScreens } from '../review/ReviewQueue.tsx';
import { ProofDetails, productProofKind, productProofWords } from '../review/reviewParts.tsx';
import { useEarnText } from './EarnProducts.tsx';
import { EARN_TEXT, type EarnText } from './earn.text.ts';
import './earn.css';

/** A fund payment proof on its review page: who paid what for which product, where to, and the image. */
function EarnProofDetails({ item }: { item: Reviewed<EarnProofItem> }) {
  const t = useEarnText();
  return (
    <ProofDetails
      item={item}
      words={productProofWords(t, t.state)}
      testId="earn-proof-facts"
      about={[[t.product, item.productName]]}
      amount={<Money value={item.amount} asset={item.asset} />}
      sentTo={[[t.payIn, item.payInAddress ? <Code key="p" value={item.payInAddress} /> : t.noPayIn]]}
      state={t.states[item.status]}
      reason={item.reason}
    />
  );
}

/**
 * Fund payment proofs (/admin/earn/proofs, one at /admin/earn/proofs/:id): finance checks each
 * transfer and starts or refuses the investment.
 */
export const { Queue: EarnProofQueue, Item: EarnProofPage } = reviewScreens(
  productProofKind<EarnText, EarnProofListItem, EarnProofItem>({
    calls: earnProofReviewCalls,
    base: '/earn/proofs',
    root: keys.earnProofs[0],
    // An approval starts an investment: the products' invested figures and reserves change.
    alsoChanges: [keys.earn],
    texts: EARN_TEXT,
    decided: (t) => ({ approved: t.approved, rejected: t.rejected }),
    paysFor: (t) => textColumn('product', t.product, (i) => i.productName),
    filterText: (i) => `${i.customer} ${i.productName} ${i.txHash}`,
    Details: EarnProofDetails,
    testId: 'earn-proof-queue',
  }),
);
