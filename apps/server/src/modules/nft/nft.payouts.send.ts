import type { Queryable } from '../../platform/db.ts';
import type { EntryAttachment } from '../ledger/ledger.service.ts';
import type { ChainPayout } from '../products/ports.ts';
import {
  finishPayout,
  markPayoutSending,
  openPayouts,
  type PayoutRow,
  setPayoutTx,
} from './nft.payouts.repository.ts';
import type { NftService } from './nft.service.ts';

/**
 * An approved payout sent on the chain to the charity's own address, through the wallet's port
 * `ChainPayout` (the hot wallet and its nonces are the wallet's): approved → sending (once), then
 * the port (idempotent by `nft-payout:<id>`: the transaction stored before it is broadcast, so a
 * crash or a second node never sends twice) until the transaction is confirmed or fails. Sent:
 * ONE entry pending_withdrawals → external_clearing whose attachment marks the payout sent and
 * appends its leaf (with the transaction hash) to the donation log. Failed (no chain, an asset the
 * chain does not carry, a reverted transaction, its nonce taken by another transaction: `dropped`):
 * ONE entry pending_withdrawals → charity, the money back on the charity account, with the reason.
 * Unmined long after the hot wallet's replacements at a higher fee, its nonce unused: `stuck`, left
 * for staff and still followed (never failed while it may yet be mined: never paid twice).
 */

/** What the `nft` entries of a payout carry to their attachment (one writer per entry kind). */
export type PayoutStep =
  | { step: 'approve'; payoutId: number; staffId: number; at: string }
  | { step: 'sent'; payoutId: number; asset: string; amount: bigint; txHash: string; at: string }
  | { step: 'failed'; payoutId: number; reason: string; at: string };

/** A payout's leaf appended in the transaction that marks it sent; answers its leaf index. */
export type PayoutLeafAppend = (
  tx: Queryable,
  leaf: { kind: 'payout'; asset: string; amount: bigint; txHash: string },
) => Promise<number>;

export type PayoutChainContext = {
  nft: NftService;
  send: ChainPayout | null;
  entries: EntryAttachment<PayoutStep, true>;
  /** A payout that could not be moved on this pass (the node did not answer): tried again next pass. */
  onError?: (payoutId: number, error: unknown) => void;
};

export type PayoutOutcome = 'pending' | 'sent' | 'failed';

/** One pass over the approved and sending payouts; what became of each. */
export async function sendPayouts(ctx: PayoutChainContext): Promise<Map<number, PayoutOutcome>> {
  const outcomes = new Map<number, PayoutOutcome>();
  for (const row of await openPayouts(ctx.nft.db, 50)) {
    try {
      outcomes.set(row.id, await stepPayout(ctx, row));
    } catch (error) {
      ctx.onError?.(row.id, error);
    }
  }
  return outcomes;
}

async function stepPayout(ctx: PayoutChainContext, row: PayoutRow): Promise<PayoutOutcome> {
  if (row.state === 'approved' && !(await markPayoutSending(ctx.nft.db, row.id))) return 'pending';
  if (!ctx.send) return fail(ctx, row, 'no_chain');
  const answer = await ctx.send(`nft-payout:${row.id}`, {
    asset: row.asset,
    to: row.address,
    amount: row.amount,
  });
  if (answer.state === 'refused') return fail(ctx, row, answer.reason);
  await setPayoutTx(ctx.nft.db, row.id, answer.txHash, answer.state === 'stuck');
  // Reverted, or its nonce taken by another transaction (never mined): nothing left, the money returns.
  if (answer.state === 'reverted' || answer.state === 'dropped') return fail(ctx, row, answer.state);
  if (answer.state === 'pending' || answer.state === 'stuck') return 'pending';
  await finish(ctx, row, 'external_clearing', `nft-payout:${row.id}:sent`, {
    step: 'sent',
    payoutId: row.id,
    asset: row.asset,
    amount: row.amount,
    txHash: answer.txHash.toLowerCase(),
    at: at(ctx),
  });
  return 'sent';
}

const at = (ctx: PayoutChainContext) => new Date(ctx.nft.now()).toISOString();

async function fail(ctx: PayoutChainContext, row: PayoutRow, reason: string): Promise<PayoutOutcome> {
  await finish(ctx, row, 'charity', `nft-payout:${row.id}:return`, {
    step: 'failed',
    payoutId: row.id,
    reason,
    at: at(ctx),
  });
  return 'failed';
}

/** The money on its way out moved on (to `external_clearing`: sent; back to `charity`: failed), once. */
async function finish(
  ctx: PayoutChainContext,
  row: PayoutRow,
  to: 'external_clearing' | 'charity',
  idempotencyKey: string,
  step: PayoutStep,
): Promise<void> {
  const { ledger } = ctx.nft;
  await ledger.transfer({
    book: 'live',
    kind: 'nft',
    idempotencyKey,
    actor: 'system',
    reference: `nft_payout:${row.id}`,
    postings: [
      {
        accountId: await ledger.systemAccount('live', row.asset, 'pending_withdrawals'),
        amount: -row.amount,
      },
      { accountId: await ledger.systemAccount('live', row.asset, to), amount: row.amount },
    ],
    attach: ctx.entries.with(step),
  });
}

/** The attachment of every payout entry: decided, sent (with its leaf in the log) or failed, each once. */
export async function writePayoutStep(
  tx: Queryable,
  entryId: number,
  data: PayoutStep,
  appendLeaf: PayoutLeafAppend | null,
): Promise<boolean> {
  if (data.step === 'failed')
    return finishPayout(tx, data.payoutId, { state: 'failed', entryId, at: data.at, reason: data.reason });
  if (data.step !== 'sent') return false;
  if (!appendLeaf) throw new Error('a payout is sent only beside the donation log');
  const logIndex = await appendLeaf(tx, {
    kind: 'payout',
    asset: data.asset,
    amount: data.amount,
    txHash: data.txHash,
  });
  return finishPayout(tx, data.payoutId, {
    state: 'sent',
    entryId,
    at: data.at,
    txHash: data.txHash,
    logIndex,
  });
}
