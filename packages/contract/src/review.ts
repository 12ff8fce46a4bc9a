import { z } from 'zod/mini';
import { Code } from './codes.ts';
import { wireId } from './ids.ts';
import type { AdminCallDefinition, StaffRole } from './staffBase.ts';

/**
 * The staff review queue: one pattern for every "customer submits, staff decide" flow (KYC now;
 * deposit proofs, withdrawals, loan applications, repayment proofs and fund payment proofs next).
 * A product declares its calls with `reviewCalls` from the schemas of its items and the roles
 * allowed; every item a call answers carries `review`: its state, the claim (who holds the lease,
 * until when) and the approvals so far. Deciding needs a live claim of the decider; above a
 * product's four-eyes threshold a second approver from another staff account completes it.
 */

/** A claim lasts 15 minutes; the claimant renews it by claiming again. */
export const REVIEW_LEASE_SECONDS = 15 * 60;
/** pending: waiting for a decision (a decision and its ledger effect are one transaction). */
export const REVIEW_STATES = ['pending', 'approved', 'rejected'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** A staff member as the queue names them: id and email. */
export const reviewStaff = z.object({ id: z.int(), email: z.string() });

export const reviewMeta = z.object({
  state: z.enum(REVIEW_STATES),
  /** The live claim: who reviews the item and until when; null when nobody does. */
  claim: z.nullable(z.object({ staff: reviewStaff, until: z.string() })),
  /** Two approvers from different staff accounts are needed (the amount is above the threshold). */
  fourEyes: z.boolean(),
  /**
   * The four-eyes threshold of the item's asset (`fourEyesAbove.<kind>.<asset>`, in its units):
   * `amount` null when none is set, so one approval suffices whatever the amount; null for a kind
   * (or an item) without four eyes.
   */
  threshold: z.nullable(z.object({ asset: z.string(), amount: z.nullable(z.string()) })),
  /** The approvals given so far: the first of a four-eyes item, then the deciding one. */
  approvals: z.array(z.object({ staff: reviewStaff, at: z.string() })),
  /** Who decided, and when; null until decided (and for decisions made before the queue). */
  decidedBy: z.nullable(reviewStaff),
  decidedAt: z.nullable(z.string()),
});
export type ReviewMeta = z.infer<typeof reviewMeta>;

export const reviewIdParams = z.object({ id: wireId() });
/** Keyset: `after` is the last id of the page before (the queue is oldest first). */
export const reviewListQuery = z.object({ after: z.optional(z.string().check(z.regex(/^\d{1,15}$/))) });
/** A rejection's reason: the customer reads it. */
export const reviewRejectBody = z.object({
  reason: z.string().check(z.trim(), z.minLength(3), z.maxLength(500)),
});

/** Why a claimant's call is refused, the same for every kind (each call's `refusals`). */
const HELD_BY_ANOTHER = {
  [Code.REVIEW_CLAIMED]: 'another staff member holds the claim (data: claimedBy, until)',
} as const;
const NO_LIVE_CLAIM = { [Code.REVIEW_CLAIM_REQUIRED]: 'you hold no live claim of the item' } as const;

/** One page of a queue is this long; a shorter page is the last. */
export const REVIEW_PAGE = 50;

/** What a product declares of its review kind. */
type ReviewDeclaration<L extends z.ZodMiniObject, I extends z.ZodMiniObject> = {
  /** e.g. `/kyc`: the queue is `/kyc/queue`, an item `/kyc/:id`. */
  path: string;
  /** What an item is called in the summaries, e.g. "verification". */
  noun: string;
  /** A row of the queue and a whole item: the product's schemas, each with an `id`. */
  listItem: L;
  item: I;
  readers: readonly StaffRole[];
  deciders: readonly StaffRole[];
};

/**
 * The staff calls of one review kind under `/swx/admin<path>`: the queue (pending items, oldest
 * first, 50 a page), one item, claim (or renew), release, approve and reject with a reason the
 * customer sees. Readers list and read; deciders claim and decide.
 */
export function reviewCalls<L extends z.ZodMiniObject, I extends z.ZodMiniObject>(
  declaration: ReviewDeclaration<L, I>,
) {
  const item = z.extend(declaration.item, { review: reviewMeta });
  return {
    ...readerCalls(declaration, item),
    ...claimCalls(declaration, item),
    ...decisionCalls(declaration, item),
  } as const satisfies Record<string, AdminCallDefinition>;
}

/** The readers' calls: the queue and one item. */
function readerCalls<L extends z.ZodMiniObject, D extends z.ZodMiniType>(
  { path, noun, listItem, readers }: ReviewDeclaration<L, z.ZodMiniObject>,
  item: D,
) {
  return {
    list: {
      method: 'GET',
      path: `${path}/queue`,
      summary: `Pending ${noun}s, oldest first, ${REVIEW_PAGE} a page (after: the last id of the page before), with who reviews each`,
      roles: readers,
      query: reviewListQuery,
      data: z.array(z.extend(listItem, { review: reviewMeta })),
    },
    get: {
      method: 'GET',
      path: `${path}/:id`,
      summary: `One ${noun} with its review: state, claim and approvals`,
      roles: readers,
      params: reviewIdParams,
      data: item,
    },
  } as const satisfies Record<string, AdminCallDefinition>;
}

/** The deciders' hold of an item: claim (or renew) and release. */
function claimCalls<D extends z.ZodMiniType>(
  { path, noun, deciders }: ReviewDeclaration<z.ZodMiniObject, z.ZodMiniObject>,
  item: D,
) {
  return {
    claim: {
      method: 'POST',
      path: `${path}/:id/claim`,
      summary: `Claim a pending ${noun} for ${REVIEW_LEASE_SECONDS / 60} minutes (again to renew); refused while another staff member holds it (${Code.REVIEW_CLAIMED})`,
      roles: deciders,
      params: reviewIdParams,
      data: item,
      refusals: HELD_BY_ANOTHER,
    },
    release: {
      method: 'POST',
      path: `${path}/:id/release`,
      summary: `Give up your claim of a ${noun}`,
      roles: deciders,
      params: reviewIdParams,
      data: item,
      refusals: { ...HELD_BY_ANOTHER, ...NO_LIVE_CLAIM },
    },
  } as const satisfies Record<string, AdminCallDefinition>;
}

/** The deciders' decisions on an item they have claimed: approve, or reject with a reason. */
function decisionCalls<D extends z.ZodMiniType>(
  { path, noun, deciders }: ReviewDeclaration<z.ZodMiniObject, z.ZodMiniObject>,
  item: D,
) {
  return {
    approve: {
      method: 'POST',
      path: `${path}/:id/approve`,
      summary: `Approve a ${noun} you have claimed; above the four-eyes threshold the first approval waits for a second staff member`,
      roles: deciders,
      params: reviewIdParams,
      data: item,
      refusals: {
        ...HELD_BY_ANOTHER,
        ...NO_LIVE_CLAIM,
        [Code.REVIEW_SECOND_APPROVER]: 'the first approver of a four-eyes item approving again',
      },
    },
    reject: {
      method: 'POST',
      path: `${path}/:id/reject`,
      summary: `Reject a ${noun} you have claimed, with a reason the customer sees`,
      roles: deciders,
      params: reviewIdParams,
      body: reviewRejectBody,
      data: item,
      refusals: { ...HELD_BY_ANOTHER, ...NO_LIVE_CLAIM },
    },
  } as const satisfies Record<string, AdminCallDefinition>;
}

type ReviewCall<M extends 'GET' | 'POST'> = {
  method: M;
  path: string;
  summary: string;
  roles: readonly StaffRole[];
  data: z.ZodMiniType;
};
/** What any kind's `reviewCalls(...)` is: the generic server and screen take it. */
export type ReviewCallSet = {
  list: ReviewCall<'GET'> & { query: typeof reviewListQuery };
  get: ReviewCall<'GET'> & { params: typeof reviewIdParams };
  claim: ReviewCall<'POST'> & { params: typeof reviewIdParams };
  release: ReviewCall<'POST'> & { params: typeof reviewIdParams };
  approve: ReviewCall<'POST'> & { params: typeof reviewIdParams };
  reject: ReviewCall<'POST'> & { params: typeof reviewIdParams; body: typeof reviewRejectBody };
};
