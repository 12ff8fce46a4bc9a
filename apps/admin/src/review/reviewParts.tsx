import type { Language, ReviewMeta } from '@swx/contract';
import type { ReactNode } from 'react';
import { amountText } from '../amount.ts';
import { fetchUpload } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, textColumn, timeColumn } from '../DataTable.tsx';
import { Code, customerLabel, Facts } from '../Facts.tsx';
import { Money } from '../KitProductList.tsx';
import { Photo } from '../Photo.tsx';
import { fill, formatTime, type Text } from '../text.ts';
import { oneApprovalReason } from './fourEyes.ts';
import type { Reviewed, ReviewKind, ReviewWords } from './kind.ts';

// The parts the review kinds of customers' money share (deposits, withdrawals, fund and loan
// payment proofs, loan applications): queue columns, facts, the proof's image and the kinds of a
// feature with its own texts, each worded by the kind's own texts.

/** What every feature's texts give its kinds: the row link, and who decides (for the others, who may only read). */
type AreaTexts = { open: string; onlyDeciders: string };

/**
 * A review kind of a feature with its own texts (earn, loans): its words and its columns made from
 * its texts in the staff member's language (`texts`); the row link and the readers' note are the
 * texts' `open` and `onlyDeciders`.
 */
export function areaKind<T extends AreaTexts, L extends { id: number }, I extends { id: number }>(
  area: Omit<ReviewKind<L, I>, 'words' | 'columns'> & {
    texts: Record<Language, T>;
    words: (t: T) => Omit<ReviewWords, 'open' | 'onlyDeciders'>;
    columns: (t: T, language: Language) => Column<L>[];
  },
): ReviewKind<L, I> {
  const { texts, words, columns, ...kind } = area;
  return {
    ...kind,
    words: ({ language }) => {
      const t = texts[language];
      return { ...words(t), open: t.open, onlyDeciders: t.onlyDeciders };
    },
    columns: ({ language }) => columns(texts[language], language),
  };
}

type Transfer = { customer: string; amount: string; asset: string };

/** The queue columns of a customer's transfer: who, how much, the transaction, when. */
export const transferColumns = {
  customer: <R extends { customer: string }>(header: string) =>
    textColumn<R>('customer', header, (r) => r.customer),
  /** The amount (exact, as Money shows it, unless `cell` shows it otherwise), sorted by asset then size. */
  amount: <R extends { amount: string; asset: string }>(
    header: string,
    cell: (row: R) => ReactNode = (r) => <Money value={r.amount} asset={r.asset} />,
  ): Column<R> => ({
    key: 'amount',
    header,
    cell,
    sortValue: (r) => `${r.asset} ${r.amount.padStart(40, '0')}`,
  }),
  /** The transaction's hash, cut to its first ten characters. */
  hash: <R extends { txHash: string }>(header: string): Column<R> => ({
    key: 'hash',
    header,
    cell: (r) => <Code value={`${r.txHash.slice(0, 10)}…`} />,
  }),
  submitted: <R extends { createdAt: string }>(header: string, language: Language) =>
    timeColumn<R>('created', header, language, (r) => r.createdAt),
};

/** A transfer in its queue row's link label: the customer, then the amount and its asset. */
export const transferName = (r: Transfer, language: Language) =>
  `${r.customer} ${amountText(language, r.amount, r.asset)}`;

/** The four-eyes fact: the approvals so far of the two needed (`needed`), or why one decides it. */
export function fourEyesFact(
  text: Text,
  label: string,
  needed: string,
  review: ReviewMeta,
  language: Language,
): [string, string] {
  return [
    label,
    review.fourEyes
      ? fill(needed, { count: review.approvals.length })
      : oneApprovalReason(text, review, language),
  ];
}

/** The reason an item was refused or failed, as a fact when there is one. */
export const reasonFacts = (label: string, reason: string | null): [string, ReactNode][] =>
  reason ? [[label, reason]] : [];

/** A customer's upload under review (a transfer's proof, a signature): its image, opened larger on demand. */
export function ProofImage({
  upload,
  label,
  className,
}: {
  upload: string;
  label: string;
  className?: string;
}) {
  return (
    <div className={className ? `photos ${className}` : 'photos'}>
      <Photo key={upload} load={() => fetchUpload(upload)} label={label} />
    </div>
  );
}

/** What a kind calls the facts of a customer's proof of a transfer. */
export type ProofWords = {
  customer: string;
  amount: string;
  txHash: string;
  submitted: string;
  state: string;
  fourEyes: string;
  fourEyesNeeded: string;
  reason: string;
  proof: string;
};

/** What a product area's texts (earn, loans) name alike for the proofs of its customers' payments. */
export type ProductProofTexts = Record<
  | 'customer'
  | 'amountColumn'
  | 'txHash'
  | 'submitted'
  | 'fourEyes'
  | 'fourEyesNeeded'
  | 'reasonGiven'
  | 'proof'
  | 'proofsHeading'
  | 'proofsEmpty'
  | 'proofItem',
  string
> &
  AreaTexts;

/** The proof words of a product area's texts; `state` is its label of a proof's state. */
export const productProofWords = (t: ProductProofTexts, state: string): ProofWords => ({
  customer: t.customer,
  amount: t.amountColumn,
  txHash: t.txHash,
  submitted: t.submitted,
  state,
  fourEyes: t.fourEyes,
  fourEyesNeeded: t.fourEyesNeeded,
  reason: t.reasonGiven,
  proof: t.proof,
});

type Proof = { customer: string; userId: number; txHash: string; createdAt: string; proof: string };

/**
 * A customer's proof of a transfer on its review page: who, what it is for (`about`), how much,
 * the transaction, where it went (`sentTo`), when, its state, four eyes and the reason given; then
 * the kind's own sections (`children`) and the proof's image.
 */
export function ProofDetails({
  item,
  words,
  amount,
  about,
  sentTo,
  state,
  reason,
  testId,
  children,
}: {
  item: Reviewed<Proof>;
  words: ProofWords;
  amount: ReactNode;
  about: [string, ReactNode][];
  sentTo: [string, ReactNode][];
  state: string;
  reason: string | null;
  testId: string;
  children?: ReactNode;
}) {
  const { text, language } = useBackOffice();
  return (
    <>
      <Facts
        testId={testId}
        rows={[
          [words.customer, customerLabel(item)],
          ...about,
          [words.amount, amount],
          [words.txHash, <Code key="h" value={item.txHash} />],
          ...sentTo,
          [words.submitted, formatTime(language, item.createdAt)],
          [words.state, state],
          fourEyesFact(text, words.fourEyes, words.fourEyesNeeded, item.review, language),
          ...reasonFacts(words.reason, reason),
        ]}
      />
      {children}
      <h3>{words.proof}</h3>
      <ProofImage upload={item.proof} label={words.proof} />
    </>
  );
}

/**
 * A product area's queue of payment proofs (earn, loans) on the review base: the words and the
 * columns its texts name alike. The area gives its calls, URL and query roots, its texts, its
 * decisions' words, the column of what a proof pays for, and its details.
 */
export function productProofKind<
  T extends ProductProofTexts,
  L extends {
    id: number;
    customer: string;
    amount: string;
    asset: string;
    txHash: string;
    createdAt: string;
  },
  I extends { id: number },
>(
  area: Omit<ReviewKind<L, I>, 'words' | 'columns' | 'rowName'> & {
    texts: Record<Language, T>;
    decided: (t: T) => { approved: string; rejected: string };
    paysFor: (t: T) => Column<L>;
  },
): ReviewKind<L, I> {
  const { decided, paysFor, ...kind } = area;
  return areaKind<T, L, I>({
    ...kind,
    words: (t) => ({ heading: t.proofsHeading, empty: t.proofsEmpty, item: t.proofItem, ...decided(t) }),
    columns: (t, language) => [
      transferColumns.customer(t.customer),
      paysFor(t),
      transferColumns.amount(t.amountColumn),
      transferColumns.hash(t.txHash),
      transferColumns.submitted(t.submitted, language),
    ],
    rowName: transferName,
  });
}
