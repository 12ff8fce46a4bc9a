import { Code, REVIEW_PAGE, type ReviewMeta } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { ItemOf, ListItemOf, ReviewCallSet } from './review.define.ts';
import { type ReviewDecision, type ReviewRow, reviewRow, reviewRows } from './review.repository.ts';
import {
  actorOf,
  fourEyesCheck,
  type QueueContext,
  type ReviewActor,
  type Reviewed,
  record,
  subject,
  withReview,
} from './review.shared.ts';

/* Reading a queue: its pending items and one item, each with its review (claim, four eyes, approvals). */

type MetaEntry = {
  row: ReviewRow | null;
  state: 'pending' | ReviewDecision;
  fourEyes: boolean;
  threshold: ReviewMeta['threshold'];
};

/** The reviews of some items, their staff named by email (one lookup for all). */
async function metaOf<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  entries: MetaEntry[],
): Promise<ReviewMeta[]> {
  const now = ctx.deps.now();
  const ids = entries.flatMap(({ row }) =>
    row ? [row.claimedBy, row.firstApprover, row.decidedBy].filter((id) => id !== null) : [],
  );
  const refs = await ctx.deps.staff.refsOf(ids);
  const ref = (id: number) => refs.get(id) ?? { id, email: actorOf(id) };
  return entries.map(({ row, state, fourEyes, threshold }) => {
    const live = row?.claimedBy != null && row.claimUntil !== null && Date.parse(row.claimUntil) > now;
    const approvals: ReviewMeta['approvals'] = [];
    if (row?.firstApprover != null && row.firstApprovedAt)
      approvals.push({ staff: ref(row.firstApprover), at: row.firstApprovedAt });
    if (row?.decision === 'approved' && row.decidedBy !== null && row.decidedAt)
      approvals.push({ staff: ref(row.decidedBy), at: row.decidedAt });
    return {
      state,
      claim:
        live && state === 'pending' && row?.claimedBy != null && row.claimUntil
          ? { staff: ref(row.claimedBy), until: row.claimUntil }
          : null,
      fourEyes: fourEyes || row?.firstApprover != null,
      threshold,
      approvals,
      decidedBy: row?.decidedBy != null ? ref(row.decidedBy) : null,
      decidedAt: row?.decidedAt ?? null,
    };
  });
}

/** One item with its review. */
export async function view<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  item: ItemOf<C>,
  row: ReviewRow | null,
): Promise<Reviewed<ItemOf<C>>> {
  const { state } = ctx.definition.facts(item);
  // The threshold is told while the item waits; a decided item keeps only its approvals.
  const verdict = state === 'pending' ? await fourEyesCheck(ctx)(item) : null;
  const [review] = await metaOf(ctx, [
    { row, state, fourEyes: verdict?.needed ?? false, threshold: verdict?.threshold ?? null },
  ]);
  if (!review) throw new Error('no review');
  return withReview(item, review);
}

/** Pending items, oldest first, with who reviews each (audited as `<kind>.queue_viewed`). */
export async function list<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  after: number | null,
): Promise<Reviewed<ListItemOf<C>>[]> {
  const { kind } = ctx.definition;
  const items = await ctx.definition.list({ after, limit: REVIEW_PAGE });
  await record(ctx, actor, 'queue_viewed', kind, {});
  const rows = new Map(
    (
      await reviewRows(
        ctx.deps.db,
        kind,
        items.map((item) => item.id),
      )
    ).map((r) => [r.itemId, r]),
  );
  const needsTwo = fourEyesCheck(ctx);
  const entries = await Promise.all(
    items.map(async (item) => {
      const verdict = await needsTwo(item);
      return {
        row: rows.get(item.id) ?? null,
        state: 'pending' as const,
        fourEyes: verdict.needed,
        threshold: verdict.threshold,
      };
    }),
  );
  const metas = await metaOf(ctx, entries);
  return items.flatMap((item, index) => {
    const review = metas[index];
    return review ? [withReview(item, review)] : [];
  });
}

/** One item with its review (audited as `<kind>.viewed`); unknown: 10028. */
export async function get<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  itemId: number,
): Promise<Reviewed<ItemOf<C>>> {
  const item = await ctx.definition.get(itemId);
  if (!item) throw new ApiError(Code.NOT_FOUND);
  await record(ctx, actor, 'viewed', subject(ctx, itemId), { userId: ctx.definition.facts(item).userId });
  return view(ctx, item, await reviewRow(ctx.deps.db, ctx.definition.kind, itemId));
}
