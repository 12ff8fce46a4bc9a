import {
  type Book,
  Code,
  type Deposit,
  type DepositChainCheck,
  type DepositChainVerdict,
  isLanguage,
  type Language,
  PROOF_CLOSED_BY_CHAIN,
  type RechargeBody,
} from '@swx/contract';
import type { Chain, ChainTransfer, Hex } from '../../platform/chain.ts';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import { LedgerError, type LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { amountOf, decimal, type Networks } from './wallet.networks.ts';
import {
  type ChainName,
  cursorOf,
  type DepositRow,
  depositAddressOf,
  depositByClearingHold,
  depositById,
  depositsOf,
  insertProofDeposit,
  insertSeenDeposits,
  lockTransactionHash,
  moveDeposit,
  moveDepositBlock,
  type NetworkRow,
  openChainDeposits,
  ownersOf,
  pendingProofs,
  proofsCreditedOnChain,
  type SeenDeposit,
  saveCursor,
  saveDepositAddress,
  setDepositLock,
  setProofBlock,
  transactionClaimed,
} from './wallet.repository.ts';

/** Derives a customer's deposit address from the platform's extended public keys (no private key here). */
export type AddressDeriver = { evm(index: number): string; bitcoin(index: number): string };

export type DepositDeps = {
  db: Database;
  ledger: LedgerService;
  audit: AuditService;
  notices: NoticesService;
  uploads: UploadsService;
  customers: Pick<CustomerDirectory, 'get'>;
  networks: Networks;
  derive: AddressDeriver;
  chain: Chain | null;
  logger?: Logger;
};

/** Blocks the watcher reads per pass, and deposits it advances per pass. */
const SCAN_BLOCKS = 1000n;
const OPEN_PAGE = 1000;
/** Deposits moved on at once in a pass (their ledger requests share batches). */
const STEPS_AT_ONCE = 256;
/** Where a watcher with no cursor starts: this many blocks below the head. */
const FIRST_LOOKBACK = 256n;

/**
 * What the chain says of a proof's transaction, with the block it was mined in (kept when approved).
 * `amount` is what it moved of the asset to the customer's deposit address.
 */
export type ChainLook = {
  verdict: DepositChainVerdict;
  amount: bigint | null;
  confirmations: number;
  blockNumber: bigint | null;
  blockHash: Hex | null;
};

/** A network whose proofs are checked on chain: an EVM network the platform watches, with a chain to read. */
const checkable = (network: NetworkRow, chain: Chain | null): chain is Chain =>
  chain !== null &&
  network.chain === 'evm' &&
  network.watched &&
  (network.asset === 'USDT' || network.asset === 'ETH');

/** A transaction hash as one form whichever way it arrives: lowercase hex, no 0x. */
export const normalHash = (hash: string) => hash.trim().toLowerCase().replace(/^0x/, '');

const LIVE: Book = 'live';

/** Deposits and withdrawals exist in the live book only (10043 in the demo book). */
export function requireLive(book: Book): void {
  if (book !== LIVE) throw new ApiError(Code.LIVE_BOOK_ONLY);
}

/**
 * Money in: each customer's deposit address per chain, the chain watcher that credits deposits
 * exactly once through the ledger (from external_clearing), and deposits declared with a proof
 * that staff review.
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
  private readonly deps: DepositDeps;
  private readonly credited;
  private readonly locked;
  private readonly unlocked;
  private readonly declared;
  private readonly closed;
  private readonly alerted = new Set<number>();

  constructor(deps: DepositDeps) {
    this.deps = deps;
    const { ledger } = deps;
    type Step = { depositId: number; userId: number; language: Language; amount: string; asset: string };
    this.credited = ledger.attachment<Step, boolean>('deposit', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { entryId, data } of rows) {
        const moved = await moveDeposit(tx, data.depositId, ['confirming'], 'credited', {
          creditEntryId: entryId,
          credited: true,
        });
        if (!moved) throw new Error(`deposit ${data.depositId} is no longer confirming`);
        await deps.notices.notifyInTx(tx, data.userId, data.language, 'deposit_credited', {
          amount: data.amount,
          asset: data.asset,
        });
        done.set(entryId, true);
      }
      return done;
    });
    this.locked = ledger.holdAttachment<{ depositId: number }, boolean>('deposit_lock', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { holdId, data } of rows) {
        await setDepositLock(tx, data.depositId, holdId);
        done.set(holdId, true);
      }
      return done;
    });
    this.unlocked = ledger.holdAttachment<{ depositId: number }, boolean>(
      'deposit_unlock',
      async (tx, rows) => {
        const done = new Map<number, boolean>();
        for (const { holdId, data } of rows) {
          await moveDeposit(tx, data.depositId, ['credited'], 'available');
          done.set(holdId, true);
        }
        return done;
      },
    );
    this.declared = ledger.holdAttachment<
      {
        userId: number;
        network: string;
        asset: NetworkRow['asset'];
        amount: string;
        txHash: string;
        address: string;
        minimum: string;
        lastSix: string;
        proof: string;
      },
      number
    >('deposit_proof', async (tx, rows) => {
      const done = new Map<number, number>();
      for (const { holdId, data } of rows) {
        await lockTransactionHash(tx, data.txHash);
        if (await transactionClaimed(tx, data.txHash, null))
          throw new ApiError(Code.TRANSACTION_ALREADY_USED);
        const id = await insertProofDeposit(tx, {
          userId: data.userId,
          network: data.network,
          asset: data.asset,
          amount: BigInt(data.amount),
          txHash: data.txHash,
          address: data.address,
          minimum: BigInt(data.minimum),
          lastSix: data.lastSix,
          proofUpload: data.proof,
          clearingHoldId: holdId,
        });
        await deps.uploads.takeInTx(
          tx,
          data.userId,
          [{ path: 'proof', id: data.proof, purpose: 'deposit_proof' }],
          `deposit:${id}`,
        );
        done.set(holdId, id);
      }
      return done;
    });
    this.closed = ledger.holdAttachment<
      {
        depositId: number;
        userId: number;
        language: Language;
        amount: string;
        asset: string;
        chainDepositId: number;
      },
      boolean
    >('deposit_proof_closed', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { holdId, data } of rows) {
        const moved = await moveDeposit(tx, data.depositId, ['pending_review'], 'rejected', {
          reason: PROOF_CLOSED_BY_CHAIN,
        });
        // Decided by staff meanwhile: their decision stands, this release is not written.
        if (!moved) throw new ApiError(Code.WRONG_COLLECTION_STATUS);
        await deps.notices.notifyInTx(tx, data.userId, data.language, 'deposit_proof_closed', {
          amount: data.amount,
          asset: data.asset,
        });
        await deps.audit.appendInTx(tx, [
          {
            actor: 'system',
            action: 'deposit_proof.closed',
            subject: `deposit_proof:${data.depositId}`,
            data: { userId: data.userId, reason: PROOF_CLOSED_BY_CHAIN, chainDepositId: data.chainDepositId },
          },
        ]);
        done.set(holdId, true);
      }
      return done;
    });
  }

  private async languageOf(userId: number): Promise<Language> {
    const customer = await this.deps.customers.get(userId);
    return customer && isLanguage(customer.language) ? customer.language : 'en';
  }

  /** The customer's deposit address on a network: derived once (index = the customer's id) and kept. */
  async address(
    book: Book,
    userId: number,
    networkId: string,
  ): Promise<{ network: string; address: string }> {
    requireLive(book);
    const network = await this.deps.networks.get(networkId);
    return { network: network.id, address: await this.addressOn(userId, network.chain) };
  }

  private async addressOn(userId: number, chain: ChainName): Promise<string> {
    const known = await depositAddressOf(this.deps.db, userId, chain);
    if (known) return known;
    const address = chain === 'evm' ? this.deps.derive.evm(userId) : this.deps.derive.bitcoin(userId);
    await saveDepositAddress(this.deps.db, { userId, chain, index: userId, address });
    return (await depositAddressOf(this.deps.db, userId, chain)) ?? address;
  }

  async list(book: Book, userId: number): Promise<Deposit[]> {
    requireLive(book);
    const [rows, networks] = await Promise.all([
      depositsOf(this.deps.db, userId, 200),
      this.deps.networks.all(),
    ]);
    const head = rows.some((r) => r.state === 'confirming' || r.state === 'credited')
      ? await this.head()
      : null;
    return rows.map((row) => depositWire(row, networks, head));
  }

  async one(userId: number, id: number): Promise<Deposit> {
    const row = await depositById(this.deps.db, id);
    if (!row || row.userId !== userId) throw new ApiError(Code.NOT_FOUND);
    return depositWire(row, await this.deps.networks.all(), await this.head());
  }

  private async head(): Promise<bigint | null> {
    try {
      return this.deps.chain ? await this.deps.chain.head() : null;
    } catch {
      return null;
    }
  }

  /**
   * Spec `recharge`: a deposit declared with a payment proof, held on external_clearing until staff
   * decide (approve: the hold is posted to the customer's wallet; reject: voided). Refused below the
   * network's minimum (10038 with the asset and minimum), for a receive address that is not the
   * customer's own (10026 on address), and for a transaction already credited or declared (10042).
   */
  async declare(book: Book, userId: number, body: RechargeBody): Promise<Deposit> {
    requireLive(book);
    const network = await this.deps.networks.get(body.network);
    const amount = amountOf(network, body.amount);
    if (amount < network.depositMinimum)
      throw new ApiError(Code.BELOW_MINIMUM, {
        asset: network.asset,
        minimum: decimal(network, network.depositMinimum),
      });
    const mine = await this.addressOn(userId, network.chain);
    if (body.address.trim().toLowerCase() !== mine.toLowerCase())
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'address', issue: 'not_yours' }]);
    const txHash = normalHash(body.txHash);
    if (await transactionClaimed(this.deps.db, txHash, null))
      throw new ApiError(Code.TRANSACTION_ALREADY_USED);
    const clearing = await this.deps.ledger.systemAccount(LIVE, network.asset, 'external_clearing');
    const held = await this.deps.ledger.hold({
      book: LIVE,
      accountId: clearing,
      amount,
      idempotencyKey: `deposit-proof:${userId}:${txHash}:${body.proof}`,
      actor: `customer:${userId}`,
      reference: `deposit-proof:${txHash}`,
      attach: this.declared.with({
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
    const row = await depositByClearingHold(this.deps.db, held.holdId);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return depositWire(row, await this.deps.networks.all(), null);
  }

  /**
   * One pass of the watcher: reads new blocks (from its cursor, at most SCAN_BLOCKS), records the
   * transfers to customers' addresses, then moves every open deposit on: credit at the network's
   * confirmations, unlock at its unlock depth, re-placed or reversed when its block was replaced.
   * Every step is keyed (rows by transaction and log index, ledger requests by deposit), so a
   * second node or a pass after a crash repeats nothing.
   */
  async watch(): Promise<{ seen: number; head: bigint } | null> {
    const chain = this.deps.chain;
    if (!chain) return null;
    const head = await chain.head();
    const networks = (await this.deps.networks.all()).filter((n) => n.chain === 'evm' && n.watched);
    const cursor = await cursorOf(this.deps.db, chain.chainId);
    let from = cursor ? cursor.number + 1n : head > FIRST_LOOKBACK ? head - FIRST_LOOKBACK : 0n;
    if (cursor) {
      const still = await chain.block(cursor.number);
      // The cursor's block was replaced (or the chain restarted below it): read again from below
      // the deepest depth a deposit may still move at.
      if (!still || still.hash !== cursor.hash) {
        const depth = BigInt(Math.max(...networks.map((n) => n.unlockConfirmations), 1));
        const back = cursor.number > depth ? cursor.number - depth : 0n;
        from = back < head ? back : head;
      }
    }
    let seen = 0;
    if (from <= head) {
      const to = head - from + 1n > SCAN_BLOCKS ? from + SCAN_BLOCKS - 1n : head;
      seen = await this.record(networks, await chain.transfers(from, to));
      const last = await chain.block(to);
      if (last) await saveCursor(this.deps.db, chain.chainId, to, last.hash);
    }
    await this.advance(chain, head, networks);
    await this.closeCreditedProofs();
    return { seen, head };
  }

  /** Records the transfers to customers' addresses (below the minimum: recorded, never credited). */
  private async record(networks: NetworkRow[], transfers: ChainTransfer[]): Promise<number> {
    const byAsset = new Map(networks.map((n) => [n.asset, n]));
    const ours = transfers.filter((t) => byAsset.has(t.asset));
    const owners = await ownersOf(this.deps.db, 'evm', [...new Set(ours.map((t) => t.to))]);
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
      });
    }
    const added =
      rows.length === 0 ? [] : await this.deps.db.transaction((tx) => insertSeenDeposits(tx, rows));
    for (const row of added.filter((r) => r.state === 'below_minimum'))
      await this.deps.notices.notify(row.userId, await this.languageOf(row.userId), 'deposit_below_minimum', {
        amount: decimal(row, row.amount),
        asset: row.asset,
        minimum: decimal(row, row.minimum),
      });
    return added.length;
  }

  private async advance(chain: Chain, head: bigint, networks: NetworkRow[]): Promise<void> {
    const byId = new Map(networks.map((n) => [n.id, n]));
    const blocks = new Map<bigint, string | null>();
    const hashAt = async (n: bigint) => {
      if (!blocks.has(n)) blocks.set(n, (await chain.block(n))?.hash ?? null);
      return blocks.get(n) ?? null;
    };
    // Deposits move on side by side, so their ledger requests share batches (group commit).
    await eachAtMost(STEPS_AT_ONCE, await openChainDeposits(this.deps.db, OPEN_PAGE), async (row) => {
      const network = byId.get(row.network);
      if (network) await this.step(chain, head, network, row, hashAt);
    });
  }

  /**
   * Moves one deposit on: re-placed or reversed when its block was replaced, credited at the
   * network's confirmations (with its lock), unlocked at its unlock depth.
   */
  private async step(
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
        await this.reverse(row);
        return;
      }
      await moveDepositBlock(this.deps.db, row.id, receipt.blockNumber, receipt.blockHash);
      deposit = { ...row, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
    }
    const confirmations = confirmationsOf(deposit, head);
    try {
      if (deposit.state === 'confirming' && confirmations >= network.creditConfirmations)
        deposit = await this.credit(deposit);
      if (deposit.state === 'credited' && deposit.lockHoldId === null) deposit = await this.lock(deposit);
      if (deposit.state === 'credited' && confirmations >= network.unlockConfirmations)
        await this.unlock(deposit);
    } catch (error) {
      this.deps.logger?.error(
        { err: error, deposit: deposit.id },
        'deposit step failed; tried again next pass',
      );
    }
  }

  /**
   * Closes the proofs still pending whose transaction the watcher has credited: the declaration's
   * hold released, the proof out of the staff queue with its reason (`credited_on_chain`), the
   * customer told, the closing audited. Decided by staff meanwhile: left as they decided.
   */
  private async closeCreditedProofs(): Promise<void> {
    for (const proof of await proofsCreditedOnChain(this.deps.db, OPEN_PAGE)) {
      if (proof.clearingHoldId === null) continue;
      try {
        await this.deps.ledger.voidHold({
          holdId: proof.clearingHoldId,
          idempotencyKey: `deposit:${proof.id}:closed`,
          actor: 'system',
          attach: this.closed.with({
            depositId: proof.id,
            userId: proof.userId,
            language: await this.languageOf(proof.userId),
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
          this.deps.logger?.error(
            { err: error, deposit: proof.id },
            'closing a proof failed; tried again next pass',
          );
      }
    }
  }

  /**
   * Credits a deposit and locks it: the credit (external_clearing → wallet) and the lock (a hold
   * of the amount on the wallet) are sent together, so they share a ledger batch as a rule; a lock
   * that is placed when the credit was not is released at once.
   */
  private async credit(row: DepositRow): Promise<DepositRow> {
    const { ledger } = this.deps;
    const asset = row.asset;
    const wallet = await ledger.walletAccount(LIVE, row.userId, asset);
    const clearing = await ledger.systemAccount(LIVE, asset, 'external_clearing');
    const language = await this.languageOf(row.userId);
    const credit = ledger.transfer({
      book: LIVE,
      kind: 'deposit',
      idempotencyKey: `deposit:${row.id}:credit`,
      actor: 'system',
      reference: `deposit:${row.id}`,
      postings: [
        { accountId: clearing, amount: -row.amount },
        { accountId: wallet, amount: row.amount },
      ],
      attach: this.credited.with({
        depositId: row.id,
        userId: row.userId,
        language,
        amount: decimal(row, row.amount),
        asset,
      }),
    });
    const lock = this.placeLock(row, wallet);
    const [credited, locked] = await Promise.allSettled([credit, lock]);
    if (credited.status === 'rejected') {
      if (locked.status === 'fulfilled')
        await ledger.voidHold({
          holdId: locked.value.holdId,
          idempotencyKey: `deposit:${row.id}:unlock`,
          actor: 'system',
        });
      throw credited.reason;
    }
    if (locked.status === 'rejected') return { ...row, state: 'credited' };
    // A replayed lock (placed by a pass that stopped before recording it) is recorded here.
    if (locked.value.replayed) await setDepositLock(this.deps.db, row.id, locked.value.holdId);
    return { ...row, state: 'credited', lockHoldId: locked.value.holdId };
  }

  private placeLock(row: DepositRow, wallet: number) {
    return this.deps.ledger.hold({
      book: LIVE,
      accountId: wallet,
      amount: row.amount,
      idempotencyKey: `deposit:${row.id}:lock`,
      actor: 'system',
      reference: `deposit:${row.id}`,
      attach: this.locked.with({ depositId: row.id }),
    });
  }

  private async lock(row: DepositRow): Promise<DepositRow> {
    const held = await this.placeLock(row, await this.deps.ledger.walletAccount(LIVE, row.userId, row.asset));
    // A replayed lock (placed by a pass that stopped before recording it) is recorded here.
    await setDepositLock(this.deps.db, row.id, held.holdId);
    return (await depositById(this.deps.db, row.id)) ?? row;
  }

  private async unlock(row: DepositRow): Promise<void> {
    if (row.lockHoldId === null) return;
    await this.deps.ledger.voidHold({
      holdId: row.lockHoldId,
      idempotencyKey: `deposit:${row.id}:unlock`,
      actor: 'system',
      attach: this.unlocked.with({ depositId: row.id }),
    });
  }

  /**
   * A deposit whose block was replaced and whose transaction is on the chain no more: a confirming
   * one is closed, a credited one has its lock released and its credit reversed; the customer is
   * told. A reversal the balance cannot carry any more is left for staff (alerted).
   */
  private async reverse(row: DepositRow): Promise<void> {
    const { ledger, db, notices } = this.deps;
    const language = await this.languageOf(row.userId);
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
        if (
          await moveDeposit(tx, row.id, ['credited'], 'reversed', {
            reversalEntryId: reversal.entryId,
            reason: 'reorg',
          })
        )
          await notices.notifyInTx(tx, row.userId, language, 'deposit_reversed', params);
      });
    } catch (error) {
      // Tried again every pass; staff are alerted once per process.
      if (this.alerted.has(row.id)) throw error;
      this.alerted.add(row.id);
      await this.deps.audit.alertStaff(
        'wallet.deposit.reversal_failed',
        `Deposit ${row.id} left the chain but its credit could not be reversed: reverse it by hand`,
        { depositId: row.id, userId: row.userId, error: String(error) },
      );
      throw error;
    }
  }

  // The staff review of proofs (wallet.review.ts reads through these)

  pendingProofs(after: number | null, limit: number) {
    return pendingProofs(this.deps.db, after, limit);
  }

  /** Are this network's proofs checked on chain (else: by hand)? */
  async checkedOnChain(networkId: string): Promise<boolean> {
    const network = (await this.deps.networks.all()).find((n) => n.id === networkId);
    return network !== undefined && checkable(network, this.deps.chain);
  }

  /**
   * What the chain says of a proof's transaction: mined, successful, and how much of the network's
   * asset it moved to the customer's deposit address (the watcher's own reading of transfers, in
   * the transaction's block). Null for a network whose proofs are checked by hand.
   */
  async look(row: DepositRow): Promise<ChainLook | null> {
    const network = (await this.deps.networks.all()).find((n) => n.id === row.network);
    const chain = this.deps.chain;
    if (!network || !checkable(network, chain)) return null;
    const none = { amount: null, confirmations: 0, blockNumber: null, blockHash: null };
    try {
      const hash = `0x${row.txHash}` as Hex;
      const [receipt, head, address] = await Promise.all([
        chain.receipt(hash),
        chain.head(),
        depositAddressOf(this.deps.db, row.userId, network.chain),
      ]);
      if (!receipt) return { verdict: 'not_found', ...none };
      const mined = {
        confirmations: head < receipt.blockNumber ? 0 : Number(head - receipt.blockNumber + 1n),
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
      };
      if (receipt.status !== 'success') return { verdict: 'failed', amount: null, ...mined };
      const moved = (await chain.transfers(receipt.blockNumber, receipt.blockNumber)).filter(
        (t) => normalHash(t.txHash) === row.txHash && t.asset === network.asset,
      );
      const mine = moved.filter((t) => address !== null && t.to === address.toLowerCase());
      const amount = mine.reduce((sum, t) => sum + t.amount, 0n);
      const verdict: DepositChainVerdict =
        moved.length === 0
          ? 'no_transfer'
          : mine.length === 0
            ? 'other_address'
            : amount < row.amount
              ? 'short'
              : 'matches';
      return { verdict, amount, ...mined };
    } catch (error) {
      this.deps.logger?.warn(
        { err: error, deposit: row.id },
        'a deposit proof could not be checked on chain',
      );
      return { verdict: 'unavailable', ...none };
    }
  }

  /** The chain's answer as staff read it beside the proof. */
  private async chainCheck(
    row: DepositRow,
    network: NetworkRow | undefined,
  ): Promise<DepositChainCheck | null> {
    const look = await this.look(row);
    if (!look || !network) return null;
    return {
      verdict: look.verdict,
      amount: look.amount === null ? null : decimal(row, look.amount),
      confirmations: look.confirmations,
      creditConfirmations: network.creditConfirmations,
      unlockConfirmations: network.unlockConfirmations,
      blockNumber: look.blockNumber === null ? null : look.blockNumber.toString(),
    };
  }

  /**
   * Before a proof on a watched network is approved: the chain is read again, and the approval is
   * refused unless it matches (10047 with the verdict; 10031 when the node does not answer). The
   * block it was mined in is kept on the proof, which the approval then hands to the watcher.
   */
  async confirmOnChain(row: DepositRow): Promise<void> {
    const look = await this.look(row);
    if (!look) return;
    if (look.verdict === 'unavailable') throw new ApiError(Code.SERVICE_UNAVAILABLE);
    if (look.verdict !== 'matches' || look.blockNumber === null || look.blockHash === null)
      throw new ApiError(Code.CHAIN_DOES_NOT_CONFIRM, { verdict: look.verdict });
    if (!(await setProofBlock(this.deps.db, row.id, look.blockNumber, look.blockHash)))
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }

  /**
   * An approved proof on chain, moved on at once as the watcher would (credited with its lock when
   * deep enough); a step that fails is tried again by the watcher's next pass.
   */
  async follow(id: number): Promise<void> {
    const chain = this.deps.chain;
    const row = await depositById(this.deps.db, id);
    if (!chain || !row || row.blockNumber === null) return;
    const network = (await this.deps.networks.all()).find((n) => n.id === row.network);
    if (!network) return;
    try {
      await this.step(
        chain,
        await chain.head(),
        network,
        row,
        async (n) => (await chain.block(n))?.hash ?? null,
      );
    } catch (error) {
      this.deps.logger?.error(
        { err: error, deposit: id },
        'an approved proof did not move on; tried again next pass',
      );
    }
  }

  /** A declared deposit as staff review it: the proof, the customer's own address to match, and what the chain says. */
  async proofItem(row: DepositRow) {
    const [customer, networks] = await Promise.all([
      this.deps.customers.get(row.userId),
      this.deps.networks.all(),
    ]);
    const network = networks.find((n) => n.id === row.network);
    return {
      id: row.id,
      userId: row.userId,
      customer: customer?.email ?? customer?.userName ?? `#${row.userId}`,
      network: row.network,
      asset: row.asset,
      amount: decimal(row, row.amount),
      txHash: depositWire(row, networks, null).txHash,
      createdAt: row.createdAt,
      lastSix: row.lastSix ?? '',
      address: row.address,
      customerAddress: network ? await depositAddressOf(this.deps.db, row.userId, network.chain) : null,
      proof: row.proofUpload ?? '',
      state: row.state,
      reason: row.reason,
      onChain: network !== undefined && checkable(network, this.deps.chain),
      chain: await this.chainCheck(row, network),
    };
  }

  /** A deposit, read in the caller's transaction when given one. */
  byId(id: number, tx: Queryable = this.deps.db): Promise<DepositRow | null> {
    return depositById(tx, id);
  }

  /** The customer's address on the network's chain, if they have one. */
  addressOf(userId: number, chain: ChainName): Promise<string | null> {
    return depositAddressOf(this.deps.db, userId, chain);
  }

  /**
   * In the approval's transaction: the hash still unclaimed by a chain deposit, then the deposit
   * available (checked by hand: the hold posted to the wallet), or, checked on chain (its block
   * kept), confirming: the watcher's path from there.
   */
  async approveInTx(tx: Queryable, row: DepositRow, entryId: number | null): Promise<void> {
    await lockTransactionHash(tx, row.txHash);
    if (await transactionClaimed(tx, row.txHash, row.id)) throw new ApiError(Code.TRANSACTION_ALREADY_USED);
    const current = await depositById(tx, row.id);
    const moved =
      current?.blockNumber != null
        ? await moveDeposit(tx, row.id, ['pending_review'], 'confirming')
        : await moveDeposit(tx, row.id, ['pending_review'], 'available', {
            ...(entryId === null ? {} : { creditEntryId: entryId }),
            credited: true,
          });
    if (!moved) throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }

  async rejectInTx(tx: Queryable, row: DepositRow, reason: string): Promise<void> {
    if (!(await moveDeposit(tx, row.id, ['pending_review'], 'rejected', { reason })))
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }
}

/** Runs `step` on every item, at most `limit` at a time. */
async function eachAtMost<T>(limit: number, items: T[], step: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await step(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
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

const confirmationsOf = (row: DepositRow, head: bigint | null): number =>
  head === null || row.blockNumber === null || head < row.blockNumber
    ? 0
    : Number(head - row.blockNumber + 1n);

/** A deposit as the customer reads it, with its progress and the minutes to its next step. */
export function depositWire(row: DepositRow, networks: NetworkRow[], head: bigint | null): Deposit {
  const network = networks.find((n) => n.id === row.network);
  const credit = network?.creditConfirmations ?? 0;
  const unlock = network?.unlockConfirmations ?? 0;
  const confirmations =
    row.blockNumber === null
      ? 0
      : row.state === 'available'
        ? unlock
        : Math.min(confirmationsOf(row, head), unlock);
  const next = row.state === 'confirming' ? credit : row.state === 'credited' ? unlock : null;
  const etaMinutes =
    next === null || !network
      ? null
      : Math.ceil((Math.max(next - confirmations, 0) * network.blockSeconds) / 60);
  return {
    id: row.id,
    network: row.network,
    asset: row.asset,
    amount: decimal(row, row.amount),
    source: row.source,
    state: row.state,
    txHash: network?.chain === 'bitcoin' ? row.txHash : `0x${row.txHash}`,
    address: row.address,
    confirmations,
    creditConfirmations: credit,
    unlockConfirmations: unlock,
    etaMinutes,
    minimum: decimal(row, row.minimum),
    reason: row.reason,
    createdAt: row.createdAt,
    creditedAt: row.creditedAt,
  };
}
