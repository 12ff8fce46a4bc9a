import { Code, REVIEW_LEASE_SECONDS } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { ItemOf, ReviewCallSet } from './review.define.ts';
import { view } from './review.reads.ts';
import { claimItem, releaseClaim, reviewRow } from './review.repository.ts';
import {
  actorOf,
  iso,
  named,
  pendingItem,
  type QueueContext,
  type ReviewActor,
  type Reviewed,
  refusal,
  subject,
} from './review.shared.ts';

/* Claims: a lease on an item for its decider, renewed by claiming again, given up by releasing. */

/** Claims the item for the lease, or renews the actor's claim (audited as `<kind>.claimed`). */
export async function claim<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  itemId: number,
): Promise<Reviewed<ItemOf<C>>> {
  const { definition, deps } = ctx;
  const item = await pendingItem(ctx, itemId);
  const now = deps.now();
  const until = iso(now + (definition.leaseSeconds ?? REVIEW_LEASE_SECONDS) * 1000);
  const claimed = await deps.db.transaction(async (tx) => {
    const row = await claimItem(tx, {
      kind: definition.kind,
      itemId,
      staffId: actor.staffId,
      now: iso(now),
      until,
    });
    if (!row) return null;
    await deps.audit.appendInTx(tx, [
      {
        actor: actorOf(actor.staffId),
        action: `${definition.kind}.claimed`,
        subject: subject(ctx, itemId),
        data: { until },
      },
    ]);
    return row;
  });
  if (!claimed) {
    const refused = refusal(ctx, await reviewRow(deps.db, definition.kind, itemId), actor.staffId, now);
    throw await named(ctx, refused ?? new ApiError(Code.REVIEW_CLAIMED));
  }
  return view(ctx, item, claimed);
}

/** Gives up the actor's claim (audited as `<kind>.released`). */
export async function release<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  itemId: number,
): Promise<Reviewed<ItemOf<C>>> {
  const { definition, deps } = ctx;
  const item = await definition.get(itemId);
  if (!item) throw new ApiError(Code.NOT_FOUND);
  const released = await deps.db.transaction(async (tx) => {
    const row = await releaseClaim(tx, definition.kind, itemId, actor.staffId);
    if (!row) return null;
    await deps.audit.appendInTx(tx, [
      {
        actor: actorOf(actor.staffId),
        action: `${definition.kind}.released`,
        subject: subject(ctx, itemId),
        data: {},
      },
    ]);
    return row;
  });
  if (!released) {
    const refused = refusal(
      ctx,
      await reviewRow(deps.db, definition.kind, itemId),
      actor.staffId,
      deps.now(),
    );
    throw await named(ctx, refused ?? new ApiError(Code.REVIEW_CLAIM_REQUIRED));
  }
  return view(ctx, item, released);
}
