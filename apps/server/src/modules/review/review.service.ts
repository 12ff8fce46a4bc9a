import {
  type Asset,
  Code,
  isLanguage,
  type Language,
  REVIEW_LEASE_SECONDS,
  REVIEW_PAGE,
  type ReviewMeta,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import { LedgerError, ledgerErrorCode } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type {
  DecisionContext,
  ItemOf,
  LedgerEffect,
  ListItemOf,
  ReviewCallSet,
  ReviewDefinition,
} from './review.define.ts';
import {
  claimItem,
  finishDecision,
  type ReviewDecision,
  type ReviewRow,
  recordFirstApproval,
  recordIntent,
  releaseClaim,
  reviewRow,
  reviewRows,
  staleIntents,
  withdrawIntent,
} from './review.repository.ts';

/** The staff member acting (the route has checked the role). */
export type ReviewActor = { staffId: number };
/** An item as the queue answers it: the product's fields and its review. */
export type Reviewed<T> = T & { review: ReviewMeta };

type Deps = {
  db: Database;
  audit: AuditService;
  notices: NoticesService;
  staff: Pick<StaffService, 'refsOf'>;
  customers: Pick<CustomerDirectory, 'get'>;
  now: () => number;
};

/** A decision left half-way is finished by the job once it is this old (its request has ended). */
export const RESUME_AFTER_MS = 60_000;

const iso = (ms: number) => new Date(ms).toISOString();
/** The product's item with its review beside its own fields. */
const withReview = <T>(item: T, review: ReviewMeta): Reviewed<T> => Object.assign({}, item, { review });
const actorOf = (staffId: number) => `staff:${staffId}`;

/**
 * A refusal of the decision's ledger effect, as the staff member's answer: nothing was written by
 * the ledger, so the decision is withdrawn. Null for any other failure (the outcome is unknown).
 */
function refusalOf(error: unknown, decidedCode: ApiError['code']): ApiError | null {
  if (error instanceof ApiError) return error;
  if (!(error instanceof LedgerError)) return null;
  // A hold already posted or voided (or never placed) means the item was decided elsewhere;
  // anything else answers the ledger's own code (the one mapper), an unmapped fault 10030.
  if (error.reason === 'hold_not_pending' || error.reason === 'unknown_hold')
    return new ApiError(decidedCode);
  const mapped = ledgerErrorCode(error.reason);
  return new ApiError(mapped?.code ?? Code.UNKNOWN_ERROR, mapped?.data ?? null);
}

/**
 * The staff review queue: one pattern for every "customer submits, staff decide" kind. Each kind
 * is declared with `defineReview` and registered here; the queue it gets lists, shows, claims,
 * releases, approves and rejects, and every one of those is audited with the actor `staff:<id>`.
 *
 * - A claim is a lease (15 minutes, renewed by claiming again); deciding needs a live claim of the
 *   decider, and of two staff claiming at once exactly one wins (10035 for the other).
 * - Four eyes: above the kind's threshold the first approval is recorded, and a second approver
 *   from another staff account completes it (the same account again: 10037).
 * - A decision is carried out in three steps, so that the ledger (which commits in its own
 *   transactions, through its batcher) and the record agree: (1) the decision is recorded on the
 *   locked review row; (2) its ledger effect runs under the key `review:<kind>:<id>:<decision>`;
 *   (3) one transaction turns the record into the decision and writes the product's change, the
 *   audit row and the customer's notice. A refused ledger effect withdraws (1): no audit row, no
 *   notice, the item undecided and still claimed. A failure of unknown outcome leaves (1) in
 *   place; the next claim or decision of the item, or the `review.resume` job, runs (2) again with
 *   the same key (the ledger answers the first result) and then (3), which only one node wins.
 */
export class ReviewService {
  private readonly deps: Deps;
  private readonly resumers = new Map<string, (itemId: number) => Promise<void>>();
  private readonly logger: Logger | undefined;

  constructor(deps: Omit<Deps, 'now'> & { now?: () => number; logger?: Logger }) {
    this.deps = { ...deps, now: deps.now ?? Date.now };
    this.logger = deps.logger;
  }

  /** Registers a review kind; the queue answers its staff calls (mount it with `mountReview`). */
  register<C extends ReviewCallSet>(definition: ReviewDefinition<C>): ReviewQueue<C> {
    if (this.resumers.has(definition.kind)) throw new Error(`review ${definition.kind} registered twice`);
    const queue = new ReviewQueue(definition, this.deps);
    this.resumers.set(definition.kind, (itemId) => queue.resume(itemId));
    return queue;
  }

  /** Finishes the decisions a stopped node left half-way (the review.resume job); returns how many. */
  async resumeStale(limit = 100): Promise<number> {
    const stale = await staleIntents(this.deps.db, iso(this.deps.now() - RESUME_AFTER_MS), limit);
    let finished = 0;
    for (const { kind, itemId } of stale) {
      const resume = this.resumers.get(kind);
      if (!resume) continue;
      try {
        await resume(itemId);
        finished += 1;
      } catch (error) {
        this.logger?.error({ err: error, kind, itemId }, 'a review decision could not be finished');
      }
    }
    return finished;
  }
}

/** The queue of one review kind. */
export class ReviewQueue<C extends ReviewCallSet> {
  readonly definition: ReviewDefinition<C>;
  private readonly deps: Deps;

  constructor(definition: ReviewDefinition<C>, deps: Deps) {
    this.definition = definition;
    this.deps = deps;
  }

  get kind(): string {
    return this.definition.kind;
  }

  private subject(itemId: number): string {
    return `${this.kind}:${itemId}`;
  }

  private async record(actor: ReviewActor, action: string, subject: string, data: unknown): Promise<void> {
    await this.deps.audit.append([
      { actor: actorOf(actor.staffId), action: `${this.kind}.${action}`, subject, data },
    ]);
  }

  /** Does this amount need two approvers? Thresholds are read once per asset per call. */
  private fourEyesCheck(): (row: ListItemOf<C> | ItemOf<C>) => Promise<boolean> {
    const fourEyes = this.definition.fourEyes;
    const thresholds = new Map<Asset, Promise<bigint | null>>();
    return async (row) => {
      const amount = fourEyes?.amountOf(row);
      if (!fourEyes || !amount) return false;
      let above = thresholds.get(amount.asset);
      if (!above) {
        above = fourEyes.above(amount.asset);
        thresholds.set(amount.asset, above);
      }
      const threshold = await above;
      return threshold !== null && amount.minor > threshold;
    };
  }

  private async metaOf(
    entries: { row: ReviewRow | null; state: 'pending' | ReviewDecision; fourEyes: boolean }[],
  ): Promise<ReviewMeta[]> {
    const now = this.deps.now();
    const ids = entries.flatMap(({ row }) =>
      row ? [row.claimedBy, row.firstApprover, row.decidedBy].filter((id) => id !== null) : [],
    );
    const refs = await this.deps.staff.refsOf(ids);
    const ref = (id: number) => refs.get(id) ?? { id, email: actorOf(id) };
    return entries.map(({ row, state, fourEyes }) => {
      const live = row?.claimedBy != null && row.claimUntil !== null && Date.parse(row.claimUntil) > now;
      const approvals: ReviewMeta['approvals'] = [];
      if (row?.firstApprover != null && row.firstApprovedAt)
        approvals.push({ staff: ref(row.firstApprover), at: row.firstApprovedAt });
      if (row?.decision === 'approved' && row.decidedBy !== null && row.decidedAt)
        approvals.push({ staff: ref(row.decidedBy), at: row.decidedAt });
      return {
        state: row?.intent ? 'deciding' : state,
        claim:
          live && state === 'pending' && row?.claimedBy != null && row.claimUntil
            ? { staff: ref(row.claimedBy), until: row.claimUntil }
            : null,
        fourEyes: fourEyes || row?.firstApprover != null,
        approvals,
        decidedBy: row?.decidedBy != null ? ref(row.decidedBy) : null,
        decidedAt: row?.decidedAt ?? null,
      };
    });
  }

  private async view(item: ItemOf<C>, row: ReviewRow | null): Promise<Reviewed<ItemOf<C>>> {
    const { state } = this.definition.facts(item);
    const fourEyes = state === 'pending' && (await this.fourEyesCheck()(item));
    const [review] = await this.metaOf([{ row, state, fourEyes }]);
    if (!review) throw new Error('no review');
    return withReview(item, review);
  }

  /** Pending items, oldest first, with who reviews each (audited as `<kind>.queue_viewed`). */
  async list(actor: ReviewActor, after: number | null): Promise<Reviewed<ListItemOf<C>>[]> {
    const items = await this.definition.list({ after, limit: REVIEW_PAGE });
    await this.record(actor, 'queue_viewed', this.kind, {});
    const rows = new Map(
      (
        await reviewRows(
          this.deps.db,
          this.kind,
          items.map((item) => item.id),
        )
      ).map((r) => [r.itemId, r]),
    );
    const needsTwo = this.fourEyesCheck();
    const entries = await Promise.all(
      items.map(async (item) => ({
        row: rows.get(item.id) ?? null,
        state: 'pending' as const,
        fourEyes: await needsTwo(item),
      })),
    );
    const metas = await this.metaOf(entries);
    return items.flatMap((item, index) => {
      const review = metas[index];
      return review ? [withReview(item, review)] : [];
    });
  }

  /** One item with its review (audited as `<kind>.viewed`); unknown: 10028. */
  async get(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    const item = await this.definition.get(itemId);
    if (!item) throw new ApiError(Code.NOT_FOUND);
    await this.record(actor, 'viewed', this.subject(itemId), { userId: this.definition.facts(item).userId });
    return this.view(item, await reviewRow(this.deps.db, this.kind, itemId));
  }

  /** The item, still pending; a decision left half-way is finished first. Unknown 10028, decided: decidedCode. */
  private async pendingItem(itemId: number): Promise<ItemOf<C>> {
    let item = await this.definition.get(itemId);
    if (!item) throw new ApiError(Code.NOT_FOUND);
    const row = await reviewRow(this.deps.db, this.kind, itemId);
    if (row?.intent) {
      await this.carryOut(itemId);
      item = await this.definition.get(itemId);
      if (!item) throw new ApiError(Code.NOT_FOUND);
    }
    if (this.definition.facts(item).state !== 'pending') throw new ApiError(this.definition.decidedCode);
    return item;
  }

  /** Why this staff member cannot act on the item as its claimant: held by another (10035), or no claim (10036). */
  private refusal(row: ReviewRow | null, staffId: number, now: number): ApiError | null {
    if (row?.decision || row?.intent) return new ApiError(this.definition.decidedCode);
    const live = row?.claimedBy != null && row.claimUntil !== null && Date.parse(row.claimUntil) > now;
    if (live && row?.claimedBy === staffId) return null;
    if (live && row?.claimedBy != null)
      return new ApiError(Code.REVIEW_CLAIMED, { staffId: row.claimedBy, until: row.claimUntil });
    return new ApiError(Code.REVIEW_CLAIM_REQUIRED);
  }

  /** A 10035 names the claimant by email (looked up outside the transaction that refused). */
  private async named(error: unknown): Promise<unknown> {
    if (!(error instanceof ApiError) || error.code !== Code.REVIEW_CLAIMED) return error;
    const { staffId, until } = (error.data ?? {}) as { staffId?: number; until?: string };
    if (staffId === undefined) return error;
    const ref = (await this.deps.staff.refsOf([staffId])).get(staffId) ?? {
      id: staffId,
      email: actorOf(staffId),
    };
    return new ApiError(Code.REVIEW_CLAIMED, { claimedBy: ref, until });
  }

  /** Claims the item for the lease, or renews the actor's claim (audited as `<kind>.claimed`). */
  async claim(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    const item = await this.pendingItem(itemId);
    const now = this.deps.now();
    const until = iso(now + (this.definition.leaseSeconds ?? REVIEW_LEASE_SECONDS) * 1000);
    const claimed = await this.deps.db.transaction(async (tx) => {
      const row = await claimItem(tx, {
        kind: this.kind,
        itemId,
        staffId: actor.staffId,
        now: iso(now),
        until,
      });
      if (!row) return null;
      await this.deps.audit.appendInTx(tx, [
        {
          actor: actorOf(actor.staffId),
          action: `${this.kind}.claimed`,
          subject: this.subject(itemId),
          data: { until },
        },
      ]);
      return row;
    });
    if (!claimed) {
      const refusal = this.refusal(await reviewRow(this.deps.db, this.kind, itemId), actor.staffId, now);
      throw await this.named(refusal ?? new ApiError(Code.REVIEW_CLAIMED));
    }
    return this.view(item, claimed);
  }

  /** Gives up the actor's claim (audited as `<kind>.released`). */
  async release(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    const item = await this.definition.get(itemId);
    if (!item) throw new ApiError(Code.NOT_FOUND);
    const released = await this.deps.db.transaction(async (tx) => {
      const row = await releaseClaim(tx, this.kind, itemId, actor.staffId);
      if (!row) return null;
      await this.deps.audit.appendInTx(tx, [
        {
          actor: actorOf(actor.staffId),
          action: `${this.kind}.released`,
          subject: this.subject(itemId),
          data: {},
        },
      ]);
      return row;
    });
    if (!released) {
      const refusal = this.refusal(
        await reviewRow(this.deps.db, this.kind, itemId),
        actor.staffId,
        this.deps.now(),
      );
      throw await this.named(refusal ?? new ApiError(Code.REVIEW_CLAIM_REQUIRED));
    }
    return this.view(item, released);
  }

  approve(actor: ReviewActor, itemId: number): Promise<Reviewed<ItemOf<C>>> {
    return this.decide(actor, itemId, 'approved', null);
  }

  reject(actor: ReviewActor, itemId: number, reason: string): Promise<Reviewed<ItemOf<C>>> {
    return this.decide(actor, itemId, 'rejected', reason);
  }

  /**
   * A decision by the claimant. Above the four-eyes threshold the first approval is recorded (and
   * the claim ends, for a second staff member to take); otherwise the decision is carried out.
   */
  private async decide(
    actor: ReviewActor,
    itemId: number,
    decision: ReviewDecision,
    reason: string | null,
  ): Promise<Reviewed<ItemOf<C>>> {
    const item = await this.pendingItem(itemId);
    const twoNeeded = decision === 'approved' && (await this.fourEyesCheck()(item));
    const now = this.deps.now();
    const step = await this.deps.db
      .transaction(async (tx) => {
        // The row locked: a decision and a claim of the same item wait for each other.
        const row = await reviewRow(tx, this.kind, itemId, true);
        const refusal = this.refusal(row, actor.staffId, now);
        if (refusal) throw refusal;
        if (decision === 'approved' && row?.firstApprover === actor.staffId)
          throw new ApiError(Code.REVIEW_SECOND_APPROVER);
        if (twoNeeded && row?.firstApprover == null) {
          await recordFirstApproval(tx, this.kind, itemId, actor.staffId, iso(now));
          await this.deps.audit.appendInTx(tx, [
            {
              actor: actorOf(actor.staffId),
              action: `${this.kind}.first_approval`,
              subject: this.subject(itemId),
              data: { userId: this.definition.facts(item).userId },
            },
          ]);
          return 'first' as const;
        }
        await recordIntent(tx, {
          kind: this.kind,
          itemId,
          decision,
          staffId: actor.staffId,
          reason,
          at: iso(now),
        });
        return 'final' as const;
      })
      .catch(async (error: unknown) => {
        throw await this.named(error);
      });
    if (step === 'final') {
      const refused = await this.carryOut(itemId);
      if (refused) throw refused;
    }
    const after = await this.definition.get(itemId);
    if (!after) throw new ApiError(Code.NOT_FOUND);
    return this.view(after, await reviewRow(this.deps.db, this.kind, itemId));
  }

  /** Finishes a decision recorded earlier (the job, or a later call on the item). */
  async resume(itemId: number): Promise<void> {
    await this.carryOut(itemId);
  }

  /**
   * Carries out the recorded decision: the ledger effect under its key, then the decision, the
   * product's change, the audit row and the notice in one transaction. Answers the refusal when
   * the ledger refused (the decision is withdrawn); throws when the outcome is unknown.
   */
  private async carryOut(itemId: number): Promise<ApiError | null> {
    const { db, audit, notices, customers } = this.deps;
    const row = await reviewRow(db, this.kind, itemId);
    if (!row?.intent || row.intentBy === null) return null;
    const decision = row.intent;
    const item = await this.definition.get(itemId);
    if (!item) throw new Error(`${this.kind} ${itemId} is being decided but does not exist`);
    const context: DecisionContext<ItemOf<C>> = {
      kind: this.kind,
      itemId,
      item,
      decision,
      reason: row.reason,
      staffId: row.intentBy,
      actor: actorOf(row.intentBy),
      idempotencyKey: `review:${this.kind}:${itemId}:${decision}`,
    };
    let ledger: LedgerEffect | null = null;
    if (this.definition.ledger) {
      try {
        ledger = await this.definition.ledger(context);
      } catch (error) {
        const refusal = refusalOf(error, this.definition.decidedCode);
        if (!refusal) throw error;
        await withdrawIntent(db, this.kind, itemId, decision);
        return refusal;
      }
    }
    const { userId } = this.definition.facts(item);
    const customer = await customers.get(userId);
    const language: Language = customer && isLanguage(customer.language) ? customer.language : 'en';
    const notice = this.definition.notice(context);
    await db.transaction(async (tx) => {
      const done = await finishDecision(tx, this.kind, itemId, decision, iso(this.deps.now()));
      // Another node finished it first: its transaction wrote everything below.
      if (!done) return;
      await this.definition.record(tx, { ...context, ledger });
      await audit.appendInTx(tx, [
        {
          actor: context.actor,
          action: `${this.kind}.${decision}`,
          subject: this.subject(itemId),
          data: {
            userId,
            ...(context.reason === null ? {} : { reason: context.reason }),
            ...(row.firstApprover === null ? {} : { firstApprover: actorOf(row.firstApprover) }),
            ...(ledger ? { ledger } : {}),
          },
        },
      ]);
      await notices.notifyInTx(tx, userId, language, notice.kind, notice.params);
    });
    return null;
  }
}
