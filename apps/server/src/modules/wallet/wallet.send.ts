import type { Chain, Hex, WithdrawalSigner } from '../../platform/chain.ts';
import { decimal, shownAddress } from './wallet.networks.ts';
import { LIVE, languageOf, nowIso, type WithdrawalsContext } from './wallet.shared.ts';
import {
  moveWithdrawal,
  saveSigned,
  takeNonce,
  unsettledWithdrawals,
  type WithdrawalRow,
  withdrawalById,
  withdrawalsIn,
} from './wallet.withdrawals.repository.ts';

/*
 * Sending and confirming approved withdrawals (the wallet job, every few seconds): signed and
 * broadcast, followed to the network's confirmations, then the hold posted and split; a
 * transaction that reverts or is never sent has its hold voided with a notice.
 */

/** Minutes an approved withdrawal may keep failing to reach the node before it is given up (hold released). */
const SEND_GIVE_UP_MS = 30 * 60_000;
/** Blocks a sent transaction of the hot wallet may stay unmined before it is broadcast again. */
export const REBROADCAST_BLOCKS = 20n;

type Signed = { raw: Hex; hash: Hex };

/**
 * Signs and sends approved withdrawals, one at a time. The signed transaction (with its nonce,
 * taken from the database so no two withdrawals share one) is stored before it is broadcast, so
 * a crash or a second node sends the same transaction again, never a second one.
 */
export async function send(ctx: WithdrawalsContext): Promise<number> {
  const { chain, signer, db } = ctx;
  if (!chain || !signer) return 0;
  let sent = 0;
  for (const row of await withdrawalsIn(db, ['approved'], null, 50)) {
    const signed =
      row.rawTx && row.txHash
        ? { raw: row.rawTx as Hex, hash: row.txHash as Hex }
        : await sign(ctx, chain, signer, row);
    if (!signed) continue;
    try {
      await chain.broadcast(signed.raw);
      const head = await chain.head();
      if (await moveWithdrawal(db, row.id, ['approved'], 'sent', nowIso(ctx), { sentBlock: head })) sent += 1;
    } catch (error) {
      ctx.logger?.warn({ err: error, withdrawal: row.id }, 'withdrawal broadcast failed; tried again');
      if (ctx.now() - Date.parse(row.createdAt) > SEND_GIVE_UP_MS && !(await chain.receipt(signed.hash)))
        await fail(ctx, row, 'not_sent');
    }
  }
  return sent;
}

/** The withdrawal's transaction signed with the next nonce and stored (or the one stored meanwhile); null when no longer approved. */
async function sign(
  ctx: WithdrawalsContext,
  chain: Chain,
  signer: WithdrawalSigner,
  row: WithdrawalRow,
): Promise<Signed | null> {
  const chainNext = await chain.nonce(signer.address);
  return ctx.db.transaction(async (tx) => {
    const locked = await withdrawalById(tx, row.id, true);
    if (locked?.state !== 'approved') return null;
    if (locked.rawTx && locked.txHash) return { raw: locked.rawTx as Hex, hash: locked.txHash as Hex };
    const nonce = await takeNonce(tx, chain.chainId, signer.address, chainNext);
    const transfer = await signer.sign({
      asset: row.asset as 'USDT' | 'ETH',
      to: row.address as Hex,
      amount: row.receive,
      nonce,
    });
    await saveSigned(tx, row.id, { nonce, raw: transfer.raw, hash: transfer.hash });
    return transfer;
  });
}

/**
 * Follows sent withdrawals: at the network's confirmations the hold is posted (the customer's
 * amount to pending_withdrawals, then split: what was received to external_clearing, the fee to
 * fees); a reverted transaction releases the hold with a notice; one that stays unmined is
 * broadcast again.
 */
export async function confirm(ctx: WithdrawalsContext): Promise<number> {
  const { chain, db } = ctx;
  if (!chain) return 0;
  const head = await chain.head();
  const networks = new Map((await ctx.networks.all()).map((n) => [n.id, n]));
  let completed = 0;
  for (const row of await withdrawalsIn(db, ['sent'], null, 200)) {
    const network = networks.get(row.network);
    if (!network || !row.txHash) continue;
    const receipt = await chain.receipt(row.txHash as Hex);
    if (!receipt) {
      if (row.rawTx && row.sentBlock !== null && head - row.sentBlock > REBROADCAST_BLOCKS)
        await chain.broadcast(row.rawTx as Hex).catch(() => undefined);
      continue;
    }
    if (receipt.status === 'reverted') {
      await fail(ctx, row, 'reverted');
      continue;
    }
    if (head - receipt.blockNumber + 1n < BigInt(network.creditConfirmations)) continue;
    await post(ctx, row);
    completed += 1;
  }
  // Posted withdrawals whose split has not been written yet (a crash between the two entries).
  for (const row of await unsettledWithdrawals(db, 200)) await settle(ctx, row);
  return completed;
}

function paramsOf(row: WithdrawalRow): Record<string, string> {
  return {
    amount: decimal(row, row.amount),
    receive: decimal(row, row.receive),
    asset: row.asset,
    address: shownAddress(row.address),
  };
}

async function post(ctx: WithdrawalsContext, row: WithdrawalRow): Promise<void> {
  const { ledger } = ctx;
  await ledger.postHold({
    holdId: row.holdId,
    toAccountId: await ledger.systemAccount(LIVE, row.asset, 'pending_withdrawals'),
    amount: row.amount,
    kind: 'withdrawal',
    idempotencyKey: `withdrawal:${row.id}:post`,
    actor: 'system',
    reference: `withdrawal:${row.id}`,
    attach: ctx.attachments.posted.with({
      withdrawalId: row.id,
      userId: row.userId,
      language: await languageOf(ctx.customers, row.userId),
      params: paramsOf(row),
    }),
  });
  await settle(ctx, row);
}

/** The posted amount split: what the customer received leaves through external_clearing, the fee goes to fees. */
async function settle(ctx: WithdrawalsContext, row: WithdrawalRow): Promise<void> {
  const { ledger } = ctx;
  await ledger.transfer({
    book: LIVE,
    kind: 'withdrawal',
    idempotencyKey: `withdrawal:${row.id}:settle`,
    actor: 'system',
    reference: `withdrawal:${row.id}`,
    postings: [
      {
        accountId: await ledger.systemAccount(LIVE, row.asset, 'pending_withdrawals'),
        amount: -row.amount,
      },
      { accountId: await ledger.systemAccount(LIVE, row.asset, 'external_clearing'), amount: row.receive },
      ...(row.fee > 0n
        ? [{ accountId: await ledger.systemAccount(LIVE, row.asset, 'fees'), amount: row.fee }]
        : []),
    ],
    attach: ctx.attachments.settled.with({ withdrawalId: row.id }),
  });
}

/** Sending failed: the hold is voided and the customer told (no fee is charged). */
async function fail(ctx: WithdrawalsContext, row: WithdrawalRow, reason: string): Promise<void> {
  await ctx.ledger.voidHold({
    holdId: row.holdId,
    idempotencyKey: `withdrawal:${row.id}:release`,
    actor: 'system',
    attach: ctx.attachments.released.with({
      withdrawalId: row.id,
      userId: row.userId,
      language: await languageOf(ctx.customers, row.userId),
      params: paramsOf(row),
      reason,
    }),
  });
}
