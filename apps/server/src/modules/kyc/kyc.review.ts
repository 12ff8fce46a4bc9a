import { Code, kycReviewCalls } from '@swx/contract';
import { defineReview, type ReviewNotice } from '../review/review.define.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { KycService } from './kyc.service.ts';

/**
 * KYC on the staff review queue (modules/review): admin and compliance read the queue, compliance
 * claims and decides; no money moves, so no ledger effect and no four eyes. The decision sets the
 * submission verified or failed, and the customer reads `kyc_verified` or `kyc_failed` (with the
 * reason) in their language. The reviewer is named by email beside the audit actor.
 */
export function kycReview(kyc: KycService, staff: Pick<StaffService, 'refOfActor'>) {
  return defineReview({
    kind: 'kyc',
    calls: kycReviewCalls,
    decidedCode: Code.WRONG_AUTHENTICATION_STATUS,
    list: (page) => kyc.queue(page),
    get: async (id) => {
      const review = await kyc.review(id);
      return review && { ...review, reviewer: await staff.refOfActor(review.reviewedBy) };
    },
    facts: (review) => ({
      userId: review.userId,
      state: review.status === 'pending' ? 'pending' : review.status === 'verified' ? 'approved' : 'rejected',
    }),
    record: (tx, decided) =>
      kyc.recordDecision(tx, decided.itemId, {
        approve: decided.decision === 'approved',
        staffId: decided.staffId,
        reason: decided.reason,
      }),
    notice: (decided): ReviewNotice => {
      if (decided.decision === 'approved') return { kind: 'kyc_verified', params: {} };
      return { kind: 'kyc_failed', params: { reason: decided.reason ?? '' } };
    },
  });
}
