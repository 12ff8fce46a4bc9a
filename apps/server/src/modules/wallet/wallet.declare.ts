import { type Book, Code, type Deposit, type RechargeBody } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { addressOn, depositWire } from './wallet.deposit-reads.ts';
import { depositByClearingHold, transactionClaimed } from './wallet.deposits.repository.ts';
import { amountOf, decimal } from './wallet.networks.ts';
import { type DepositsContext, LIVE, normalHash, requireLive } from './wallet.shared.ts';

/**
 * Spec `recharge`: a deposit declared with a payment proof, held on external_clearing until staff
 * decide (approve: the hold is posted to the customer's wallet; reject: voided). Refused below the
 * network's minimum (10038 with the asset and minimum), for a receive address that is not the
 * customer's own (10026 on address), and for a transaction already credited or declared (10042).
 */
export async function declare(
  ctx: DepositsContext,
  book: Book,
  userId: number,
  body: RechargeBody,
): Promise<Deposit> {
  requireLive(book);
  const network = await ctx.networks.get(body.network);
  const amount = amountOf(network, body.amount);
  if (amount < network.depositMinimum)
    throw new ApiError(Code.BELOW_MINIMUM, {
      asset: network.asset,
      minimum: decimal(network, network.depositMinimum),
    });
  const mine = await addressOn(ctx, userId, network.chain);
  if (body.address.trim().toLowerCase() !== mine.toLowerCase())
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'address', issue: 'not_yours' }]);
  const txHash = normalHash(body.txHash);
  if (await transactionClaimed(ctx.db, txHash, null)) throw new ApiError(Code.TRANSACTION_ALREADY_USED);
  const clearing = await ctx.ledger.systemAccount(LIVE, network.asset, 'external_clearing');
  const held = await ctx.ledger.hold({
    book: LIVE,
    accountId: clearing,
    amount,
    idempotencyKey: `deposit-proof:${userId}:${txHash}:${body.proof}`,
    actor: `customer:${userId}`,
    reference: `deposit-proof:${txHash}`,
    attach: ctx.attachments.declared.with({
      userId,
      network: network.id,
      asset: network.asset,
      amount: amount.toString(),
      txHash,
      address: mine,
      minimum: network.depositMinimum.toString(),
      lastSix: body.lastSix,
      proof: body.proof,
    }),
  });
  // The row the hold's attachment wrote (or, on a replay, wrote the first time).
  const row = await depositByClearingHold(ctx.db, held.holdId);
  if (!row) throw new ApiError(Code.NOT_FOUND);
  return depositWire(row, await ctx.networks.all(), null);
}
