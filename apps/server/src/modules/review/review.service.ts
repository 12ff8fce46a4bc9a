import {
  ASSET_SCALES,
  type Asset,
  Code,
  formatMinor,
  isLanguage,
  type Language,
  plainDecimal,
  REVIEW_LEASE_SECONDS,
  REVIEW_PAGE,
  type ReviewMeta,
} from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import {
  type HoldAttachment,
  LedgerError,
  type LedgerService,
  ledgerErrorCode,
} from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type {
  DecisionContext,
  ItemOf,
  LedgerEffect,
  ListItemOf,
  ReviewCallSet,
  ReviewDefinition,
  ReviewNotice,
} from './review.define.ts';
import {
  claimItem,
  type ReviewDecision,
  type ReviewRow,
  recordDecision,
  recordFirstApproval,
  releaseClaim,
  reviewRow,
  reviewRows,
} from './review.repository.ts';

/** The staff member acting (the route has checked the role). */
export type ReviewActor = { staffId: number };
/** Four eyes of one amount: two approvers needed, and the threshold of its asset (see ReviewMeta). */
type FourEyesVerdict = { needed: boolean; threshold: ReviewMeta['threshold'] };
/** An item as the queue answers it: the product's fields and its review. */
export type Reviewed<T> = T & { review: ReviewMeta };

type Deps = {
  db: Database;
  audit: AuditService;
  notices: NoticesService;
  staff: Pick<StaffService, 'refsOf'>;
  customers: Pick<CustomerDirectory, 'get'>;
  /** Needed by kinds with a ledger effect: their decision is written by a hold attachment. */
  ledger?: Pick<LedgerService, 'holdAttachment'>;
  now: () => number;
};

/**
 * A decision as its one transaction writes it: everything read beforehand (the transaction reads
 * only the review row it locks). With a ledger effect it is the attachment's data, hashed with the
 * ledger request; the same decision sent twice is one.
 */
type Decision<I> = {
  itemId: number;
  item: I;
  userId: number;
  decision: ReviewDecision;
  reason: string | null;
  staffId: number;
  /** Four eyes applies: the first approval must already be recorded (by another account). */
  fourEyes: boolean;
  language: Language;
  notice: ReviewNotice;
};

const iso = (ms: number) => new Date(ms).toISOString();
/** The product's item with its review beside its own fields. */
const withReview = <T>(item: T, review: ReviewMeta): Reviewed<T> => Object.assign({}, item, { review });
const actorOf = (staffId: number) => `staff:${staffId}`;

/**
 * A refusal of the decision's ledger effect as the staff member's answer (nothing was written);
 * any other failure as it is.
 */
function refusalOf(error: unknown, decidedCode: ApiError['code']): unknown {
  if (!(error instanceof LedgerError)) return error;
  // A hold already posted or voided (or never placed), or the decision's key used by another
  // request, means the item was decided elsewhere; anything else answers the ledger's own code
  // (the one mapper), an unmapped fault 10030.
  if (
    error.reason === 'hold_not_pending' ||
    error.reason === 'unknown_hold' ||
    error.reason === 'idempotency_conflict'
  )
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
 * - A decision is one transaction: the decision on the locked review row, the product's record,
 *   the audit row and the customer's notice. For a kind with a ledger effect that transaction is
 *   the ledger's own: the kind's one hold operation (post or void, under the key
 *   `review:<kind>:<id>:<decision>`) carries the decision as its attachment, written after the
 *   hold's change. A refusal of the ledger or of the decision (the claim ran out), or any failure,
 *   writes nothing: no audit row, no notice, the hold as it was, the item undecided.
 */
export class ReviewService {
  private readonly deps: Deps;
  private readonly kinds = new Set<string>();

  constructor(deps: Omit<Deps, 'now'> & { now?: () => number }) {
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
  private readonly deps: Deps;
  /** The decision of a kind with a ledger effect, written in the ledger's transaction (`review_<kind>`). */
  private readonly decisions: HoldAttachment<Decision<ItemOf<C>>, ReviewRow> | null;

  constructor(definition: ReviewDefinition<C>, deps: Deps) {
    this.definition = definition;
    this.deps = deps;
    this.decisions = null;
    if (definition.ledger) {
      if (!deps.ledger) throw new Error(`review ${definition.kind} has a ledger effect: give the ledger`);
      this.decisions = deps.ledger.holdAttachment<Decision<ItemOf<C>>, ReviewRow>(
        `review_${definition.kind}`,
        async (tx, rows) => {
          const written = new Map<number, ReviewRow>();
          for (const { holdId, entryId, data } of rows)
            written.set(holdId, await this.write(tx, data, { holdId, entryId }));
          return written;
        },
      );
    }
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

  /**
   * Does this amount need two approvers, and under which threshold (none set: one approval
   * suffices, and the review says so)? Thresholds are read once per asset per call.
   */
  private fourEyesCheck(): (row: ListItemOf<C> | ItemOf<C>) => Promise<FourEyesVerdict> {
    const fourEyes = this.definition.fourEyes;
    const thresholds = new Map<Asset, Promise<bigint | null>>();
    return async (row) => {
      const amount = fourEyes?.amountOf(row);
      if (!fourEyes || !amount) return { needed: false, threshold: null };
      let above = thresholds.get(amount.asset);
      if (!above) {
        above = fourEyes.above(amount.asset);
        thresholds.set(amount.asset, above);
      }
      const threshold = await above;
      return {
        needed: threshold !== null && amount.minor > threshold,
        threshold: {
          asset: amount.asset,
          amount:
            threshold === null ? null : plainDecimal(formatMinor(threshold, ASSET_SCALES[amount.asset])),
        },
      };
    };
  }

  private async metaOf(
    entries: {
      row: ReviewRow | null;
      state: 'pending' | ReviewDecision;
      fourEyes: boolean;
      threshold: ReviewMeta['threshold'];
    }[],
  ): Promise<ReviewMeta[]> {
    const now = this.deps.now();
    const ids = entries.flatMap(({ row }) =>
      row ? [row.claimedBy, row.firstApprover, row.decidedBy].filter((id) => id !== null) : [],
    );
    const refs = await this.deps.staff.refsOf(ids);
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

  private async view(item: ItemOf<C>, row: ReviewRow | null): Promise<Reviewed<ItemOf<C>>> {
    const { state } = this.definition.facts(item);
    // The threshold is told while the item waits; a decided item keeps only its approvals.
    const verdict = state === 'pending' ? await this.fourEyesCheck()(item) : null;
    const [review] = await this.metaOf([
      { row, state, fourEyes: verdict?.needed ?? false, threshold: verdict?.threshold ?? null },
    ]);
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

  /** The item, still pending. Unknown 10028, decided: decidedCode. */
  private async pendingItem(itemId: number): Promise<ItemOf<C>> {
    const item = await this.definition.get(itemId);
    if (!item) throw new ApiError(Code.NOT_FOUND);
    if (this.definition.facts(item).state !== 'pending') throw new ApiError(this.definition.decidedCode);
    return item;
  }

  /** Why this staff member cannot act on the item as its claimant: held by another (10035), or no claim (10036). */
  private refusal(row: ReviewRow | null, staffId: number, now: number): ApiError | null {
    if (row?.decision) return new ApiError(this.definition.decidedCode);
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
   * the claim ends, for a second staff member to take); otherwise the decision is carried out in
   * one transaction (see the class).
   */
  private async decide(
    actor: ReviewActor,
    itemId: number,
    decision: ReviewDecision,
    reason: string | null,
  ): Promise<Reviewed<ItemOf<C>>> {
    const item = await this.pendingItem(itemId);
    const fourEyes = decision === 'approved' && (await this.fourEyesCheck()(item)).needed;
    try {
      // Checked before anything is sent, and again on the locked row in the decision's transaction.
      const row = await reviewRow(this.deps.db, this.kind, itemId);
      this.check(row, actor.staffId, decision);
      if (fourEyes && row?.firstApprover == null) await this.firstApproval(actor, itemId, item, decision);
      else await this.carryOut(await this.decisionOf(actor, itemId, item, decision, reason, fourEyes));
    } catch (error) {
      throw await this.named(refusalOf(error, this.definition.decidedCode));
    }
    const after = await this.definition.get(itemId);
    if (!after) throw new ApiError(Code.NOT_FOUND);
    return this.view(after, await reviewRow(this.deps.db, this.kind, itemId));
  }

  /** Throws why the staff member may not decide (see `refusal`; the first approver approving again: 10037). */
  private check(row: ReviewRow | null, staffId: number, decision: ReviewDecision): void {
    const refusal = this.refusal(row, staffId, this.deps.now());
    if (refusal) throw refusal;
    if (decision === 'approved' && row?.firstApprover === staffId)
      throw new ApiError(Code.REVIEW_SECOND_APPROVER);
  }

  /** The first approval of a four-eyes item: recorded and audited; the claim ends. */
  private async firstApproval(
    actor: ReviewActor,
    itemId: number,
    item: ItemOf<C>,
    decision: ReviewDecision,
  ): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      // The row locked: a decision and a claim of the same item wait for each other.
      const row = await reviewRow(tx, this.kind, itemId, true);
      this.check(row, actor.staffId, decision);
      if (!(await recordFirstApproval(tx, this.kind, itemId, actor.staffId, iso(this.deps.now()))))
        throw new ApiError(Code.REVIEW_CLAIM_REQUIRED);
      await this.deps.audit.appendInTx(tx, [
        {
          actor: actorOf(actor.staffId),
          action: `${this.kind}.first_approval`,
          subject: this.subject(itemId),
          data: { userId: this.definition.facts(item).userId },
        },
      ]);
    });
  }

  /** Everything the decision's transaction writes, read beforehand (the customer's language, the notice). */
  private async decisionOf(
    actor: ReviewActor,
    itemId: number,
    item: ItemOf<C>,
    decision: ReviewDecision,
    reason: string | null,
    fourEyes: boolean,
  ): Promise<Decision<ItemOf<C>>> {
    const { userId } = this.definition.facts(item);
    const customer = await this.deps.customers.get(userId);
    const language: Language = customer && isLanguage(customer.language) ? customer.language : 'en';
    const decided = { itemId, item, userId, decision, reason, staffId: actor.staffId, fourEyes, language };
    return { ...decided, notice: this.definition.notice(this.contextOf(decided)) };
  }

  private contextOf(decided: Omit<Decision<ItemOf<C>>, 'notice'>): DecisionContext<ItemOf<C>> {
    return {
      kind: this.kind,
      itemId: decided.itemId,
      item: decided.item,
      decision: decided.decision,
      reason: decided.reason,
      staffId: decided.staffId,
      actor: actorOf(decided.staffId),
      idempotencyKey: `review:${this.kind}:${decided.itemId}:${decided.decision}`,
    };
  }

  /**
   * Carries out a decision in one transaction: the kind's ledger effect carrying the decision as its
   * attachment, or (no ledger effect) a transaction of its own.
   */
  private async carryOut(decided: Decision<ItemOf<C>>): Promise<void> {
    const { ledger } = this.definition;
    if (!ledger || !this.decisions) {
      await this.deps.db.transaction((tx) => this.write(tx, decided, null));
      return;
    }
    const effect = ledger(this.contextOf(decided), this.decisions.with(decided));
    if (effect === null) {
      await this.deps.db.transaction((tx) => this.write(tx, decided, null));
      return;
    }
    const done = await effect;
    // A replay: the same decision was written by the request that first used the key.
    if (!done.replayed && done.attached === undefined)
      throw new Error(`the ledger effect of review ${this.kind} did not carry the decision (attach)`);
  }

  /**
   * The decision's writes, in the transaction that carries it out: the review row (locked and
   * checked again: a live claim of the decider, four eyes), the product's record, the audit row and
   * the notice. Throwing here writes nothing, the ledger effect included.
   */
  private async write(
    tx: Queryable,
    decided: Decision<ItemOf<C>>,
    ledger: LedgerEffect | null,
  ): Promise<ReviewRow> {
    const { itemId, decision, staffId, userId } = decided;
    const row = await reviewRow(tx, this.kind, itemId, true);
    this.check(row, staffId, decision);
    // Four eyes: only a second approval completes the item (a first approval is never undone).
    if (decided.fourEyes && row?.firstApprover == null) throw new ApiError(Code.REVIEW_SECOND_APPROVER);
    const context = this.contextOf(decided);
    const written = await recordDecision(tx, {
      kind: this.kind,
      itemId,
      decision,
      staffId,
      reason: decided.reason,
      at: iso(this.deps.now()),
    });
    if (!written) throw new ApiError(this.definition.decidedCode);
    await this.definition.record(tx, { ...context, ledger });
    await this.deps.audit.appendInTx(tx, [
      {
        actor: context.actor,
        action: `${this.kind}.${decision}`,
        subject: this.subject(itemId),
        data: {
          userId,
          ...(decided.reason === null ? {} : { reason: decided.reason }),
          ...(row?.firstApprover == null ? {} : { firstApprover: actorOf(row.firstApprover) }),
          ...(ledger ? { ledger } : {}),
        },
      },
    ]);
    await this.deps.notices.notifyInTx(
      tx,
      userId,
      decided.language,
      decided.notice.kind,
      decided.notice.params,
    );
    return written;
  }
}
