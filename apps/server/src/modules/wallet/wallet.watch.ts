import { Code } from '@swx/contract';
import type { Chain, ChainTransfer } from '../../platform/chain.ts';
import { ApiError } from '../../platform/http.ts';
import { LedgerError } from '../ledger/ledger.service.ts';
import { stepAll } from './wallet.credit.ts';
import {
  cursorOf,
  insertSeenDeposits,
  openChainDeposits,
  ownersOf,
  proofsCreditedOnChain,
  type SeenDeposit,
  saveCursor,
} from './wallet.deposits.repository.ts';
import { decimal } from './wallet.networks.ts';
import type { NetworkRow } from './wallet.repository.ts';
import { type DepositsContext, languageOf, normalHash, nowIso } from './wallet.shared.ts';

/** Blocks the watcher reads per pass, and deposits it advances per pass. */
const SCAN_BLOCKS = 1000n;
const OPEN_PAGE = 1000;
/** Where a watcher with no cursor starts: this many blocks below the head. */
const FIRST_LOOKBACK = 256n;

/**
 * One pass of the watcher: reads new blocks (from its cursor, at most SCAN_BLOCKS), records the
 * transfers to customers' addresses, then moves every open deposit on: credit at the network's
 * confirmations, unlock at its unlock depth, re-placed or reversed when its block was replaced.
 * Every step is keyed (rows by transaction and log index, ledger requests by deposit), so a
 * second node or a pass after a crash repeats nothing.
 */
export async function watch(ctx: DepositsContext): Promise<{ seen: number; head: bigint } | null> {
  const chain = ctx.chain;
  if (!chain) return null;
  const head = await chain.head();
  const networks = (await ctx.networks.all()).filter((n) => n.chain === 'evm' && n.watched);
  const from = await firstUnread(ctx, chain, head, networks);
  let seen = 0;
  if (from <= head) {
    const to = head - from + 1n > SCAN_BLOCKS ? from + SCAN_BLOCKS - 1n : head;
    seen = await record(ctx, networks, await chain.transfers(from, to));
    const last = await chain.block(to);
    if (last) await saveCursor(ctx.db, chain.chainId, to, last.hash);
  }
  await advance(ctx, chain, head, networks);
  await closeCreditedProofs(ctx);
  return { seen, head };
}

/** The first block to read: after the cursor, or below the deepest unlock depth when the cursor's block was replaced. */
async function firstUnread(
  ctx: DepositsContext,
  chain: Chain,
  head: bigint,
  networks: NetworkRow[],
): Promise<bigint> {
  const cursor = await cursorOf(ctx.db, chain.chainId);
  if (!cursor) return head > FIRST_LOOKBACK ? head - FIRST_LOOKBACK : 0n;
  const still = await chain.block(cursor.number);
  // The cursor's block was replaced (or the chain restarted below it): read again from below
  // the deepest depth a deposit may still move at.
  if (still && still.hash === cursor.hash) return cursor.number + 1n;
  const depth = BigInt(Math.max(...networks.map((n) => n.unlockConfirmations), 1));
  const back = cursor.number > depth ? cursor.number - depth : 0n;
  return back < head ? back : head;
}

/** Records the transfers to customers' addresses (below the minimum: recorded, never credited). */
async function record(
  ctx: DepositsContext,
  networks: NetworkRow[],
  transfers: ChainTransfer[],
): Promise<number> {
  const byAsset = new Map(networks.map((n) => [n.asset, n]));
  const ours = transfers.filter((t) => byAsset.has(t.asset));
  const owners = await ownersOf(ctx.db, 'evm', [...new Set(ours.map((t) => t.to))]);
  const rows: SeenDeposit[] = [];
  for (const [t, ordinal] of withinTransaction(ours)) {
    const userId = owners.get(t.to);
    const network = byAsset.get(t.asset);
    if (userId === undefined || !network || t.amount <= 0n) continue;
    rows.push({
      userId,
      network: network.id,
      asset: network.asset,
      amount: t.amount,
      state: t.amount < network.depositMinimum ? 'below_minimum' : 'confirming',
      txHash: normalHash(t.txHash),
      logIndex: ordinal,
      address: t.to,
      minimum: network.depositMinimum,
      blockNumber: t.blockNumber,
      blockHash: t.blockHash,
      sender: t.from,
    });
  }
  const added =
    rows.length === 0 ? [] : await ctx.db.transaction((tx) => insertSeenDeposits(tx, rows, nowIso(ctx)));
  for (const row of added.filter((r) => r.state === 'below_minimum'))
    await ctx.notices.notify(
      row.userId,
      await languageOf(ctx.customers, row.userId),
      'deposit_below_minimum',
      {
        amount: decimal(row, row.amount),
        asset: row.asset,
        minimum: decimal(row, row.minimum),
      },
    );
  return added.length;
}

async function advance(
  ctx: DepositsContext,
  chain: Chain,
  head: bigint,
  networks: NetworkRow[],
): Promise<void> {
  const byId = new Map(networks.map((n) => [n.id, n]));
  const blocks = new Map<bigint, string | null>();
  const hashAt = async (n: bigint) => {
    if (!blocks.has(n)) blocks.set(n, (await chain.block(n))?.hash ?? null);
    return blocks.get(n) ?? null;
  };
  // The page moves on together: its credits in one ledger batch, its unlocks side by side.
  const open = (await openChainDeposits(ctx.db, OPEN_PAGE)).flatMap((row) => {
    const network = byId.get(row.network);
    return network ? [{ row, network }] : [];
  });
  await stepAll(ctx, chain, head, open, hashAt);
}

/**
 * Closes the proofs still pending whose transaction the watcher has credited: the declaration's
 * hold released, the proof out of the staff queue with its reason (`credited_on_chain`), the
 * customer told, the closing audited. Decided by staff meanwhile: left as they decided.
 */
async function closeCreditedProofs(ctx: DepositsContext): Promise<void> {
  for (const proof of await proofsCreditedOnChain(ctx.db, OPEN_PAGE)) {
    if (proof.clearingHoldId === null) continue;
    try {
      await ctx.ledger.voidHold({
        holdId: proof.clearingHoldId,
        idempotencyKey: `deposit:${proof.id}:closed`,
        actor: 'system',
        attach: ctx.attachments.closed.with({
          depositId: proof.id,
          userId: proof.userId,
          language: await languageOf(ctx.customers, proof.userId),
          amount: decimal(proof, proof.amount),
          asset: proof.asset,
          chainDepositId: proof.chainDepositId,
        }),
      });
    } catch (error) {
      const decided =
        (error instanceof LedgerError && error.reason === 'hold_not_pending') ||
        (error instanceof ApiError && error.code === Code.WRONG_COLLECTION_STATUS);
      if (!decided)
        ctx.logger?.error({ err: error, deposit: proof.id }, 'closing a proof failed; tried again next pass');
    }
  }
}

/**
 * The index of each transfer within its transaction (token transfers in log order from 0; a
 * native transfer -1): the same whichever block the transaction is included in.
 */
function withinTransaction(transfers: ChainTransfer[]): [ChainTransfer, number][] {
  const sorted = [...transfers].sort((a, b) =>
    a.txHash === b.txHash ? a.logIndex - b.logIndex : a.txHash < b.txHash ? -1 : 1,
  );
  const counters = new Map<string, number>();
  return sorted.map((t) => {
    if (t.logIndex < 0) return [t, -1];
    const next = counters.get(t.txHash) ?? 0;
    counters.set(t.txHash, next + 1);
    return [t, next];
  });
}
