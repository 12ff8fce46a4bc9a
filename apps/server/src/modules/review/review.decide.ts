import { Code, isLanguage, type Language } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { LedgerError, ledgerErrorCode } from '../ledger/ledger.service.ts';
import type { DecisionContext, ItemOf, LedgerEffect, ReviewCallSet } from './review.define.ts';
import { view } from './review.reads.ts';
import {
  type ReviewDecision,
  type ReviewRow,
  recordDecision,
  recordFirstApproval,
  reviewRow,
} from './review.repository.ts';
import {
  actorOf,
  type Decision,
  fourEyesCheck,
  iso,
  named,
  pendingItem,
  type QueueContext,
  type ReviewActor,
  type Reviewed,
  refusal,
  subject,
} from './review.shared.ts';

/*
 * Decisions: the first approval of a four-eyes item, and a decision carried out in one
 * transaction (the ledger's, for a kind with a ledger effect) with the product's record, the
 * audit row and the customer's notice.
 */

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
 * The hold attachment a kind with a ledger effect writes its decisions with (`review_<kind>`),
 * registered once with the ledger; null for a kind without one.
 */
export function decisionAttachment<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
): QueueContext<C>['decisions'] {
  const { definition, deps } = ctx;
  if (!definition.ledger) return null;
  if (!deps.ledger) throw new Error(`review ${definition.kind} has a ledger effect: give the ledger`);
  return deps.ledger.holdAttachment<Decision<ItemOf<C>>, ReviewRow>(
    `review_${definition.kind}`,
    async (tx, rows) => {
      const written = new Map<number, ReviewRow>();
      for (const { holdId, entryId, data } of rows)
        written.set(holdId, await write(ctx, tx, data, { holdId, entryId }));
      return written;
    },
  );
}

/**
 * A decision by the claimant. Above the four-eyes threshold the first approval is recorded (and
 * the claim ends, for a second staff member to take); otherwise the decision is carried out in
 * one transaction (see `ReviewService`).
 */
export async function decide<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  itemId: number,
  decision: ReviewDecision,
  reason: string | null,
): Promise<Reviewed<ItemOf<C>>> {
  const { definition, deps } = ctx;
  const item = await pendingItem(ctx, itemId);
  const fourEyes = decision === 'approved' && (await fourEyesCheck(ctx)(item)).needed;
  try {
    // Checked before anything is sent, and again on the locked row in the decision's transaction.
    const row = await reviewRow(deps.db, definition.kind, itemId);
    check(ctx, row, actor.staffId, decision);
    if (fourEyes && row?.firstApprover == null) await firstApproval(ctx, actor, itemId, item, decision);
    else await carryOut(ctx, await decisionOf(ctx, actor, itemId, item, decision, reason, fourEyes));
  } catch (error) {
    throw await named(ctx, refusalOf(error, definition.decidedCode));
  }
  const after = await definition.get(itemId);
  if (!after) throw new ApiError(Code.NOT_FOUND);
  return view(ctx, after, await reviewRow(deps.db, definition.kind, itemId));
}

/** Throws why the staff member may not decide (see `refusal`; the first approver approving again: 10037). */
function check<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  row: ReviewRow | null,
  staffId: number,
  decision: ReviewDecision,
): void {
  const refused = refusal(ctx, row, staffId, ctx.deps.now());
  if (refused) throw refused;
  if (decision === 'approved' && row?.firstApprover === staffId)
    throw new ApiError(Code.REVIEW_SECOND_APPROVER);
}

/** The first approval of a four-eyes item: recorded and audited; the claim ends. */
async function firstApproval<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  itemId: number,
  item: ItemOf<C>,
  decision: ReviewDecision,
): Promise<void> {
  const { definition, deps } = ctx;
  await deps.db.transaction(async (tx) => {
    // The row locked: a decision and a claim of the same item wait for each other.
    const row = await reviewRow(tx, definition.kind, itemId, true);
    check(ctx, row, actor.staffId, decision);
    if (!(await recordFirstApproval(tx, definition.kind, itemId, actor.staffId, iso(deps.now()))))
      throw new ApiError(Code.REVIEW_CLAIM_REQUIRED);
    await deps.audit.appendInTx(tx, [
      {
        actor: actorOf(actor.staffId),
        action: `${definition.kind}.first_approval`,
        subject: subject(ctx, itemId),
        data: { userId: definition.facts(item).userId },
      },
    ]);
  });
}

/** Everything the decision's transaction writes, read beforehand (the customer's language, the notice). */
async function decisionOf<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  itemId: number,
  item: ItemOf<C>,
  decision: ReviewDecision,
  reason: string | null,
  fourEyes: boolean,
): Promise<Decision<ItemOf<C>>> {
  const { userId } = ctx.definition.facts(item);
  const customer = await ctx.deps.customers.get(userId);
  const language: Language = customer && isLanguage(customer.language) ? customer.language : 'en';
  const decided = { itemId, item, userId, decision, reason, staffId: actor.staffId, fourEyes, language };
  return { ...decided, notice: ctx.definition.notice(contextOf(ctx, decided)) };
}

function contextOf<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  decided: Omit<Decision<ItemOf<C>>, 'notice'>,
): DecisionContext<ItemOf<C>> {
  const { kind } = ctx.definition;
  return {
    kind,
    itemId: decided.itemId,
    item: decided.item,
    decision: decided.decision,
    reason: decided.reason,
    staffId: decided.staffId,
    actor: actorOf(decided.staffId),
    idempotencyKey: `review:${kind}:${decided.itemId}:${decided.decision}`,
  };
}

/**
 * Carries out a decision in one transaction: the kind's ledger effect carrying the decision as its
 * attachment, or (no ledger effect) a transaction of its own.
 */
async function carryOut<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  decided: Decision<ItemOf<C>>,
): Promise<void> {
  const { ledger } = ctx.definition;
  if (!ledger || !ctx.decisions) {
    await ctx.deps.db.transaction((tx) => write(ctx, tx, decided, null));
    return;
  }
  const effect = ledger(contextOf(ctx, decided), ctx.decisions.with(decided));
  if (effect === null) {
    await ctx.deps.db.transaction((tx) => write(ctx, tx, decided, null));
    return;
  }
  const done = await effect;
  // A replay: the same decision was written by the request that first used the key.
  if (!done.replayed && done.attached === undefined)
    throw new Error(`the ledger effect of review ${ctx.definition.kind} did not carry the decision (attach)`);
}

/**
 * The decision's writes, in the transaction that carries it out: the review row (locked and
 * checked again: a live claim of the decider, four eyes), the product's record, the audit row and
 * the notice. Throwing here writes nothing, the ledger effect included.
 */
async function write<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  tx: Queryable,
  decided: Decision<ItemOf<C>>,
  ledger: LedgerEffect | null,
): Promise<ReviewRow> {
  const { definition, deps } = ctx;
  const { itemId, decision, staffId, userId } = decided;
  const row = await reviewRow(tx, definition.kind, itemId, true);
  check(ctx, row, staffId, decision);
  // Four eyes: only a second approval completes the item (a first approval is never undone).
  if (decided.fourEyes && row?.firstApprover == null) throw new ApiError(Code.REVIEW_SECOND_APPROVER);
  const context = contextOf(ctx, decided);
  const written = await recordDecision(tx, {
    kind: definition.kind,
    itemId,
    decision,
    staffId,
    reason: decided.reason,
    at: iso(deps.now()),
  });
  if (!written) throw new ApiError(definition.decidedCode);
  await definition.record(tx, { ...context, ledger });
  await deps.audit.appendInTx(tx, [
    {
      actor: context.actor,
      action: `${definition.kind}.${decision}`,
      subject: subject(ctx, itemId),
      data: {
        userId,
        ...(decided.reason === null ? {} : { reason: decided.reason }),
        ...(row?.firstApprover == null ? {} : { firstApprover: actorOf(row.firstApprover) }),
        ...(ledger ? { ledger } : {}),
      },
    },
  ]);
  await deps.notices.notifyInTx(tx, userId, decided.language, decided.notice.kind, decided.notice.params);
  return written;
}
