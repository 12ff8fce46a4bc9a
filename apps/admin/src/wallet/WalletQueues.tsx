import {
  type DepositReviewItem as DepositItem,
  type DepositReviewListItem as DepositRow,
  depositReviewCalls,
  type WithdrawalReviewItem as WithdrawalItem,
  type WithdrawalReviewListItem as WithdrawalRow,
  withdrawalReviewCalls,
} from '@swx/contract';
import type { ReactNode } from 'react';
import { fetchUpload } from '../api.ts';
import { type BackOfficeContext, useBackOffice } from '../context.ts';
import { Amount, type Column, timeColumn } from '../DataTable.tsx';
import { Code, Facts } from '../Facts.tsx';
import { Photo } from '../Photo.tsx';
import { keys } from '../query.ts';
import { oneApprovalReason } from '../review/fourEyes.ts';
import {
  type Reviewed,
  ReviewItemScreen,
  type ReviewKind,
  ReviewQueueScreen,
} from '../review/ReviewQueue.tsx';
import { fill, formatTime, type Text } from '../text.ts';

/** The columns both money queues share: customer, network, amount, submitted. */
function moneyColumns<T extends DepositRow | WithdrawalRow>({
  text,
  language,
}: BackOfficeContext): Column<T>[] {
  const w = text.wallet;
  return [
    { key: 'customer', header: w.customer, cell: (i) => i.customer, sortValue: (i) => i.customer },
    { key: 'network', header: w.network, cell: (i) => i.network, sortValue: (i) => i.network },
    {
      key: 'amount',
      header: w.amount,
      cell: (i) => <Amount value={`${i.amount} ${i.asset}`} />,
      sortValue: (i) => `${i.asset} ${i.amount.padStart(40, '0')}`,
    },
    timeColumn('created', w.submitted, language, (i) => i.createdAt),
  ];
}

/** What the watched chain says of the proof's transaction; on a network without a node, that it is checked by hand. */
function chainRows(text: Text, item: Reviewed<DepositItem>): [string, ReactNode][] {
  const w = text.wallet;
  const chain = item.chain;
  if (!chain) return [[w.chain, w.chainManual]];
  const found = chain.verdict === 'matches';
  const rows: [string, ReactNode][] = [
    [
      w.chain,
      <strong key="v" className={found ? undefined : 'overdue'} data-verdict={chain.verdict}>
        {w.chainVerdicts[chain.verdict]}
      </strong>,
    ],
  ];
  if (chain.amount !== null)
    rows.push([w.chainAmount, <Amount key="m" value={`${chain.amount} ${item.asset}`} />]);
  if (chain.blockNumber !== null)
    rows.push(
      [w.chainBlock, <Code key="b" value={chain.blockNumber} />],
      [
        w.chainConfirmations,
        fill(w.chainConfirmationsValue, {
          count: chain.confirmations,
          credit: chain.creditConfirmations,
          unlock: chain.unlockConfirmations,
        }),
      ],
    );
  return rows;
}

/** Why a deposit proof cannot be approved: the watched chain does not confirm it (the server refuses it too). */
function depositBlocked(text: Text, item: Reviewed<DepositItem>): string | null {
  if (!item.chain || item.chain.verdict === 'matches') return null;
  return item.chain.verdict === 'unavailable' ? text.wallet.chainUnavailable : text.wallet.chainBlocked;
}

/** A reason as staff read it: the platform's own reasons in words, staff's as they wrote them. */
const reasonText = (text: Text, reason: string) =>
  Object.hasOwn(text.wallet.reasons, reason)
    ? text.wallet.reasons[reason as keyof Text['wallet']['reasons']]
    : reason;

/** A deposit proof on its review page: what the customer declared, beside their own address, what the chain says, and the image. */
function DepositDetails({ item }: { item: Reviewed<DepositItem> }) {
  const { text, language } = useBackOffice();
  const w = text.wallet;
  const matches =
    item.customerAddress !== null && item.customerAddress.toLowerCase() === item.address.toLowerCase();
  return (
    <>
      <Facts
        rows={[
          [w.customer, `${item.customer} (#${item.userId})`],
          [w.network, item.network],
          [w.amount, <Amount key="a" value={`${item.amount} ${item.asset}`} />],
          [w.txHash, <Code key="h" value={item.txHash} />],
          [w.lastSix, <Code key="l" value={item.lastSix} />],
          [w.sentTo, <Code key="s" value={item.address} />],
          [
            w.customerAddress,
            <span key="c">
              <Code value={item.customerAddress} />{' '}
              <strong className={matches ? undefined : 'overdue'}>
                {matches ? w.addressMatches : w.addressDiffers}
              </strong>
            </span>,
          ],
          ...chainRows(text, item),
          [w.submitted, formatTime(language, item.createdAt)],
          [w.state, w.depositStates[item.state]],
          [
            w.fourEyes,
            item.review.fourEyes
              ? fill(w.fourEyesNeeded, { count: item.review.approvals.length })
              : oneApprovalReason(text, item.review),
          ],
          ...(item.reason ? ([[w.reason, reasonText(text, item.reason)]] as [string, string][]) : []),
        ]}
        testId="deposit-facts"
      />
      <h3>{w.proof}</h3>
      <div className="photos">
        <Photo key={item.proof} load={() => fetchUpload(item.proof)} label={w.proof} />
      </div>
    </>
  );
}

/** A withdrawal on its review page: figures, address (and how long it has been in the book), identity. */
function WithdrawalDetails({ item }: { item: Reviewed<WithdrawalItem> }) {
  const { text, language } = useBackOffice();
  const w = text.wallet;
  return (
    <Facts
      rows={[
        [w.customer, `${item.customer} (#${item.userId})`],
        [w.network, item.network],
        [w.amount, <Amount key="a" value={`${item.amount} ${item.asset}`} />],
        [w.fee, <Amount key="f" value={`${item.fee} ${item.asset}`} />],
        [w.receive, <Amount key="r" value={`${item.receive} ${item.asset}`} />],
        [w.toAddress, <Code key="t" value={item.address} />],
        [w.addressAdded, formatTime(language, item.addressAddedAt)],
        [w.kyc, item.kycVerified ? w.kycVerified : w.kycNotVerified],
        [w.submitted, formatTime(language, item.createdAt)],
        [w.state, w.withdrawalStates[item.state]],
        [
          w.fourEyes,
          item.review.fourEyes
            ? fill(w.fourEyesNeeded, { count: item.review.approvals.length })
            : oneApprovalReason(text, item.review),
        ],
        [w.txHash, <Code key="h" value={item.txHash} />],
        ...(item.reason ? ([[w.reason, item.reason]] as [string, string][]) : []),
      ]}
    />
  );
}

const deposits: ReviewKind<DepositRow, DepositItem> = {
  calls: depositReviewCalls,
  base: '/deposits',
  root: keys.deposits[0],
  words: (text) => ({
    heading: text.wallet.depositHeading,
    empty: text.wallet.depositEmpty,
    open: text.wallet.open,
    approved: text.wallet.depositApproved,
    rejected: text.wallet.depositRejected,
    onlyDeciders: text.wallet.onlyFinance,
  }),
  itemHeading: (text, item) => fill(text.wallet.depositItem, { id: item.id }),
  columns: (context) => [
    ...moneyColumns<DepositRow>(context),
    {
      key: 'hash',
      header: context.text.wallet.txHash,
      cell: (i) => <Code value={`${i.txHash.slice(0, 10)}…`} />,
    },
  ],
  rowName: (i) => `${i.customer} ${i.amount} ${i.asset}`,
  filterText: (i) => `${i.customer} ${i.network} ${i.txHash}`,
  Details: DepositDetails,
  approvalBlocked: depositBlocked,
  testId: 'deposit-queue',
};

const withdrawals: ReviewKind<WithdrawalRow, WithdrawalItem> = {
  calls: withdrawalReviewCalls,
  base: '/withdrawals',
  root: keys.withdrawals[0],
  words: (text) => ({
    heading: text.wallet.withdrawalHeading,
    empty: text.wallet.withdrawalEmpty,
    open: text.wallet.open,
    approved: text.wallet.withdrawalApproved,
    rejected: text.wallet.withdrawalRejected,
    onlyDeciders: text.wallet.onlyFinance,
  }),
  itemHeading: (text, item) => fill(text.wallet.withdrawalItem, { id: item.id }),
  columns: (context) => [
    ...moneyColumns<WithdrawalRow>(context),
    {
      key: 'receive',
      header: context.text.wallet.receive,
      cell: (i) => <Amount value={`${i.receive} ${i.asset}`} />,
    },
  ],
  rowName: (i) => `${i.customer} ${i.amount} ${i.asset}`,
  filterText: (i) => `${i.customer} ${i.network}`,
  Details: WithdrawalDetails,
  testId: 'withdrawal-queue',
};

/** Deposit proofs (/admin/deposits): finance checks each against the chain and credits or rejects it. */
export function DepositQueue() {
  return <ReviewQueueScreen kind={deposits} />;
}
export function DepositReviewPage() {
  return <ReviewItemScreen kind={deposits} />;
}

/** Withdrawals (/admin/withdrawals): finance approves (two of them above the threshold) or rejects. */
export function WithdrawalQueue() {
  return <ReviewQueueScreen kind={withdrawals} />;
}
export function WithdrawalReviewPage() {
  return <ReviewItemScreen kind={withdrawals} />;
}
