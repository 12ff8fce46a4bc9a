import { REVIEW_PAGE, type ReviewCallSet, type ReviewMeta } from '@swx/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { allowed, callDefinition, failureMessage, StaffApiError } from '../api.ts';
import { type BackOfficeContext, useBackOffice } from '../context.ts';
import { type Column, DataTable } from '../DataTable.tsx';
import { Alert, Field, Pending, SubmitRow } from '../Field.tsx';
import { reviewKeys } from '../query.ts';
import { fill, formatTime, type Text } from '../text.ts';
import './review.css';

/** An item as the queue answers it: the product's fields and its review. */
export type Reviewed<T> = T & { review: ReviewMeta };

/** The words a review kind brings (from its own locale section); the rest is the queue's. */
export type ReviewWords = {
  heading: string;
  empty: string;
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
 * every kind; `KycQueue.tsx` is the one to copy.
 */
export type ReviewKind<L extends { id: number }, I extends { id: number }> = {
  calls: ReviewCallSet;
  /** The queue's URL; an item is at `<base>/<id>` (a deep link that survives a reload). */
  base: string;
  /** The query-key root of the kind's domain (query.ts). */
  root: string;
  /** Other roots a decision changes (e.g. the customers list shows the KYC state). */
  alsoChanges?: readonly (readonly string[])[];
  words: (text: Text) => ReviewWords;
  itemHeading: (text: Text, item: I) => string;
  columns: (context: BackOfficeContext) => Column<L>[];
  /** Names a row in its link's label, e.g. the customer's username. */
  rowName: (row: L) => string;
  filterText: (row: L) => string;
  Details: ComponentType<{ item: Reviewed<I> }>;
  /**
   * Why the item cannot be approved as it stands (e.g. the chain does not confirm a deposit): the
   * approve button is disabled with this reason beside it (the server refuses it too); null: it can.
   */
  approvalBlocked?: (text: Text, item: Reviewed<I>) => string | null;
  testId?: string;
};

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

/** The queue of one review kind: pending items, oldest first, 50 a page, with who reviews each. */
export function ReviewQueueScreen<L extends { id: number }, I extends { id: number }>({
  kind,
}: {
  kind: ReviewKind<L, I>;
}) {
  const context = useBackOffice();
  const { text, language } = context;
  const words = kind.words(text);
  const headingId = useId();
  const keys = reviewKeys(kind.root);
  const query = useInfiniteQuery({
    queryKey: keys.queue(language),
    queryFn: async ({ pageParam }) =>
      (await callDefinition(kind.calls.list, {
        query: pageParam ? { after: pageParam } : {},
      })) as Reviewed<L>[],
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === REVIEW_PAGE ? String(last.at(-1)?.id ?? '') : undefined),
  });
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
        <Link to={`${kind.base}/${row.id}`} aria-label={`${words.open} ${kind.rowName(row)}`}>
          {words.open}
        </Link>
      ),
    },
  ];
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {words.heading}
      </h2>
      <DataTable
        caption={words.heading}
        columns={columns}
        rows={query.data?.pages.flat()}
        rowKey={(row) => row.id}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={words.empty}
        filterText={(row) => `${kind.filterText(row)} ${row.review.claim?.staff.email ?? ''}`}
        hasMore={query.hasNextPage}
        loadingMore={query.isFetchingNextPage}
        onMore={() => void query.fetchNextPage()}
        testId={kind.testId}
      />
    </section>
  );
}

/** The review's state on an item page: state, claim (by name, until when), four eyes, decision. */
function ReviewStatus({ review }: { review: ReviewMeta }) {
  const { text, language, staff } = useBackOffice();
  const claim = review.claim;
  const rows: [string, string][] = [[text.review.state, text.review.states[review.state]]];
  if (review.state === 'pending')
    rows.push([
      text.review.reviewer,
      claim
        ? fill(claim.staff.id === staff?.id ? text.review.yoursUntil : text.review.heldBy, {
            who: claim.staff.email,
            until: formatTime(language, claim.until),
          })
        : text.review.unclaimed,
    ]);
  if (review.fourEyes)
    rows.push([text.review.fourEyes, fill(text.review.approvalsOf, { count: review.approvals.length })]);
  for (const approval of review.approvals)
    rows.push([
      text.review.approval,
      fill(text.review.approvedBy, { who: approval.staff.email, when: formatTime(language, approval.at) }),
    ]);
  if (review.decidedBy && review.decidedAt)
    rows.push([
      text.review.decision,
      fill(text.review.decidedBy, {
        who: review.decidedBy.email,
        when: formatTime(language, review.decidedAt),
      }),
    ]);
  return (
    <dl className="facts review-status" data-testid="review-status">
      {rows.map(([label, value]) => (
        <div key={label + value}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

type Act = 'claim' | 'release' | 'approve' | 'reject';

/** One item (`<base>/:id`): its review, the kind's details, and claim / release / approve / reject. */
export function ReviewItemScreen<L extends { id: number }, I extends { id: number }>({
  kind,
}: {
  kind: ReviewKind<L, I>;
}) {
  const { text, language, staff } = useBackOffice();
  const words = kind.words(text);
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const client = useQueryClient();
  const keys = reviewKeys(kind.root);
  const query = useQuery({
    queryKey: keys.item(language, id),
    queryFn: async () => (await callDefinition(kind.calls.get, { params: { id } })) as Reviewed<I>,
    enabled: valid,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = query.data !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  const [done, setDone] = useState('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const action = useMutation({
    mutationFn: async (act: Act) =>
      (await callDefinition(kind.calls[act], {
        params: { id },
        ...(act === 'reject' ? { body: { reason: reason.trim() } } : {}),
      })) as Reviewed<I>,
    onSuccess: async (next, act) => {
      // Everything of the kind (and what a decision changes) is stale; this item is as answered.
      for (const root of [keys.root, ...(kind.alsoChanges ?? [])])
        await client.invalidateQueries({ queryKey: root, refetchType: 'none' });
      client.setQueryData(keys.item(language, id), next);
      const until = next.review.claim ? formatTime(language, next.review.claim.until) : '';
      setDone(
        act === 'claim'
          ? fill(text.review.claimed, { until })
          : act === 'release'
            ? text.review.released
            : act === 'reject'
              ? words.rejected
              : next.review.state === 'pending'
                ? text.review.firstApproved
                : words.approved,
      );
    },
    // Refused (someone else holds it, the claim ran out, it was decided): show it as it is now.
    onError: (error) => {
      if (error instanceof StaffApiError && error.code > 0) void query.refetch();
    },
  });
  const back = (
    <Link className="back" to={kind.base}>
      {text.review.backToQueue}
    </Link>
  );
  const item = query.data;
  if (!valid || !item)
    return (
      <section className="panel">
        {back}
        <Pending
          failure={
            !valid ? text.notFound : query.isError ? failureMessage(query.error, text.error.generic) : ''
          }
          loading={text.loading}
        />
      </section>
    );
  const failure = action.isError ? failureMessage(action.error, text.error.generic) : '';
  const busy = action.isPending;
  const act = (next: Act) => {
    if (next === 'reject' && reason.trim().length < 3) {
      setReasonError(text.error.reasonShort);
      return;
    }
    setReasonError(undefined);
    setDone('');
    action.mutate(next);
  };
  const { review } = item;
  const mine = review.claim !== null && review.claim.staff.id === staff?.id;
  const heldByOther = review.claim !== null && !mine;
  const approvedByMe = review.approvals.some((a) => a.staff.id === staff?.id);
  const blocked = kind.approvalBlocked?.(text, item) ?? null;
  const mayDecide = allowed(staff, kind.calls.approve);
  let actions = <Alert message={failure} />;
  if (review.state === 'pending' && !mayDecide) actions = <p className="muted">{words.onlyDeciders}</p>;
  else if (review.state === 'pending' && !mine)
    actions = (
      <div className="stack">
        <p className="muted">{heldByOther ? text.review.waitForClaim : text.review.claimFirst}</p>
        <Alert message={failure} />
        <div className="actions">
          <button
            type="button"
            className="primary"
            disabled={busy || heldByOther}
            onClick={() => act('claim')}
          >
            {text.review.claim}
          </button>
        </div>
      </div>
    );
  else if (review.state === 'pending')
    actions = (
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          act('reject');
        }}
      >
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => act('claim')}>
            {text.review.renew}
          </button>
          <button type="button" disabled={busy} onClick={() => act('release')}>
            {text.review.release}
          </button>
        </div>
        {approvedByMe ? <p className="muted">{text.review.secondApprover}</p> : null}
        {blocked ? (
          <p className="overdue" id="approval-blocked" data-testid="approval-blocked">
            {blocked}
          </p>
        ) : null}
        <div className="actions">
          <button
            type="button"
            className="primary"
            disabled={busy || approvedByMe || blocked !== null}
            aria-describedby={blocked ? 'approval-blocked' : undefined}
            onClick={() => act('approve')}
          >
            {review.fourEyes && review.approvals.length === 0
              ? text.review.approveFirst
              : text.review.approve}
          </button>
        </div>
        <Field
          label={text.review.rejectReason}
          value={reason}
          maxLength={500}
          error={reasonError}
          onChange={(e) => setReason(e.target.value)}
        />
        <SubmitRow failure={failure} busy={busy} label={text.review.reject} tone="danger" />
      </form>
    );
  return (
    <section className="panel" aria-labelledby="review-heading">
      {back}
      <h2 id="review-heading" ref={heading} tabIndex={-1}>
        {kind.itemHeading(text, item)}
      </h2>
      <ReviewStatus review={review} />
      <kind.Details item={item} />
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {actions}
    </section>
  );
}
