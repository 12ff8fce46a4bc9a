import type { Book, Deposit, RechargeBody } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { depositAttachments } from './wallet.attachments.ts';
import { declare } from './wallet.declare.ts';
import { address, list, one } from './wallet.deposit-reads.ts';
import {
  type DepositRow,
  depositAddressesOfOwners,
  depositAddressOf,
  depositById,
  pendingProofs,
} from './wallet.deposits.repository.ts';
import {
  approveInTx,
  type ChainLook,
  checkedOnChain,
  confirmOnChain,
  follow,
  look,
  proofItem,
  rejectInTx,
} from './wallet.proofs.ts';
import type { ChainName } from './wallet.repository.ts';
import { type AddressDeriver, type DepositDeps, type DepositsContext, nowIso } from './wallet.shared.ts';
import { watch } from './wallet.watch.ts';

export type { AddressDeriver, ChainLook, DepositDeps };

/**
 * Money in: each customer's deposit address per chain, the chain watcher that credits deposits
 * exactly once through the ledger (from external_clearing), and deposits declared with a proof
 * that staff review. A thin front over its use cases: the customer's addresses and deposits
 * (`wallet.deposit-reads.ts`), the declaration (`wallet.declare.ts`), the watcher
 * (`wallet.watch.ts`) and a deposit's path through the ledger (`wallet.credit.ts`), the review of
 * proofs (`wallet.proofs.ts`); what they share is in `wallet.shared.ts`.
 *
 * A chain deposit is seen (confirming), credited at the network's confirmations with a lock (a
 * ledger hold of the same amount) so it cannot be used or withdrawn, and made available at the
 * unlock depth (the hold voided). The credited block's hash is kept: a deposit whose block is
 * replaced below the unlock depth is moved to its new block when the transaction was re-included,
 * and reversed with a notice when it was not. Below the network's minimum it is recorded, shown
 * with the minimum, and never credited. A transaction hash is credited once, by the watcher or by
 * a proof: both claim it under one advisory lock per hash.
 *
 * A proof on a watched network is checked on chain (`look`): staff can approve it only when its
 * transaction is mined and moved at least the declared amount of the asset to the customer's
 * deposit address; approved, it keeps its block and follows the watcher's path from there (credited
 * with a lock, unlocked at depth, moved or reversed with its block). A proof still pending when the
 * watcher credits the same transaction is closed (`credited_on_chain`), its hold released.
 */
export class Deposits {
  private readonly ctx: DepositsContext;

  constructor(deps: DepositDeps) {
    const now = deps.now ?? Date.now;
    this.ctx = {
      db: deps.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      uploads: deps.uploads,
      customers: deps.customers,
      networks: deps.networks,
      derive: deps.derive,
      chain: deps.chain,
      now,
      logger: deps.logger,
      attachments: depositAttachments({ ...deps, now }),
      alerted: new Set<number>(),
    };
  }

  /** The customer's deposit address on a network: derived once (index = the customer's id) and kept. */
  address(book: Book, userId: number, networkId: string): Promise<{ network: string; address: string }> {
    return address(this.ctx, book, userId, networkId);
  }

  list(book: Book, userId: number): Promise<Deposit[]> {
    return list(this.ctx, book, userId);
  }

  one(userId: number, id: number): Promise<Deposit> {
    return one(this.ctx, userId, id);
  }

  /** Spec `recharge`: a deposit declared with a payment proof, held on external_clearing until staff decide. */
  declare(book: Book, userId: number, body: RechargeBody): Promise<Deposit> {
    return declare(this.ctx, book, userId, body);
  }

  /** One pass of the watcher: new blocks read, open deposits moved on, proofs the chain credited closed. */
  watch(): Promise<{ seen: number; head: bigint } | null> {
    return watch(this.ctx);
  }

  // The staff review of proofs (wallet.review.ts reads through these)

  pendingProofs(after: number | null, limit: number) {
    return pendingProofs(this.ctx.db, after, limit);
  }

  /** Are this network's proofs checked on chain (else: by hand)? */
  checkedOnChain(networkId: string): Promise<boolean> {
    return checkedOnChain(this.ctx, networkId);
  }

  /** What the chain says of a proof's transaction; null for a network whose proofs are checked by hand. */
  look(row: DepositRow): Promise<ChainLook | null> {
    return look(this.ctx, row);
  }

  /** Before a proof on a watched network is approved: refused unless the chain confirms it (10047, 10031). */
  confirmOnChain(row: DepositRow): Promise<void> {
    return confirmOnChain(this.ctx, row);
  }

  /** An approved proof on chain, moved on at once as the watcher would. */
  follow(id: number): Promise<void> {
    return follow(this.ctx, id);
  }

  /** A declared deposit as staff review it: the proof, the customer's own address to match, and what the chain says. */
  proofItem(row: DepositRow): ReturnType<typeof proofItem> {
    return proofItem(this.ctx, row);
  }

  /** A deposit, read in the caller's transaction when given one. */
  byId(id: number, tx: Queryable = this.ctx.db): Promise<DepositRow | null> {
    return depositById(tx, id);
  }

  /** The customer's address on the network's chain, if they have one. */
  addressOf(userId: number, chain: ChainName): Promise<string | null> {
    return depositAddressOf(this.ctx.db, userId, chain);
  }

  /** Per customer: the senders of their deposits seen on chain and their own deposit addresses (lowercase). */
  addressesOfOwners(userIds: readonly number[]): Promise<Map<number, { sources: string[]; own: string[] }>> {
    return depositAddressesOfOwners(this.ctx.db, userIds);
  }

  /** In the approval's transaction: the hash claimed, the deposit available or on the watcher's path. */
  approveInTx(tx: Queryable, row: DepositRow, entryId: number | null): Promise<void> {
    return approveInTx(tx, row, entryId, nowIso(this.ctx));
  }

  rejectInTx(tx: Queryable, row: DepositRow, reason: string): Promise<void> {
    return rejectInTx(tx, row, reason);
  }
}
