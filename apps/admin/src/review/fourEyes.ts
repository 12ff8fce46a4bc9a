import type { Language, ReviewMeta } from '@swx/contract';
import { shownAmount } from '../amount.ts';
import { fill, type Text } from '../text.ts';

/**
 * Why one approval decides an item that needs no second approver: under the asset's four-eyes
 * threshold (named), or no threshold set for the asset (said plainly, never "below the threshold").
 * A decided item says only that one approval decided it.
 */
export function oneApprovalReason(text: Text, review: ReviewMeta, language: Language): string {
  const threshold = review.threshold;
  if (review.state !== 'pending' || threshold === null) return text.review.oneApproval;
  if (threshold.amount === null) return fill(text.review.fourEyesUnset, { asset: threshold.asset });
  return fill(text.review.fourEyesBelow, {
    amount: shownAmount(language, threshold.amount, threshold.asset),
    asset: threshold.asset,
  });
}
