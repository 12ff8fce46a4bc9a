import {
  type DepositReviewItem as DepositItem,
  type DepositReviewListItem as DepositRow,
  depositReviewCalls,
  type Language,
  type WithdrawalReviewItem as WithdrawalItem,
  type WithdrawalReviewListItem as WithdrawalRow,
  withdrawalReviewCalls,
} from '@swx/contract';
import type { ReactNode } from 'react';
import { amountText } from '../amount.ts';
import { type BackOfficeContext, useBackOffice } from '../context.ts';
import { type Column, Money, textColumn } from '../DataTable.tsx';
import { Code, customerLabel, Facts } from '../Facts.tsx';
import { keys } from '../query.ts';
import { type Reviewed, type ReviewKind, type ReviewWords, reviewScreens } from '../review/ReviewQueue.tsx';
import {
  fourEyesFact,
  ProofDetails,
  type ProofWords,
  reasonFacts,
  transferColumns,
} from '../review/reviewParts.tsx';
import { fill, formatTime } from '../text.ts';
import { useWalletText, WALLET_TEXT, type WalletText } from './wallet.text.ts';

/** An amount of the wallet as the server sends it, with its asset. */
const sent = (amount: string, asset: string) => <Money value={amount} asset={asset} />;

/** The columns both money queues share: customer, network, amount, submitted. */
function moneyColumns<T extends DepositRow | WithdrawalRow>({ language }: BackOfficeContext): Column<T>[] {
  const w = WALLET_TEXT[language];
  return [
    transferColumns.customer<T>(w.customer),
    textColumn<T>('network', w.network, (i) => i.network),
    transferColumns.amount<T>(w.amount, (i) => sent(i.amount, i.asset)),
    transferColumns.submitted<T>(w.submitted, language),
  ];
}

/** What the watched chain says of the proof's transaction; on a network without a node, that it is checked by hand. */
function chainRows(w: WalletText, item: Reviewed<DepositItem>): [string, ReactNode][] {
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
    rows.push([w.chainAmount, <Money key="m" value={chain.amount} asset={item.asset} />]);
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
function depositBlocked({ language }: BackOfficeContext, item: Reviewed<DepositItem>): string | null {
  if (!item.chain || item.chain.verdict === 'matches') return null;
  const w = WALLET_TEXT[language];
  return item.chain.verdict === 'unavailable' ? w.chainUnavailable : w.chainBlocked;
}

/** A reason as staff read it: the platform's own reasons in words, staff's as they wrote them. */
const reasonText = (w: WalletText, reason: string) =>
  Object.hasOwn(w.reasons, reason) ? w.reasons[reason as keyof WalletText['reasons']] : reason;

const proofWords = (w: WalletText): ProofWords => ({
  customer: w.customer,
  amount: w.amount,
  txHash: w.txHash,
  submitted: w.submitted,
  state: w.state,
  fourEyes: w.fourEyes,
  fourEyesNeeded: w.fourEyesNeeded,
  reason: w.reason,
  proof: w.proof,
});

/** A deposit proof on its review page: what the customer declared, beside their own address, what the chain says, and the image. */
function DepositDetails({ item }: { item: Reviewed<DepositItem> }) {
  const w = useWalletText();
  const matches =
    item.customerAddress !== null && item.customerAddress.toLowerCase() === item.address.toLowerCase();
  return (
    <ProofDetails
      item={item}
      words={proofWords(w)}
      testId="deposit-facts"
      about={[[w.network, item.network]]}
      amount={sent(item.amount, item.asset)}
      sentTo={[
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
        ...chainRows(w, item),
      ]}
      state={w.depositStates[item.state]}
      reason={item.reason ? reasonText(w, item.reason) : null}
    />
  );
}

/** A withdrawal on its review page: figures, address (and how long it has been in the book), identity. */
function WithdrawalDetails({ item }: { item: Reviewed<WithdrawalItem> }) {
  const { text, language } = useBackOffice();
  const w = useWalletText();
  return (
    <Facts
      rows={[
        [w.customer, customerLabel(item)],
        [w.network, item.network],
        [w.amount, sent(item.amount, item.asset)],
        [w.fee, sent(item.fee, item.asset)],
        [w.receive, sent(item.receive, item.asset)],
        [w.toAddress, <Code key="t" value={item.address} />],
        [w.addressAdded, formatTime(language, item.addressAddedAt)],
        [w.kyc, item.kycVerified ? w.kycVerified : w.kycNotVerified],
        [w.submitted, formatTime(language, item.createdAt)],
        [w.state, w.withdrawalStates[item.state]],
        fourEyesFact(text, w.fourEyes, w.fourEyesNeeded, item.review, language),
        [w.txHash, <Code key="h" value={item.txHash} />],
        ...reasonFacts(w.reason, item.reason),
      ]}
    />
  );
}

/** A money queue's words: its own by their prefix (`deposit…`, `withdrawal…`); finance decides both. */
const walletWords = (w: WalletText, p: 'deposit' | 'withdrawal'): ReviewWords => ({
  heading: w[`${p}Heading`],
  empty: w[`${p}Empty`],
  item: w[`${p}Item`],
  open: w.open,
  approved: w[`${p}Approved`],
  rejected: w[`${p}Rejected`],
  onlyDeciders: w.onlyFinance,
});

const walletRowName = (i: DepositRow | WithdrawalRow, language: Language) =>
  `${i.customer} ${amountText(language, i.amount, i.asset)}`;

const deposits: ReviewKind<DepositRow, DepositItem> = {
  calls: depositReviewCalls,
  base: '/deposits',
  root: keys.deposits[0],
  words: ({ language }) => walletWords(WALLET_TEXT[language], 'deposit'),
  columns: (context) => [
    ...moneyColumns<DepositRow>(context),
    transferColumns.hash<DepositRow>(WALLET_TEXT[context.language].txHash),
  ],
  rowName: walletRowName,
  filterText: (i) => `${i.customer} ${i.network} ${i.txHash}`,
  Details: DepositDetails,
  approvalBlocked: depositBlocked,
  testId: 'deposit-queue',
};

const withdrawals: ReviewKind<WithdrawalRow, WithdrawalItem> = {
  calls: withdrawalReviewCalls,
  base: '/withdrawals',
  root: keys.withdrawals[0],
  words: ({ language }) => walletWords(WALLET_TEXT[language], 'withdrawal'),
  columns: (context) => [
    ...moneyColumns<WithdrawalRow>(context),
    {
      key: 'receive',
      header: WALLET_TEXT[context.language].receive,
      cell: (i) => sent(i.receive, i.asset),
    },
  ],
  rowName: walletRowName,
  filterText: (i) => `${i.customer} ${i.network}`,
  Details: WithdrawalDetails,
  testId: 'withdrawal-queue',
};

/** Deposit proofs (/admin/deposits): finance checks each against the chain and credits or rejects it. */
export const { Queue: DepositQueue, Item: DepositReviewPage } = reviewScreens(deposits);

/** Withdrawals (/admin/withdrawals): finance approves (two of them above the threshold) or rejects. */
export const { Queue: WithdrawalQueue, Item: WithdrawalReviewPage } = reviewScreens(withdrawals);
