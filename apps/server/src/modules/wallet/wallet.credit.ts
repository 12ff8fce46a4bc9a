import { isLanguage, type Language } from '@swx/contract';
import type { Chain, Hex } from '../../platform/chain.ts';
import { WALLET } from '../ledger/ledger.service.ts';
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

/** Deposits moved on side by side in a pass (their block checks and unlocks share ledger batches). */
const STEPS_AT_ONCE = 256;

/** An open deposit and its network. */
export type OpenDeposit = { row: DepositRow; network: NetworkRow };

/**
 * Moves one deposit on: re-placed or reversed when its block was replaced, credited at the
 * network's confirmations (with its lock), unlocked at its unlock depth.
 */
export function step(
  ctx: DepositsContext,
  chain: Chain,
  head: bigint,
  network: NetworkRow,
  row: DepositRow,
  hashAt: (n: bigint) => Promise<string | null>,
): Promise<void> {
  return stepAll(ctx, chain, head, [{ row, network }], hashAt);
}

/**
 * Moves deposits on: each re-placed or reversed when its block was replaced; those at their
 * network's confirmations credited and locked together, in ONE ledger batch (`creditAll`); each
 * unlocked at its unlock depth. A deposit whose step fails is tried again next pass.
 */
export async function stepAll(
  ctx: DepositsContext,
  chain: Chain,
  head: bigint,
  open: readonly OpenDeposit[],
  hashAt: (n: bigint) => Promise<string | null>,
): Promise<void> {
  const failed = (error: unknown, id: number) =>
    ctx.logger?.error({ err: error, deposit: id }, 'deposit step failed; tried again next pass');
  const placed: OpenDeposit[] = [];
  await eachAtMost(STEPS_AT_ONCE, open, async ({ row, network }) => {
    try {
      const deposit = await place(ctx, chain, row, hashAt);
      if (deposit) placed.push({ row: deposit, network });
    } catch (error) {
      failed(error, row.id);
    }
  });
  const due = placed.filter(
    ({ row, network }) =>
      row.state === 'confirming' && confirmationsOf(row, head) >= network.creditConfirmations,
  );
  const credited = new Map<number, DepositRow>();
  if (due.length > 0) {
    try {
      for (const [id, outcome] of await creditAll(
        ctx,
        due.map((d) => d.row),
      ))
        if (outcome instanceof Error) failed(outcome, id);
        else credited.set(id, outcome);
    } catch (error) {
      for (const d of due) failed(error, d.row.id);
    }
  }
  await eachAtMost(STEPS_AT_ONCE, placed, async ({ row, network }) => {
    let deposit = credited.get(row.id) ?? row;
    try {
      // Credited by an earlier version, which placed the lock as a second operation: locked now.
      if (deposit.state === 'credited' && deposit.lockHoldId === null) deposit = await lock(ctx, deposit);
      if (deposit.state === 'credited' && confirmationsOf(deposit, head) >= network.unlockConfirmations)
        await unlock(ctx, deposit);
    } catch (error) {
      failed(error, row.id);
    }
  });
}

/** The deposit at its block: moved to its new block, or reversed (null) when its transaction left the chain. */
async function place(
  ctx: DepositsContext,
  chain: Chain,
  row: DepositRow,
  hashAt: (n: bigint) => Promise<string | null>,
): Promise<DepositRow | null> {
  if (row.blockNumber === null) return null;
  if ((await hashAt(row.blockNumber)) === row.blockHash) return row;
  const receipt = await chain.receipt(`0x${row.txHash}` as Hex);
  if (receipt?.status !== 'success') {
    await reverse(ctx, row);
    return null;
  }
  await moveDepositBlock(ctx.db, row.id, receipt.blockNumber, receipt.blockHash);
  return { ...row, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
}

/**
 * Credits deposits and locks them, each in ONE ledger operation: the transfer external_clearing →
 * wallet (`deposit:<id>:credit`) holds what it credits on the wallet (`holdCredit`, the hold
 * `deposit:<id>:lock`), so at no instant is a credited deposit available before its unlock depth.
 * All of them go in one ledger batch (`LedgerService.transfers`: one transaction, one set-based
 * write); each is credited or refused on its own. Answers each deposit's row or why it failed.
 */
export async function creditAll(
  ctx: DepositsContext,
  rows: readonly DepositRow[],
): Promise<Map<number, DepositRow | Error>> {
  const { ledger } = ctx;
  const wallets = new Map<string, Map<number, number>>();
  const clearings = new Map<string, number>();
  for (const asset of new Set(rows.map((r) => r.asset))) {
    const owners = rows.filter((r) => r.asset === asset).map((r) => r.userId);
    wallets.set(asset, await ledger.customerAccounts(LIVE, owners, asset, WALLET));
    clearings.set(asset, await ledger.systemAccount(LIVE, asset, 'external_clearing'));
  }
  const known = await ctx.customers.languagesOf(rows.map((r) => r.userId));
  const languageOfUser = (userId: number): Language => {
    const language = known.get(userId);
    return language !== undefined && isLanguage(language) ? language : 'en';
  };
  const answers = await ledger.transfers(
    rows.map((row) => {
      const wallet = wallets.get(row.asset)?.get(row.userId) ?? 0;
      return {
        book: LIVE,
        kind: 'deposit' as const,
        idempotencyKey: `deposit:${row.id}:credit`,
        actor: 'system',
        reference: `deposit:${row.id}`,
        postings: [
          { accountId: clearings.get(row.asset) ?? 0, amount: -row.amount },
          { accountId: wallet, amount: row.amount },
        ],
        holdCredit: {
          accountId: wallet,
          idempotencyKey: `deposit:${row.id}:lock`,
          reference: `deposit:${row.id}`,
        },
        attach: ctx.attachments.credited.with({
          depositId: row.id,
          userId: row.userId,
          language: languageOfUser(row.userId),
          amount: decimal(row, row.amount),
          asset: row.asset,
        }),
      };
    }),
  );
  const out = new Map<number, DepositRow | Error>();
  rows.forEach((row, i) => {
    const answer = answers[i];
    if (!answer) return;
    out.set(
      row.id,
      answer.status === 'rejected'
        ? answer.reason instanceof Error
          ? answer.reason
          : new Error(String(answer.reason))
        : { ...row, state: 'credited', lockHoldId: answer.value.holdId ?? null },
    );
  });
  return out;
}

/** The lock of a deposit credited without one (by an earlier version): a hold of its amount on the wallet. */
async function lock(ctx: DepositsContext, row: DepositRow): Promise<DepositRow> {
  const held = await ctx.ledger.hold({
    book: LIVE,
    accountId: await ctx.ledger.walletAccount(LIVE, row.userId, row.asset),
    amount: row.amount,
    idempotencyKey: `deposit:${row.id}:lock`,
    actor: 'system',
    reference: `deposit:${row.id}`,
    attach: ctx.attachments.locked.with({ depositId: row.id }),
  });
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

/** Runs `run` on every item, at most `limit` at a time. */
export async function eachAtMost<T>(
  limit: number,
  items: readonly T[],
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
