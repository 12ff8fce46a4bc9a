import type { ReviewMeta } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { allowed, callDefinition, failureMessage, StaffApiError } from '../api.ts';
import { type BackOfficeContext, useBackOffice } from '../context.ts';
import { Alert, Done, Pending, SubmitRow } from '../Field.tsx';
import { ReasonField, useFocusOnLoad, useReason } from '../KitScreen.tsx';
import { reviewKeys } from '../query.ts';
import { fill, formatTime } from '../text.ts';
import type { Reviewed, ReviewKind, ReviewWords } from './kind.ts';

type Act = 'claim' | 'release' | 'approve' | 'reject';

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

/** What an act did, as the item is now. */
function doneMessage(
  { text, language }: BackOfficeContext,
  words: ReviewWords,
  act: Act,
  next: Reviewed<unknown>,
): string {
  if (act === 'claim')
    return fill(text.review.claimed, {
      until: next.review.claim ? formatTime(language, next.review.claim.until) : '',
    });
  if (act === 'release') return text.review.released;
  if (act === 'reject') return words.rejected;
  return next.review.state === 'pending' ? text.review.firstApproved : words.approved;
}

/** Claim, release, approve and reject (with its reason) of one item, and what the last act did. */
function useReviewActs<L extends { id: number }, I extends { id: number }>(
  kind: ReviewKind<L, I>,
  id: number,
  refetch: () => void,
) {
  const context = useBackOffice();
  const client = useQueryClient();
  const keys = reviewKeys(kind.root);
  const [done, setDone] = useState('');
  const reason = useReason(context.text.error.reasonShort);
  const action = useMutation({
    mutationFn: async (act: Act) =>
      (await callDefinition(kind.calls[act], {
        params: { id },
        ...(act === 'reject' ? { body: { reason: reason.value.trim() } } : {}),
      })) as Reviewed<I>,
    onSuccess: async (next, act) => {
      // Everything of the kind (and what a decision changes) is stale; this item is as answered.
      for (const root of [keys.root, ...(kind.alsoChanges ?? [])])
        await client.invalidateQueries({ queryKey: root, refetchType: 'none' });
      client.setQueryData(keys.item(context.language, id), next);
      setDone(doneMessage(context, kind.words(context), act, next));
    },
    // Refused (someone else holds it, the claim ran out, it was decided): show it as it is now.
    onError: (error) => {
      if (error instanceof StaffApiError && error.code > 0) refetch();
    },
  });
  const act = (next: Act) => {
    if (next === 'reject') {
      if (reason.checked() === null) return;
    } else reason.setError(undefined);
    setDone('');
    action.mutate(next);
  };
  const failure = action.isError ? failureMessage(action.error, context.text.error.generic) : '';
  return { act, done, reason, failure, busy: action.isPending };
}

type Acts = ReturnType<typeof useReviewActs>;

/** A pending item the staff member does not hold: why not, and the claim (unless another holds it). */
function ClaimFirst({ acts, heldByOther }: { acts: Acts; heldByOther: boolean }) {
  const { text } = useBackOffice();
  return (
    <div className="stack">
      <p className="muted">{heldByOther ? text.review.waitForClaim : text.review.claimFirst}</p>
      <Alert message={acts.failure} />
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={acts.busy || heldByOther}
          onClick={() => acts.act('claim')}
        >
          {text.review.claim}
        </button>
      </div>
    </div>
  );
}

/**
 * The claimant's decision: renew or release the claim, approve (not twice by one person, not while
 * blocked, with why beside it), or reject with a reason.
 */
function Decide({ acts, review, blocked }: { acts: Acts; review: ReviewMeta; blocked: string | null }) {
  const { text, staff } = useBackOffice();
  const { act, busy } = acts;
  const approvedByMe = review.approvals.some((a) => a.staff.id === staff?.id);
  return (
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
          {review.fourEyes && review.approvals.length === 0 ? text.review.approveFirst : text.review.approve}
        </button>
      </div>
      <ReasonField label={text.review.rejectReason} reason={acts.reason} />
      <SubmitRow failure={acts.failure} busy={busy} label={text.review.reject} tone="danger" />
    </form>
  );
}

/** What the staff member may do with the item as it stands: decide, claim first, or only read. */
function ReviewActions<L extends { id: number }, I extends { id: number }>({
  kind,
  item,
  acts,
}: {
  kind: ReviewKind<L, I>;
  item: Reviewed<I>;
  acts: Acts;
}) {
  const context = useBackOffice();
  const { review } = item;
  if (review.state !== 'pending') return <Alert message={acts.failure} />;
  if (!allowed(context.staff, kind.calls.approve))
    return <p className="muted">{kind.words(context).onlyDeciders}</p>;
  const mine = review.claim !== null && review.claim.staff.id === context.staff?.id;
  if (!mine) return <ClaimFirst acts={acts} heldByOther={review.claim !== null} />;
  return <Decide acts={acts} review={review} blocked={kind.approvalBlocked?.(context, item) ?? null} />;
}

/** One item (`<base>/:id`): its review, the kind's details, and claim / release / approve / reject. */
export function ReviewItemScreen<L extends { id: number }, I extends { id: number }>({
  kind,
}: {
  kind: ReviewKind<L, I>;
}) {
  const context = useBackOffice();
  const { text, language } = context;
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useQuery({
    queryKey: reviewKeys(kind.root).item(language, id),
    queryFn: async () => (await callDefinition(kind.calls.get, { params: { id } })) as Reviewed<I>,
    enabled: valid,
  });
  const heading = useFocusOnLoad(query.data !== undefined);
  const acts = useReviewActs(kind, id, () => void query.refetch());
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
  return (
    <section className="panel" aria-labelledby="review-heading">
      {back}
      <h2 id="review-heading" ref={heading} tabIndex={-1}>
        {fill(kind.words(context).item, { id: item.id })}
      </h2>
      <ReviewStatus review={item.review} />
      <kind.Details item={item} />
      <Done message={acts.done} />
      <ReviewActions kind={kind} item={item} acts={acts} />
    </section>
  );
}
