import type { Chain, Hex } from '../../platform/chain.ts';
import { confirmationsOf } from './wallet.deposit-reads.ts';
import {
  type DepositRow,
  depositById,
  moveDeposit,
  moveDepositBlock,
  setDepositLock,
} from './wallet.deposits.repository.ts';
import { decimal } from './wallet.networks.ts';
import type { NetworkRow } from './wallet.repository.ts';
import { type DepositsContext, LIVE, languageOf } from './wallet.shared.ts';

/*
 * A chain deposit's path through the ledger: credited at the network's confirmations with a lock,
 * unlocked at its unlock depth, moved to its new block or reversed when its block was replaced.
 */

/**
 * Moves one deposit on: re-placed or reversed when its block was replaced, credited at the
 * network's confirmations (with its lock), unlocked at its unlock depth.
 */
export async function step(
  ctx: DepositsContext,
  chain: Chain,
  head: bigint,
  network: NetworkRow,
  row: DepositRow,
  hashAt: (n: bigint) => Promise<string | null>,
): Promise<void> {
  if (row.blockNumber === null) return;
  let deposit = row;
  if ((await hashAt(row.blockNumber)) !== row.blockHash) {
    const receipt = await chain.receipt(`0x${row.txHash}` as Hex);
    if (receipt?.status !== 'success') {
      await reverse(ctx, row);
      return;
    }
    await moveDepositBlock(ctx.db, row.id, receipt.blockNumber, receipt.blockHash);
    deposit = { ...row, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
  }
  const confirmations = confirmationsOf(deposit, head);
  try {
    if (deposit.state === 'confirming' && confirmations >= network.creditConfirmations)
      deposit = await credit(ctx, deposit);
    if (deposit.state === 'credited' && deposit.lockHoldId === null) deposit = await lock(ctx, deposit);
    if (deposit.state === 'credited' && confirmations >= network.unlockConfirmations)
      await unlock(ctx, deposit);
  } catch (error) {
    ctx.logger?.error({ err: error, deposit: deposit.id }, 'deposit step failed; tried again next pass');
  }
}

/**
 * Credits a deposit and locks it: the credit (external_clearing → wallet) and the lock (a hold
 * of the amount on the wallet) are sent together, so they share a ledger batch as a rule; a lock
 * that is placed when the credit was not is released at once.
 */
async function credit(ctx: DepositsContext, row: DepositRow): Promise<DepositRow> {
  const { ledger } = ctx;
  const asset = row.asset;
  const wallet = await ledger.walletAccount(LIVE, row.userId, asset);
  const clearing = await ledger.systemAccount(LIVE, asset, 'external_clearing');
  const language = await languageOf(ctx.customers, row.userId);
  const credited = ledger.transfer({
    book: LIVE,
    kind: 'deposit',
    idempotencyKey: `deposit:${row.id}:credit`,
    actor: 'system',
    reference: `deposit:${row.id}`,
    postings: [
      { accountId: clearing, amount: -row.amount },
      { accountId: wallet, amount: row.amount },
    ],
    attach: ctx.attachments.credited.with({
      depositId: row.id,
      userId: row.userId,
      language,
      amount: decimal(row, row.amount),
      asset,
    }),
  });
  const [creditDone, lockDone] = await Promise.allSettled([credited, placeLock(ctx, row, wallet)]);
  if (creditDone.status === 'rejected') {
    if (lockDone.status === 'fulfilled')
      await ledger.voidHold({
        holdId: lockDone.value.holdId,
        idempotencyKey: `deposit:${row.id}:unlock`,
        actor: 'system',
      });
    throw creditDone.reason;
  }
  if (lockDone.status === 'rejected') return { ...row, state: 'credited' };
  // A replayed lock (placed by a pass that stopped before recording it) is recorded here.
  if (lockDone.value.replayed) await setDepositLock(ctx.db, row.id, lockDone.value.holdId);
  return { ...row, state: 'credited', lockHoldId: lockDone.value.holdId };
}

function placeLock(ctx: DepositsContext, row: DepositRow, wallet: number) {
  return ctx.ledger.hold({
    book: LIVE,
    accountId: wallet,
    amount: row.amount,
    idempotencyKey: `deposit:${row.id}:lock`,
    actor: 'system',
    reference: `deposit:${row.id}`,
    attach: ctx.attachments.locked.with({ depositId: row.id }),
  });
}

async function lock(ctx: DepositsContext, row: DepositRow): Promise<DepositRow> {
  const held = await placeLock(ctx, row, await ctx.ledger.walletAccount(LIVE, row.userId, row.asset));
  // A replayed lock (placed by a pass that stopped before recording it) is recorded here.
  await setDepositLock(ctx.db, row.id, held.holdId);
  return (await depositById(ctx.db, row.id)) ?? row;
}

async function unlock(ctx: DepositsContext, row: DepositRow): Promise<void> {
  if (row.lockHoldId === null) return;
  await ctx.ledger.voidHold({
    holdId: row.lockHoldId,
    idempotencyKey: `deposit:${row.id}:unlock`,
    actor: 'system',
    attach: ctx.attachments.unlocked.with({
      depositId: row.id,
      userId: row.userId,
      language: await languageOf(ctx.customers, row.userId),
      amount: decimal(row, row.amount),
      asset: row.asset,
    }),
  });
}

/**
 * A deposit whose block was replaced and whose transaction is on the chain no more: a confirming
 * one is closed, a credited one has its lock released and its credit reversed; the customer is
 * told. A reversal the balance cannot carry any more is left for staff (alerted).
 */
async function reverse(ctx: DepositsContext, row: DepositRow): Promise<void> {
  const { ledger, db, notices } = ctx;
  const language = await languageOf(ctx.customers, row.userId);
  const params = { amount: decimal(row, row.amount), asset: row.asset };
  if (row.state === 'confirming') {
    await db.transaction(async (tx) => {
      if (await moveDeposit(tx, row.id, ['confirming'], 'reversed', { reason: 'reorg' }))
        await notices.notifyInTx(tx, row.userId, language, 'deposit_reversed', params);
    });
    return;
  }
  try {
    if (row.lockHoldId !== null)
      await ledger.voidHold({
        holdId: row.lockHoldId,
        idempotencyKey: `deposit:${row.id}:unlock`,
        actor: 'system',
      });
    if (row.creditEntryId === null) throw new Error(`deposit ${row.id} has no credit entry`);
    const reversal = await ledger.reverse(row.creditEntryId, {
      actor: 'system',
      reason: 'chain reorganisation: the deposit left the chain',
      idempotencyKey: `deposit:${row.id}:reverse`,
    });
    await db.transaction(async (tx) => {
      const moved = await moveDeposit(tx, row.id, ['credited'], 'reversed', {
        reversalEntryId: reversal.entryId,
        reason: 'reorg',
      });
      if (moved) await notices.notifyInTx(tx, row.userId, language, 'deposit_reversed', params);
    });
  } catch (error) {
    // Tried again every pass; staff are alerted once per process.
    if (ctx.alerted.has(row.id)) throw error;
    ctx.alerted.add(row.id);
    await ctx.audit.alertStaff(
      'wallet.deposit.reversal_failed',
      `Deposit ${row.id} left the chain but its credit could not be reversed: reverse it by hand`,
      { depositId: row.id, userId: row.userId, error: String(error) },
    );
    throw error;
  }
}
