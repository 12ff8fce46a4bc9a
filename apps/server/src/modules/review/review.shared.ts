import {
  ASSET_SCALES,
  type Asset,
  Code,
  formatMinor,
  type Language,
  plainDecimal,
  type ReviewMeta,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { HoldAttachment, LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { ItemOf, ListItemOf, ReviewCallSet, ReviewDefinition, ReviewNotice } from './review.define.ts';
import type { ReviewDecision, ReviewRow } from './review.repository.ts';

/*
 * What a queue's use cases share (reads, claims, decisions): the queue's context, which
 * `ReviewQueue` builds once, and the steps more than one of them takes.
 */

/** The staff member acting (the route has checked the role). */
export type ReviewActor = { staffId: number };
/** Four eyes of one amount: two approvers needed, and the threshold of its asset (see ReviewMeta). */
type FourEyesVerdict = { needed: boolean; threshold: ReviewMeta['threshold'] };
/** An item as the queue answers it: the product's fields and its review. */
export type Reviewed<T> = T & { review: ReviewMeta };

export type ReviewDeps = {
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
export type Decision<I> = {
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

/** The parts of one queue every use case works with; `ReviewQueue` builds it once. */
export type QueueContext<C extends ReviewCallSet> = {
  readonly definition: ReviewDefinition<C>;
  readonly deps: ReviewDeps;
  /** The decision of a kind with a ledger effect, written in the ledger's transaction (`review_<kind>`). */
  decisions: HoldAttachment<Decision<ItemOf<C>>, ReviewRow> | null;
};

export const iso = (ms: number) => new Date(ms).toISOString();
/** The product's item with its review beside its own fields. */
export const withReview = <T>(item: T, review: ReviewMeta): Reviewed<T> =>
  Object.assign({}, item, { review });
export const actorOf = (staffId: number) => `staff:${staffId}`;

export function subject<C extends ReviewCallSet>(ctx: QueueContext<C>, itemId: number): string {
  return `${ctx.definition.kind}:${itemId}`;
}

export async function record<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  actor: ReviewActor,
  action: string,
  about: string,
  data: unknown,
): Promise<void> {
  await ctx.deps.audit.append([
    { actor: actorOf(actor.staffId), action: `${ctx.definition.kind}.${action}`, subject: about, data },
  ]);
}

/**
 * Does this amount need two approvers, and under which threshold (none set: one approval
 * suffices, and the review says so)? Thresholds are read once per asset per call.
 */
export function fourEyesCheck<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
): (row: ListItemOf<C> | ItemOf<C>) => Promise<FourEyesVerdict> {
  const fourEyes = ctx.definition.fourEyes;
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
        amount: threshold === null ? null : plainDecimal(formatMinor(threshold, ASSET_SCALES[amount.asset])),
      },
    };
  };
}

/** The item, still pending. Unknown 10028, decided: decidedCode. */
export async function pendingItem<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  itemId: number,
): Promise<ItemOf<C>> {
  const item = await ctx.definition.get(itemId);
  if (!item) throw new ApiError(Code.NOT_FOUND);
  if (ctx.definition.facts(item).state !== 'pending') throw new ApiError(ctx.definition.decidedCode);
  return item;
}

/** Why this staff member cannot act on the item as its claimant: held by another (10035), or no claim (10036). */
export function refusal<C extends ReviewCallSet>(
  ctx: QueueContext<C>,
  row: ReviewRow | null,
  staffId: number,
  now: number,
): ApiError | null {
  if (row?.decision) return new ApiError(ctx.definition.decidedCode);
  const live = row?.claimedBy != null && row.claimUntil !== null && Date.parse(row.claimUntil) > now;
  if (live && row?.claimedBy === staffId) return null;
  if (live && row?.claimedBy != null)
    return new ApiError(Code.REVIEW_CLAIMED, { staffId: row.claimedBy, until: row.claimUntil });
  return new ApiError(Code.REVIEW_CLAIM_REQUIRED);
}

/** A 10035 names the claimant by email (looked up outside the transaction that refused). */
export async function named<C extends ReviewCallSet>(ctx: QueueContext<C>, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== Code.REVIEW_CLAIMED) return error;
  const { staffId, until } = (error.data ?? {}) as { staffId?: number; until?: string };
  if (staffId === undefined) return error;
  const ref = (await ctx.deps.staff.refsOf([staffId])).get(staffId) ?? {
    id: staffId,
    email: actorOf(staffId),
  };
  return new ApiError(Code.REVIEW_CLAIMED, { claimedBy: ref, until });
}
