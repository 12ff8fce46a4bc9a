import { REVIEW_PAGE, type ReviewMeta } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { callDefinition } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, pagesOf, useQueryState } from '../DataTable.tsx';
import { Screen } from '../KitScreen.tsx';
import { reviewKeys } from '../query.ts';
import { fill } from '../text.ts';
import type { Reviewed, ReviewKind } from './kind.ts';
import { ReviewItemScreen } from './ReviewItem.tsx';
import './review.css';

export type { Reviewed, ReviewKind, ReviewWords } from './kind.ts';

/** Who reviews a row: the claimant by email, or nobody; four eyes' approvals so far. */
function ReviewCell({ review }: { review: ReviewMeta }) {
  const { text, staff } = useBackOffice();
  const claim = review.claim;
  return (
    <span className="review-cell">
      <span>
        {claim ? (claim.staff.id === staff?.id ? text.review.you : claim.staff.email) : text.review.unclaimed}
      </span>
      {review.fourEyes ? (
        <span className="review-tag">
          {fill(text.review.approvalsOf, { count: review.approvals.length })}
        </span>
      ) : null}
    </span>
  );
}

/** A kind's pending items, oldest first, REVIEW_PAGE a page (the next after the last id). */
function useQueue<L extends { id: number }, I extends { id: number }>(kind: ReviewKind<L, I>) {
  const { language } = useBackOffice();
  return useInfiniteQuery({
    queryKey: reviewKeys(kind.root).queue(language),
    queryFn: async ({ pageParam }) =>
      (await callDefinition(kind.calls.list, {
        query: pageParam ? { after: pageParam } : {},
      })) as Reviewed<L>[],
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === REVIEW_PAGE ? String(last.at(-1)?.id ?? '') : undefined),
  });
}

/** The queue of one review kind: pending items, oldest first, 50 a page, with who reviews each. */
export function ReviewQueueScreen<L extends { id: number }, I extends { id: number }>({
  kind,
}: {
  kind: ReviewKind<L, I>;
}) {
  const context = useBackOffice();
  const { text } = context;
  const words = kind.words(context);
  const query = useQueue(kind);
  const state = useQueryState(query);
  const columns: Column<Reviewed<L>>[] = [
    ...kind.columns(context),
    {
      key: 'review',
      header: text.review.reviewer,
      cell: (row) => <ReviewCell review={row.review} />,
      sortValue: (row) => row.review.claim?.staff.email ?? '',
    },
    {
      key: 'open',
      header: words.open,
      hiddenHeader: true,
      cell: (row) => (
        <Link
          to={`${kind.base}/${row.id}`}
          aria-label={`${words.open} ${kind.rowName(row, context.language)}`}
        >
          {words.open}
        </Link>
      ),
    },
  ];
  return (
    <Screen heading={words.heading}>
      <DataTable
        caption={words.heading}
        columns={columns}
        rows={query.data?.pages.flat()}
        rowKey={(row) => row.id}
        {...state}
        {...pagesOf(query)}
        empty={words.empty}
        filterText={(row) => `${kind.filterText(row)} ${row.review.claim?.staff.email ?? ''}`}
        testId={kind.testId}
      />
    </Screen>
  );
}

/**
 * The two screens of a review kind, for its section: the queue (`<base>`) and an item's page
 * (`<base>/:id`).
 */
export function reviewScreens<L extends { id: number }, I extends { id: number }>(kind: ReviewKind<L, I>) {
  return {
    Queue: () => <ReviewQueueScreen kind={kind} />,
    Item: () => <ReviewItemScreen kind={kind} />,
  };
}
