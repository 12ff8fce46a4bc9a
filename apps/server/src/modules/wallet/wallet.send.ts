import type { Chain, ChainAsset, Hex, WithdrawalSigner } from '../../platform/chain.ts';
import { replaceHotTx } from './wallet.hot.repository.ts';
import { bookGas, followHotTx } from './wallet.hot.ts';
import { decimal, shownAddress } from './wallet.networks.ts';
import { LIVE, languageOf, nowIso, type WithdrawalsContext } from './wallet.shared.ts';
import {
  moveWithdrawal,
  saveSigned,
  setMinedWithdrawalTx,
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
 * Follows sent withdrawals (the shared follower, wallet.hot.ts): at the network's confirmations the
 * hold is posted (the customer's amount to pending_withdrawals, then split: what was received to
 * external_clearing, the fee to fees) and the gas booked; a reverted transaction books its gas and
 * releases the hold with a notice, as does one whose nonce another transaction took (`dropped`);
 * one that stays unmined is broadcast again, then replaced at a higher fee (same nonce).
 */
export async function confirm(ctx: WithdrawalsContext): Promise<number> {
  const { chain, db, signer } = ctx;
  if (!chain) return 0;
  const networks = new Map((await ctx.networks.all()).map((n) => [n.id, n]));
  let completed = 0;
  for (const row of await withdrawalsIn(db, ['sent'], null, 200)) {
    const network = networks.get(row.network);
    if (!network || !row.txHash || !row.rawTx || row.nonce === null) continue;
    const seen = await followHotTx(
      {
        chain,
        signer,
        from: signer?.address ?? null,
        confirmations: network.creditConfirmations,
      },
      {
        ...row,
        asset: row.asset as ChainAsset,
        to: row.address,
        amount: row.receive,
        rawTx: row.rawTx,
        txHash: row.txHash,
        nonce: row.nonce,
      },
      {
        broadcast: async () => undefined,
        replace: (previous, next) => replaceHotTx(db, 'withdrawal', row.id, previous, next),
      },
    );
    if (seen.state === 'dropped') await fail(ctx, row, 'dropped');
    if (seen.state === 'unmined' && seen.stuck)
      ctx.logger?.warn({ withdrawal: row.id, txHash: seen.txHash }, 'withdrawal stuck unmined');
    if (seen.state !== 'mined') continue;
    const { receipt } = seen;
    if (seen.txHash !== row.txHash) await setMinedWithdrawalTx(db, row.id, seen.txHash);
    if (
      receipt.status === 'success' &&
      (await chain.head()) - receipt.blockNumber + 1n < BigInt(network.creditConfirmations)
    )
      continue;
    await bookGas(ctx.ledger, `withdrawal:${row.id}:gas`, `withdrawal:${row.id}`, receipt);
    if (receipt.status === 'reverted') await fail(ctx, row, 'reverted');
    else {
      await post(ctx, row);
      completed += 1;
    }
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
