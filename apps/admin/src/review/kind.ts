import type { Language, ReviewCallSet, ReviewMeta } from '@swx/contract';
import type { ComponentType } from 'react';
import type { BackOfficeContext } from '../context.ts';
import type { Column } from '../DataTable.tsx';

/** An item as the queue answers it: the product's fields and its review. */
export type Reviewed<T> = T & { review: ReviewMeta };

/** The words a review kind brings (from its own texts: the core's or its feature's); the rest is the queue's. */
export type ReviewWords = {
  heading: string;
  empty: string;
  /** The heading of an item's page; `{{id}}` is its id. */
  item: string;
  /** The link of a queue row to its page. */
  open: string;
  approved: string;
  rejected: string;
  /** Shown to staff who may read but not decide. */
  onlyDeciders: string;
};

/**
 * A review kind on screen: its contract calls, its URL and query root, its words, its queue
 * columns and the body of its item page. The queue screen and the item page are the same for
 * every kind (`reviewScreens` makes both); `KycQueue.tsx` is the one to copy, and the parts of a
 * customer's transfer (columns, facts, the proof) are in `reviewParts.tsx`.
 */
export type ReviewKind<L extends { id: number }, I extends { id: number }> = {
  calls: ReviewCallSet;
  /** The queue's URL; an item is at `<base>/<id>` (a deep link that survives a reload). */
  base: string;
  /** The query-key root of the kind's domain (query.ts). */
  root: string;
  /** Other roots a decision changes (e.g. the customers list shows the KYC state). */
  alsoChanges?: readonly (readonly string[])[];
  words: (context: BackOfficeContext) => ReviewWords;
  columns: (context: BackOfficeContext) => Column<L>[];
  /** Names a row in its link's label, e.g. the customer's username. */
  rowName: (row: L, language: Language) => string;
  filterText: (row: L) => string;
  Details: ComponentType<{ item: Reviewed<I> }>;
  /**
   * Why the item cannot be approved as it stands (e.g. the chain does not confirm a deposit): the
   * approve button is disabled with this reason beside it (the server refuses it too); null: it can.
   */
  approvalBlocked?: (context: BackOfficeContext, item: Reviewed<I>) => string | null;
  testId?: string;
};
