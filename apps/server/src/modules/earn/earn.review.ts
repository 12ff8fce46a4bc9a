import { ASSET_SCALES, Code, earnProofReviewCalls, formatMinor } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import { EARN } from '../ledger/ledger.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import { utcDay } from '../products/figures.ts';
import {
  decideHold,
  defineReview,
  fourEyesOnAmount,
  type LedgerEffect,
  type ReviewDecision,
  type ReviewNotice,
} from '../review/review.define.ts';
import { scheduleOf } from './earn.figures.ts';
import { approveProofInTx, type InvestmentRow, rejectProofInTx } from './earn.repository.ts';
import { type EarnService, rowTerms } from './earn.service.ts';

/** An investment paid by proof (read in the caller's transaction when given one); any other: null. */
async function proofRow(earn: EarnService, id: number, tx?: Queryable): Promise<InvestmentRow | null> {
  const found = await earn.investmentRow(id, tx);
  return found?.payWith === 'proof' ? found : null;
}

const proofItem = (r: InvestmentRow) => ({
  id: r.id,
  userId: r.userId,
  customer: r.customer,
  productName: r.productName,
  asset: r.asset,
  amount: formatMinor(r.amount, ASSET_SCALES[r.asset]),
  txHash: r.txHash ?? '',
  createdAt: new Date(r.createdAt).toISOString(),
});

/** The investment's own change: rejected, or approved and started (interest from the next day). */
async function recordDecision(
  earn: EarnService,
  now: () => number,
  tx: Queryable,
  decided: { itemId: number; decision: ReviewDecision; reason: string | null; ledger: LedgerEffect | null },
): Promise<void> {
  const at = new Date(now()).toISOString();
  if (decided.decision === 'rejected') return rejectProofInTx(tx, decided.itemId, decided.reason ?? '', at);
  const r = await proofRow(earn, decided.itemId, tx);
  if (!r) throw new Error(`earn proof ${decided.itemId} is gone`);
  const schedule = scheduleOf(rowTerms(r), utcDay(now()));
  await approveProofInTx(tx, decided.itemId, {
    entryId: decided.ledger?.entryId ?? null,
    accrualStart: schedule.accrualStart,
    endDay: schedule.endDay,
    at,
  });
}

/**
 * Fund payment proofs on the staff review queue: finance and admin decide, two of them above
 * `fourEyesAbove.earn.<asset>`. The amount was held on external clearing when the customer sent the
 * proof, and a fixed term's interest was promised from the reserve then. Approval posts the hold
 * to the customer's earn account and starts the investment (interest from the next day); rejection
 * voids the hold, and the daily job returns the promised interest to the reserve.
 */
export function earnProofReview(
  earn: EarnService,
  ledger: LedgerService,
  params: Pick<ParamsService, 'get'>,
  payIn: (userId: number) => Promise<string | null>,
  now: () => number,
) {
  return defineReview({
    kind: 'earn_proof',
    calls: earnProofReviewCalls,
    decidedCode: Code.WRONG_COLLECTION_STATUS,
    list: async ({ after, limit }) => (await earn.pendingProofs(after, limit)).map(proofItem),
    get: async (id) => {
      const r = await proofRow(earn, id);
      if (!r) return null;
      return {
        ...proofItem(r),
        proof: r.proofUpload ?? '',
        payInAddress: await payIn(r.userId),
        status: r.status,
        reason: r.reason,
      };
    },
    facts: (item) => ({
      userId: item.userId,
      state: item.status === 'pending' ? 'pending' : item.status === 'rejected' ? 'rejected' : 'approved',
    }),
    fourEyes: fourEyesOnAmount(params, 'fourEyesAbove.earn'),
    ledger: async (context, attach) => {
      const r = await proofRow(earn, context.itemId);
      if (!r || r.clearingHoldId === null) throw new Error(`earn proof ${context.itemId} has no hold`);
      return decideHold(ledger, context, attach, r.clearingHoldId, async () => {
        // The interest is promised before the money moves (a crash after the proof may have left it undone).
        await earn.promiseOf(r);
        return {
          toAccountId: await ledger.accountId(r.book, r.userId, r.asset, EARN),
          amount: r.amount,
          kind: 'earn_subscribe',
          reference: `earn:${r.productId}:${r.id}`,
        };
      });
    },
    record: (tx, decided) => recordDecision(earn, now, tx, decided),
    notice: (decided): ReviewNotice => {
      const params = {
        amount: decided.item.amount,
        asset: decided.item.asset,
        product: decided.item.productName,
      };
      return decided.decision === 'approved'
        ? { kind: 'earn_proof_approved', params }
        : { kind: 'earn_proof_rejected', params: { ...params, reason: decided.reason ?? '' } };
    },
  });
}
