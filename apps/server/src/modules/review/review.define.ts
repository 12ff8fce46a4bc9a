import { ASSET_SCALES, type Asset, type CodeValue, parseMinor, type ReviewCallSet } from '@swx/contract';
import type { z } from 'zod/mini';
import type { Queryable } from '../../platform/db.ts';
import type {
  EntryResult,
  HoldAttached,
  HoldResult,
  HoldTarget,
  LedgerService,
  PostHoldRequest,
} from '../ledger/ledger.service.ts';
import type { NoticeKind } from '../notices/notices.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import type { ReviewDecision, ReviewRow } from './review.repository.ts';

export type { ReviewCallSet, ReviewDecision };

type WithoutReview<T> = T extends { review: unknown } ? Omit<T, 'review'> : T;
/** A whole item as the product answers it (the queue adds `review`). */
export type ItemOf<C extends ReviewCallSet> = WithoutReview<z.infer<C['get']['data']>>;
/** A row of the queue as the product answers it. */
export type ListItemOf<C extends ReviewCallSet> = WithoutReview<
  z.infer<C['list']['data']> extends readonly (infer R)[] ? R : never
>;

/** An amount four eyes looks at: minor units of an asset. */
export type ReviewAmount = { asset: Asset; minor: bigint };

/** A decision being carried out. */
export type DecisionContext<I> = {
  kind: string;
  itemId: number;
  item: I;
  decision: ReviewDecision;
  /** The rejection's reason (the customer reads it); null for an approval. */
  reason: string | null;
  /** The staff member who decided (the second approver of a four-eyes item) and the audit actor. */
  staffId: number;
  actor: string;
  /** The idempotency key of the decision's ledger effect: use it, and only it, for that request. */
  idempotencyKey: string;
};

/** The customer's notice of a decision: a notices template and its parameters. */
export type ReviewNotice = { kind: NoticeKind; params: Record<string, string> };

/** What the ledger effect did, for the product's record and the audit row: the hold, and the entry a post wrote. */
export type LedgerEffect = HoldTarget;

/**
 * The decision as the ledger effect carries it (`ledger(context, attach)`): its writer records the
 * decision, the product's record, the audit row and the notice in the ledger's transaction.
 */
export type DecisionAttachment = HoldAttached<ReviewRow>;

/**
 * A review kind: what a product declares to have its submissions decided by staff. The queue's
 * claim lease, four eyes, audit rows, notice and the one transaction of a decision come from the
 * review service; the product says where its items are, how a decision changes them and what the
 * customer is told.
 */
export type ReviewDefinition<C extends ReviewCallSet> = {
  /** Names the rows in review_items, the audit actions (`<kind>.approved`) and subjects (`<kind>:<id>`). */
  kind: string;
  /** The contract's calls of this kind (`reviewCalls(...)`): paths and roles. */
  calls: C;
  /** Answered when the item is no longer pending (e.g. 10019 for KYC). */
  decidedCode: CodeValue;
  /** How long a claim lasts (the contract's REVIEW_LEASE_SECONDS by default). */
  leaseSeconds?: number;
  /** Pending items, oldest first (by id), after the id `after`. */
  list(page: { after: number | null; limit: number }): Promise<(ListItemOf<C> & { id: number })[]>;
  /** One item, any state; null when there is none. */
  get(id: number): Promise<ItemOf<C> | null>;
  /** Whose item it is and its state in the product's own terms. */
  facts(item: ItemOf<C>): { userId: number; state: 'pending' | ReviewDecision };
  /**
   * Four eyes: above `above(asset)` minor units (null: never) an approval needs a second approver
   * from another staff account. `amountOf` reads the amount of a queue row or an item.
   */
  fourEyes?: {
    amountOf(row: ListItemOf<C> | ItemOf<C>): ReviewAmount | null;
    above(asset: Asset): Promise<bigint | null>;
  };
  /**
   * The decision's ledger effect: ONE hold operation (`postHold` or `voidHold`, or `hold`) keyed
   * by `context.idempotencyKey` and carrying `attach`, whose result it answers. The attachment
   * writes the decision, `record`, the audit row and the notice in that operation's transaction:
   * all of it or, when the ledger refuses or anything throws, nothing. A decision that moves no
   * money (a withdrawal's approval: its hold stays until the chain confirms) answers null and is
   * written in a transaction of its own.
   */
  ledger?(
    context: DecisionContext<ItemOf<C>>,
    attach: DecisionAttachment,
  ): Promise<EntryResult<ReviewRow> | HoldResult<ReviewRow>> | null;
  /** The product's own change (its state, its record), in the decision's transaction (`ledger`: null without a ledger effect). */
  record(tx: Queryable, context: DecisionContext<ItemOf<C>> & { ledger: LedgerEffect | null }): Promise<void>;
  /** The customer's notice (written in the same transaction, read in the reader's language). */
  notice(context: DecisionContext<ItemOf<C>>): ReviewNotice;
};

/** Declares a review kind; register it with `ReviewService.register` and mount it with `reviewRoutes`. */
export function defineReview<C extends ReviewCallSet>(definition: ReviewDefinition<C>): ReviewDefinition<C> {
  return definition;
}

/**
 * A four-eyes threshold staff set as system parameters: `<prefix>.<asset>` is the amount in the
 * asset's units (e.g. `fourEyesAbove.withdrawal.USDT` = `10000`); an asset without one never
 * needs a second approver.
 */
export function thresholdFromParams(
  params: Pick<ParamsService, 'get'>,
  prefix: string,
): (asset: Asset) => Promise<bigint | null> {
  return async (asset) => {
    const value = await params.get(`${prefix}.${asset}`);
    return value === null ? null : parseMinor(value, ASSET_SCALES[asset]);
  };
}

/** Four eyes on an item's `amount` of its `asset`, above the staff's `<prefix>.<asset>` parameter. */
export function fourEyesOnAmount(params: Pick<ParamsService, 'get'>, prefix: string) {
  return {
    amountOf: (row: { asset: Asset; amount: string }): ReviewAmount => ({
      asset: row.asset,
      minor: parseMinor(row.amount, ASSET_SCALES[row.asset]),
    }),
    above: thresholdFromParams(params, prefix),
  };
}

/** Where an approval posts the money a hold keeps: the account, the amount, the entry's kind and reference. */
export type HoldPosting = Pick<PostHoldRequest, 'toAccountId' | 'amount' | 'kind' | 'reference'>;

/**
 * The ledger effect of a decision on money held for review (a proof's amount on clearing, a loan's
 * pool reservation): rejected, the hold is voided; approved, it is posted where `posting` says.
 * Keyed by the decision's idempotency key and carrying its attachment.
 */
export async function decideHold(
  ledger: Pick<LedgerService, 'voidHold' | 'postHold'>,
  context: DecisionContext<unknown>,
  attach: DecisionAttachment,
  holdId: number,
  posting: () => Promise<HoldPosting>,
): Promise<EntryResult<ReviewRow> | HoldResult<ReviewRow>> {
  const { idempotencyKey, actor } = context;
  if (context.decision === 'rejected') return ledger.voidHold({ holdId, idempotencyKey, actor, attach });
  return ledger.postHold({ holdId, ...(await posting()), idempotencyKey, actor, attach });
}
