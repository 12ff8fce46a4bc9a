import { ASSET_SCALES, Code, depositReviewCalls, parseMinor, withdrawalReviewCalls } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import {
  type DecisionAttachment,
  type DecisionContext,
  defineReview,
  fourEyesOnAmount,
  type ReviewNotice,
  thresholdFromParams,
} from '../review/review.define.ts';
import type { Deposits } from './wallet.deposits.ts';
import { decimal, shownAddress } from './wallet.networks.ts';
import type { Withdrawals } from './wallet.withdrawals.ts';

const LIVE = 'live' as const;

/**
 * Deposit proofs on the staff review queue: finance and admin decide. The declared amount was held
 * on external_clearing when the customer declared it; rejection voids that hold. Approval is
 * refused with 10042 if the watcher credited the same transaction meanwhile, and:
 *
 * - on a network the platform watches, with 10047 unless the chain shows the transaction mined and
 *   moving at least the declared amount to the customer's deposit address (read again as the
 *   approval starts). Approved, the hold is released and the deposit follows the watcher's path
 *   from its block: credited with a lock at the network's confirmations, unlocked at its depth.
 * - on a network without a node here (Bitcoin), checked by hand: the hold is posted to the wallet,
 *   two approvers above `fourEyesAbove.depositProof.<asset>`.
 *
 * The customer reads `deposit_approved` or `deposit_rejected`.
 */
export function depositReview(deposits: Deposits, ledger: LedgerService, params: Pick<ParamsService, 'get'>) {
  const row = async (id: number, tx?: Queryable) => {
    const found = await deposits.byId(id, tx);
    return found?.source === 'proof' ? found : null;
  };
  return defineReview({
    kind: 'deposit_proof',
    calls: depositReviewCalls,
    decidedCode: Code.WRONG_COLLECTION_STATUS,
    list: (page) => depositQueue(deposits, page),
    get: async (id) => {
      const d = await row(id);
      if (!d) return null;
      return deposits.proofItem(d);
    },
    facts: (item) => ({
      userId: item.userId,
      state:
        item.state === 'pending_review' ? 'pending' : item.state === 'rejected' ? 'rejected' : 'approved',
    }),
    // Four eyes for the proofs checked by hand; the chain checks the others.
    fourEyes: {
      amountOf: (item) =>
        item.onChain ? null : { asset: item.asset, minor: parseMinor(item.amount, ASSET_SCALES[item.asset]) },
      above: thresholdFromParams(params, 'fourEyesAbove.depositProof'),
    },
    ledger: (context, attach) => decideDeposit(deposits, ledger, context, attach),
    record: async (tx, decided) => {
      const d = await row(decided.itemId, tx);
      if (!d) throw new Error(`deposit ${decided.itemId} is gone`);
      if (decided.decision === 'approved') await deposits.approveInTx(tx, d, decided.ledger?.entryId ?? null);
      else await deposits.rejectInTx(tx, d, decided.reason ?? '');
    },
    notice: (decided): ReviewNotice => {
      const params = { amount: decided.item.amount, asset: decided.item.asset };
      return decided.decision === 'approved'
        ? { kind: 'deposit_approved', params }
        : { kind: 'deposit_rejected', params: { ...params, reason: decided.reason ?? '' } };
    },
  });
}

/**
 * Withdrawals on the staff review queue: finance and admin decide, two of them above
 * `fourEyesAbove.withdrawal.<asset>`. Approval moves no money (the hold stays until the
 * transaction confirms on chain; the wallet job signs and sends it); rejection voids the hold.
 */
export function withdrawalReview(
  withdrawals: Withdrawals,
  ledger: LedgerService,
  kyc: Pick<KycService, 'stateOf'>,
  params: Pick<ParamsService, 'get'>,
) {
  return defineReview({
    kind: 'withdrawal',
    calls: withdrawalReviewCalls,
    decidedCode: Code.WRONG_COLLECTION_STATUS,
    list: async ({ after, limit }) =>
      (await withdrawals.pending(after, limit)).map((w) => ({
        id: w.id,
        userId: w.userId,
        customer: w.customer,
        network: w.network,
        asset: w.asset,
        amount: decimal(w, w.amount),
        receive: decimal(w, w.receive),
        createdAt: w.createdAt,
      })),
    get: (id) => withdrawalItem(withdrawals, kyc, id),
    facts: (item) => ({
      userId: item.userId,
      state:
        item.state === 'pending_review' ? 'pending' : item.state === 'rejected' ? 'rejected' : 'approved',
    }),
    fourEyes: fourEyesOnAmount(params, 'fourEyesAbove.withdrawal'),
    ledger: (context, attach) => {
      if (context.decision === 'approved') return null;
      const release = async () => {
        const w = await withdrawals.byId(context.itemId);
        if (!w) throw new Error(`withdrawal ${context.itemId} is gone`);
        return ledger.voidHold({
          holdId: w.holdId,
          idempotencyKey: context.idempotencyKey,
          actor: context.actor,
          attach,
        });
      };
      return release();
    },
    record: (tx, decided) =>
      decided.decision === 'approved'
        ? withdrawals.approveInTx(tx, decided.itemId)
        : withdrawals.rejectInTx(tx, decided.itemId, decided.reason ?? ''),
    notice: (decided): ReviewNotice => {
      const item = decided.item;
      const params = { amount: item.amount, asset: item.asset, receive: item.receive, address: item.address };
      return decided.decision === 'approved'
        ? { kind: 'withdrawal_approved', params }
        : { kind: 'withdrawal_rejected', params: { ...params, reason: decided.reason ?? '' } };
    },
  });
}

/** The pending proofs, oldest first, each saying whether the chain checks it. */
async function depositQueue(deposits: Deposits, page: { after: number | null; limit: number }) {
  const pending = await deposits.pendingProofs(page.after, page.limit);
  const onChain = new Map(
    await Promise.all(
      [...new Set(pending.map((d) => d.network))].map(
        async (network) => [network, await deposits.checkedOnChain(network)] as const,
      ),
    ),
  );
  return pending.map((d) => ({
    id: d.id,
    userId: d.userId,
    customer: d.customer,
    network: d.network,
    asset: d.asset,
    amount: decimal(d, d.amount),
    txHash: d.txHash,
    createdAt: d.createdAt,
    onChain: onChain.get(d.network) ?? false,
  }));
}

/**
 * A proof's decision on the ledger: rejected, the declaration's hold voided; approved on a watched
 * network, the chain's word first, then the hold released and the watcher's path credits it;
 * approved by hand, the hold posted to the wallet.
 */
async function decideDeposit(
  deposits: Deposits,
  ledger: LedgerService,
  context: DecisionContext<unknown>,
  attach: DecisionAttachment,
) {
  const d = await deposits.byId(context.itemId);
  if (d?.source !== 'proof' || d.clearingHoldId === null)
    throw new Error(`deposit ${context.itemId} has no hold`);
  const { idempotencyKey, actor } = context;
  if (context.decision === 'rejected')
    return ledger.voidHold({ holdId: d.clearingHoldId, idempotencyKey, actor, attach });
  if (await deposits.checkedOnChain(d.network)) {
    await deposits.confirmOnChain(d);
    const released = await ledger.voidHold({ holdId: d.clearingHoldId, idempotencyKey, actor, attach });
    await deposits.follow(d.id);
    return released;
  }
  return ledger.postHold({
    holdId: d.clearingHoldId,
    toAccountId: await ledger.walletAccount(LIVE, d.userId, d.asset),
    amount: d.amount,
    kind: 'deposit',
    idempotencyKey,
    actor,
    reference: `deposit:${d.id}`,
    attach,
  });
}

/** A withdrawal as staff review it: its figures, when its address was added, the customer's identity. */
async function withdrawalItem(withdrawals: Withdrawals, kyc: Pick<KycService, 'stateOf'>, id: number) {
  const w = await withdrawals.byId(id);
  if (!w) return null;
  const [address, kycState, customer] = await Promise.all([
    withdrawals.address(w.addressId),
    kyc.stateOf(w.userId),
    withdrawals.customerName(w.userId),
  ]);
  return {
    id: w.id,
    userId: w.userId,
    customer,
    network: w.network,
    asset: w.asset,
    amount: decimal(w, w.amount),
    receive: decimal(w, w.receive),
    createdAt: w.createdAt,
    address: shownAddress(w.address),
    fee: decimal(w, w.fee),
    addressAddedAt: address?.createdAt ?? w.createdAt,
    kycVerified: kycState === 'verified',
    state: w.state,
    txHash: w.txHash,
    reason: w.reason,
  };
}
