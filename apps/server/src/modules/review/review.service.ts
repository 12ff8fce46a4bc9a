import { claim, release } from './review.claims.ts';
import { decide, decisionAttachment } from './review.decide.ts';
import type { ItemOf, ListItemOf, ReviewCallSet, ReviewDefinition } from './review.define.ts';
import { get, list } from './review.reads.ts';
import type { QueueContext, ReviewActor, ReviewDeps, Reviewed } from './review.shared.ts';

export type { ReviewActor, Reviewed } from './review.shared.ts';

/**
 * The staff review queue: one pattern for every "customer submits, staff decide" kind. Each kind
 * is declared with `defineReview` and registered here; the queue it gets lists, shows, claims,
 * releases, approves and rejects, and every one of those is audited with the actor `staff:<id>`.
 *
 * - A claim is a lease (15 minutes, renewed by claiming again); deciding needs a live claim of the
 *   decider, and of two staff claiming at once exactly one wins (10035 for the other).
 * - Four eyes: above the kind's threshold the first approval is recorded, and a second approver
 *   from another staff account completes it (the same account again: 10037).
 * - A decision is one transaction: the decision on the locked review row, the product's record,
 *   the audit row and the customer's notice. For a kind with a ledger effect that transaction is
 *   the ledger's own: the kind's one hold operation (post or void, under the key
 *   `review:<kind>:<id>:<decision>`) carries the decision as its attachment, written after the
 *   hold's change. A refusal of the ledger or of the decision (the claim ran out), or any failure,
 *   writes nothing: no audit row, no notice, the hold as it was, the item undecided.
 *
 * A queue is a thin front over its use cases: reads (`review.reads.ts`), claims
 * (`review.claims.ts`) and decisions (`review.decide.ts`); what they share is in
 * `review.shared.ts`.
 */
export class ReviewService {
  private readonly deps: ReviewDeps;
  private readonly kinds = new Set<string>();

  constructor(deps: Omit<ReviewDeps, 'now'> & { now?: () => number }) {
    this.deps = { ...deps, now: deps.now ?? Date.now };
  }

  /** Registers a review kind; the queue answers its staff calls (mount it with `mountReview`). */
  register<C extends ReviewCallSet>(definition: ReviewDefinition<C>): ReviewQueue<C> {
    if (this.kinds.has(definition.kind)) throw new Error(`review ${definition.kind} registered twice`);
    this.kinds.add(definition.kind);
    return new ReviewQueue(definition, this.deps);
  }
}

/** The queue of one review kind. */
export class ReviewQueue<C extends ReviewCallSet> {
  readonly definition: ReviewDefinition<C>;
  private readonly ctx: QueueContext<C>;

  constructor(definition: ReviewDefinition<C>, deps: ReviewDeps) {
    this.definition = definition;
    const ctx: QueueContext<C> = { definition, deps, decisions: null };
    ctx.decisions = decisionAttachment(ctx);
    this.ctx = ctx;
  }

  get kind(): string {
    return this.definition.kind;
  }

  /** Pending items, oldest first, with who reviews each (audited as `<kind>.queue_viewed`). */
  list(actor: ReviewActor, after: number | null): Promise<Reviewed<ListItemOf<C>>[]> {
    return list(this.ctx, actor, after);
  }

  /** One item with its review (audited as `<kind>.viewed`); unknown: 10028. */
  get(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    return get(this.ctx, actor, itemId);
  }

  /** Claims the item for the lease, or renews the actor's claim (audited as `<kind>.claimed`). */
  claim(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    return claim(this.ctx, actor, itemId);
  }

  /** Gives up the actor's claim (audited as `<kind>.released`). */
  release(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    return release(this.ctx, actor, itemId);
  }

  approve(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    return decide(this.ctx, actor, itemId, 'approved', null);
  }

  reject(actor: ReviewActor, itemId: number, reason: string): Promise<Reviewed<ItemOf<C>>> {
    return decide(this.ctx, actor, itemId, 'rejected', reason);
  }
}
