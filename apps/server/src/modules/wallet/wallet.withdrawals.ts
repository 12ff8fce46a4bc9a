import {
  ADDRESS_LOCK_HOURS,
  ASSET_SCALES,
  type Book,
  Code,
  isLanguage,
  type Language,
  NETWORK_ASSETS,
  type NetworkAsset,
  parseMinor,
  type Withdrawal,
  type WithdrawalAddress,
  type WithdrawalQuote,
  type withdrawalBody,
  type withdrawalQuoteBody,
} from '@swx/contract';
import { z } from 'zod/mini';
import type { Chain, Hex, WithdrawalSigner } from '../../platform/chain.ts';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { Client, IdentityService } from '../identity/identity.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import { bigintText, Quotes } from '../products/quotes.ts';
import { requireLive } from './wallet.deposits.ts';
import {
  amountOf,
  decimal,
  type Networks,
  normalAddress,
  normalRate,
  withdrawalFee,
} from './wallet.networks.ts';
import { provedOwnership } from './wallet.ownership.ts';
import {
  type AddressRow,
  addressById,
  addressesOf,
  insertAddress,
  insertWithdrawal,
  lockCustomerWithdrawals,
  moveWithdrawal,
  type NetworkRow,
  removeAddress,
  saveSigned,
  setSettleEntry,
  takeNonce,
  unsettledWithdrawals,
  type WithdrawalRow,
  withdrawalById,
  withdrawalByRequest,
  withdrawalsIn,
  withdrawalsOf,
  withdrawnSince,
} from './wallet.repository.ts';

export type WithdrawalDeps = {
  db: Database;
  ledger: LedgerService;
  audit: AuditService;
  notices: NoticesService;
  identity: Pick<
    IdentityService,
    'confirmationMethod' | 'sendActionCode' | 'confirmAction' | 'securityChangedAt' | 'securityAlert'
  >;
  kyc: Pick<KycService, 'stateOf'>;
  params: Pick<ParamsService, 'get'>;
  customers: Pick<CustomerDirectory, 'get'>;
  networks: Networks;
  chain: Chain | null;
  signer: WithdrawalSigner | null;
  quoteKeys: PurposeKeys;
  now?: () => number;
  logger?: Logger;
};

const LIVE: Book = 'live';
/** Addresses a customer may keep in the book at once. */
const MAX_ADDRESSES = 20;
const HOUR_MS = 3_600_000;
/** Minutes an approved withdrawal may keep failing to reach the node before it is given up (hold released). */
const SEND_GIVE_UP_MS = 30 * 60_000;
/** Blocks a sent transaction may stay unmined before it is broadcast again. */
const REBROADCAST_BLOCKS = 20n;

/** What a withdrawal quote carries and the commit posts, exactly. */
const WITHDRAWAL = {
  name: 'withdrawal.v1',
  validSeconds: 60,
  figures: z.object({
    network: z.string(),
    addressId: z.int(),
    address: z.string(),
    amount: bigintText,
    fee: bigintText,
    receive: bigintText,
  }),
} as const;

const startOfUtcDay = (ms: number) => {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())).toISOString();
};

/**
 * Money out: the address book (a new address, and every address after a password change or a
 * two-step removal, waits ADDRESS_LOCK_HOURS), daily limits per asset (higher with a verified
 * identity), quoted withdrawals (amount, fee at the network's rate rounded up, amount received;
 * exactly what is posted), a fresh confirmation (authenticator or mailed code), the amount held on
 * request (20003), staff review (withdrawal.review in wallet.review.ts: four eyes above the
 * threshold), then the signer sends it and the hold is posted when the transaction confirms, or
 * voided with a notice when sending fails.
 */
export class Withdrawals {
  private readonly deps: WithdrawalDeps;
  private readonly now: () => number;
  private readonly quotes: Quotes<typeof WITHDRAWAL.figures>;
  private readonly requested;
  private readonly posted;
  private readonly settled;
  private readonly released;

  constructor(deps: WithdrawalDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    this.quotes = new Quotes(WITHDRAWAL, { keys: deps.quoteKeys, db: deps.db, now: this.now });
    const { ledger } = deps;
    type Requested = {
      userId: number;
      requestId: string;
      network: string;
      asset: NetworkAsset;
      addressId: number;
      address: string;
      amount: string;
      fee: string;
      receive: string;
      limit: string;
      since: string;
    };
    this.requested = ledger.holdAttachment<Requested, number>('withdrawal_request', async (tx, rows) => {
      const done = new Map<number, number>();
      for (const { holdId, data } of rows) {
        // The daily limit is a sum over the customer's withdrawals: counted under their lock.
        await lockCustomerWithdrawals(tx, data.userId);
        const used = await withdrawnSince(tx, data.userId, data.asset, data.since);
        if (used + BigInt(data.amount) > BigInt(data.limit)) throw this.limitRefusal(data, used);
        const id = await insertWithdrawal(tx, {
          userId: data.userId,
          requestId: data.requestId,
          network: data.network,
          asset: data.asset,
          addressId: data.addressId,
          address: data.address,
          amount: BigInt(data.amount),
          fee: BigInt(data.fee),
          receive: BigInt(data.receive),
          holdId,
        });
        done.set(holdId, id);
      }
      return done;
    });
    type Step = { withdrawalId: number; userId: number; language: Language; params: Record<string, string> };
    this.posted = ledger.holdAttachment<Step, boolean>('withdrawal_post', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { holdId, entryId, data } of rows) {
        const moved = await moveWithdrawal(tx, data.withdrawalId, ['sent'], 'completed', {
          ...(entryId === null ? {} : { postEntryId: entryId }),
          completed: true,
        });
        if (!moved) throw new Error(`withdrawal ${data.withdrawalId} is not sent`);
        await deps.notices.notifyInTx(tx, data.userId, data.language, 'withdrawal_completed', data.params);
        done.set(holdId, true);
      }
      return done;
    });
    this.released = ledger.holdAttachment<Step & { reason: string }, boolean>(
      'withdrawal_release',
      async (tx, rows) => {
        const done = new Map<number, boolean>();
        for (const { holdId, data } of rows) {
          const moved = await moveWithdrawal(tx, data.withdrawalId, ['approved', 'sent'], 'failed', {
            reason: data.reason,
          });
          if (!moved) throw new Error(`withdrawal ${data.withdrawalId} cannot fail now`);
          await deps.notices.notifyInTx(tx, data.userId, data.language, 'withdrawal_failed', data.params);
          done.set(holdId, true);
        }
        return done;
      },
    );
    this.settled = ledger.attachment<{ withdrawalId: number }, boolean>('withdrawal', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { entryId, data } of rows) {
        await setSettleEntry(tx, data.withdrawalId, entryId);
        done.set(entryId, true);
      }
      return done;
    });
  }

  private limitRefusal(data: { asset: NetworkAsset; limit: string }, used: bigint): ApiError {
    const limit = BigInt(data.limit);
    const left = limit > used ? limit - used : 0n;
    return new ApiError(Code.DAILY_LIMIT_REACHED, {
      asset: data.asset,
      limit: decimal({ asset: data.asset }, limit),
      left: decimal({ asset: data.asset }, left),
    });
  }

  private async languageOf(userId: number): Promise<Language> {
    const customer = await this.deps.customers.get(userId);
    return customer && isLanguage(customer.language) ? customer.language : 'en';
  }

  // The address book

  /**
   * When an address can first be used: ADDRESS_LOCK_HOURS after it was added, or after the account's
   * last security change (password change or reset, two-step removal) when that came later. Opening
   * the account is no such change: an address's own addition starts its wait.
   */
  private usableFrom(address: AddressRow, securityChange: string | null): string {
    const added = Date.parse(address.createdAt);
    const changed = securityChange === null ? 0 : Date.parse(securityChange);
    return new Date(Math.max(added, changed) + ADDRESS_LOCK_HOURS * HOUR_MS).toISOString();
  }

  private addressWire(row: AddressRow, securityChange: string | null): WithdrawalAddress {
    return {
      id: row.id,
      network: row.network,
      address: row.address,
      label: row.label,
      usableFrom: this.usableFrom(row, securityChange),
      createdAt: row.createdAt,
      owned: row.ownershipSignature !== null,
    };
  }

  async addresses(book: Book, userId: number): Promise<WithdrawalAddress[]> {
    requireLive(book);
    const [rows, changed] = await Promise.all([
      addressesOf(this.deps.db, userId),
      this.deps.identity.securityChangedAt(userId),
    ]);
    return rows.map((row) => this.addressWire(row, changed));
  }

  async addAddress(
    book: Book,
    userId: number,
    body: { network: string; address: string; label: string; signature?: string | undefined },
    client?: Client,
  ): Promise<WithdrawalAddress> {
    requireLive(book);
    const network = await this.deps.networks.get(body.network);
    const address = normalAddress(network, body.address);
    const ownershipSignature =
      body.signature === undefined ? null : await provedOwnership(network, address, userId, body.signature);
    const row = await this.deps.db.transaction(async (tx) => {
      await lockCustomerWithdrawals(tx, userId);
      if ((await addressesOf(tx, userId)).length >= MAX_ADDRESSES)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'address', issue: 'too_many' }]);
      const added = await insertAddress(tx, {
        userId,
        network: network.id,
        address,
        label: body.label,
        ownershipSignature,
      });
      if (!added) throw new ApiError(Code.INVALID_INPUT, [{ path: 'address', issue: 'duplicate' }]);
      await this.deps.audit.appendInTx(tx, [
        {
          actor: `customer:${userId}`,
          action: 'wallet.address.added',
          subject: `withdrawal_address:${added.id}`,
          data: { network: network.id, address, owned: ownershipSignature !== null },
        },
      ]);
      return added;
    });
    // The customer hears of it by mail and notice, with the lock link.
    const from = client ?? { ip: '', userAgent: '', language: await this.languageOf(userId) };
    await this.deps.identity.securityAlert(userId, 'addressAdded', from, {
      network: network.name,
      address,
    });
    return this.addressWire(row, await this.deps.identity.securityChangedAt(userId));
  }

  async removeAddress(book: Book, userId: number, id: number): Promise<null> {
    requireLive(book);
    await this.deps.db.transaction(async (tx) => {
      if (!(await removeAddress(tx, userId, id))) throw new ApiError(Code.NOT_FOUND);
      await this.deps.audit.appendInTx(tx, [
        {
          actor: `customer:${userId}`,
          action: 'wallet.address.removed',
          subject: `withdrawal_address:${id}`,
          data: {},
        },
      ]);
    });
    return null;
  }

  // Limits

  private async limitOf(userId: number, asset: NetworkAsset): Promise<{ limit: bigint; verified: boolean }> {
    const verified = (await this.deps.kyc.stateOf(userId)) === 'verified';
    const value = await this.deps.params.get(`withdrawalDailyLimit${verified ? 'Verified' : ''}.${asset}`);
    return { limit: value === null ? 0n : parseMinor(value, ASSET_SCALES[asset]), verified };
  }

  async limits(book: Book, userId: number) {
    requireLive(book);
    const since = startOfUtcDay(this.now());
    return Promise.all(
      NETWORK_ASSETS.map(async (asset) => {
        const { limit, verified } = await this.limitOf(userId, asset);
        const used = await withdrawnSince(this.deps.db, userId, asset, since);
        return {
          asset,
          limit: decimal({ asset }, limit),
          used: decimal({ asset }, used),
          verified,
        };
      }),
    );
  }

  // Quote, confirm, commit

  /** The network and address of a withdrawal: a network the platform sends on (10025), an address of the book (10021), unlocked (10041). */
  private async target(
    userId: number,
    networkId: string | undefined,
    addressId: number | undefined,
  ): Promise<{ network: NetworkRow; address: AddressRow }> {
    const network = await this.deps.networks.get(networkId);
    if (!network.watched || !this.deps.signer) throw new ApiError(Code.SELECT_WITHDRAWAL_METHOD);
    if (addressId === undefined) throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
    const address = await addressById(this.deps.db, addressId);
    if (!address || address.userId !== userId || address.removedAt !== null || address.network !== network.id)
      throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
    const usableFrom = this.usableFrom(address, await this.deps.identity.securityChangedAt(userId));
    if (Date.parse(usableFrom) > this.now()) throw new ApiError(Code.ADDRESS_LOCKED, { usableFrom });
    return { network, address };
  }

  /** The exact figures of a withdrawal (valid 60 s): what leaves the balance, the fee, what arrives. */
  async quote(
    book: Book,
    userId: number,
    body: z.infer<typeof withdrawalQuoteBody>,
  ): Promise<WithdrawalQuote> {
    requireLive(book);
    const { network, address } = await this.target(userId, body.network, body.addressId);
    const amount = amountOf(network, body.amount);
    if (amount < network.withdrawalMinimum)
      throw new ApiError(Code.BELOW_MINIMUM, {
        asset: network.asset,
        minimum: decimal(network, network.withdrawalMinimum),
      });
    if (amount > network.withdrawalMaximum)
      throw new ApiError(Code.ABOVE_MAXIMUM, {
        asset: network.asset,
        maximum: decimal(network, network.withdrawalMaximum),
      });
    const fee = withdrawalFee(amount, network.withdrawalFeeRate);
    if (fee >= amount)
      throw new ApiError(Code.BELOW_MINIMUM, {
        asset: network.asset,
        minimum: decimal(network, network.withdrawalMinimum),
      });
    const balance = (await this.deps.ledger.balances(LIVE, userId)).find((b) => b.asset === network.asset);
    if (!balance || balance.available < amount) throw new ApiError(Code.INSUFFICIENT_BALANCE);
    const { limit } = await this.limitOf(userId, network.asset);
    const used = await withdrawnSince(this.deps.db, userId, network.asset, startOfUtcDay(this.now()));
    if (used + amount > limit)
      throw this.limitRefusal({ asset: network.asset, limit: limit.toString() }, used);
    const figures = {
      network: network.id,
      addressId: address.id,
      address: address.address,
      amount,
      fee,
      receive: amount - fee,
    };
    const ref = this.quotes.issue({ customerId: userId, book: LIVE }, Math.floor(this.now() / 1000), figures);
    return {
      ...ref,
      network: network.id,
      asset: network.asset,
      address: address.address,
      addressId: address.id,
      amount: decimal(network, amount),
      fee: decimal(network, fee),
      feeRate: normalRate(network.withdrawalFeeRate),
      receive: decimal(network, amount - fee),
      arrivalMinutes: network.arrivalMinutes,
      confirmation: await this.deps.identity.confirmationMethod(userId),
    };
  }

  /** What a withdrawal code names and confirms: the quote's amount, asset, network and destination. */
  private async factsOf(figures: { network: string; address: string; amount: bigint }) {
    const network = await this.deps.networks.get(figures.network);
    return {
      amount: decimal(network, figures.amount),
      asset: network.asset,
      network: network.name,
      address: figures.address,
    };
  }

  /**
   * The code that confirms a withdrawal is only issued for a pending quote of this customer (not
   * another's: 10028; not expired: 10032), and its mail names that quote's figures.
   */
  async sendCode(book: Book, userId: number, language: Language, quoteId: string) {
    requireLive(book);
    const quote = this.quotes.verify(quoteId, { customerId: userId, book: LIVE });
    const now = Math.floor(this.now() / 1000);
    if (now > quote.expiresAt) throw new ApiError(Code.PRICE_CHANGED, { expiresAt: quote.expiresAt, now });
    return this.deps.identity.sendActionCode(userId, language, await this.factsOf(quote.figures));
  }

  /**
   * Commits a quoted withdrawal: the confirmation code first (10091), the address checked again
   * (it may have been removed, or locked by a security change since the quote), then ONE ledger
   * hold of the quoted amount whose attachment records the withdrawal, checking the daily limit
   * under the customer's lock. The same request id answers the first withdrawal.
   */
  async commit(book: Book, userId: number, body: z.infer<typeof withdrawalBody>): Promise<Withdrawal> {
    requireLive(book);
    const holder = { customerId: userId, book: LIVE };
    const replay = async () => {
      const done = await withdrawalByRequest(this.deps.db, userId, body.requestId);
      return done ? this.wire(done) : null;
    };
    return this.quotes.commit(body.quoteId, holder, {
      requestKey: `${userId}:${body.requestId}`,
      replay,
      post: async ({ figures }) => {
        const done = await replay();
        if (done) return done;
        await this.deps.identity.confirmAction(userId, body.code, await this.factsOf(figures));
        const { network, address } = await this.target(userId, figures.network, figures.addressId);
        if (address.address !== figures.address) throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
        const { limit } = await this.limitOf(userId, network.asset);
        const held = await this.deps.ledger.hold({
          book: LIVE,
          accountId: await this.deps.ledger.walletAccount(LIVE, userId, network.asset),
          amount: figures.amount,
          idempotencyKey: `withdrawal:${userId}:${body.requestId}`,
          actor: `customer:${userId}`,
          reference: `withdrawal-request:${body.requestId}`,
          attach: this.requested.with({
            userId,
            requestId: body.requestId,
            network: network.id,
            asset: network.asset,
            addressId: address.id,
            address: address.address,
            amount: figures.amount.toString(),
            fee: figures.fee.toString(),
            receive: figures.receive.toString(),
            limit: limit.toString(),
            since: startOfUtcDay(this.now()),
          }),
        });
        const row = await withdrawalByRequest(this.deps.db, userId, body.requestId);
        if (!row || row.holdId !== held.holdId) throw new ApiError(Code.NOT_FOUND);
        return this.wire(row);
      },
    });
  }

  async list(book: Book, userId: number): Promise<Withdrawal[]> {
    requireLive(book);
    const rows = await withdrawalsOf(this.deps.db, userId, 200);
    const head =
      rows.some((r) => r.state === 'sent') && this.deps.chain ? await this.deps.chain.head() : null;
    return rows.map((row) => this.wire(row, head));
  }

  wire(row: WithdrawalRow, head: bigint | null = null): Withdrawal {
    return {
      id: row.id,
      network: row.network,
      asset: row.asset,
      address: row.address,
      amount: decimal(row, row.amount),
      fee: decimal(row, row.fee),
      receive: decimal(row, row.receive),
      state: row.state,
      txHash: row.txHash,
      confirmations:
        row.state === 'sent' && head !== null && row.sentBlock !== null && head >= row.sentBlock
          ? Number(head - row.sentBlock)
          : 0,
      reason: row.reason,
      createdAt: row.createdAt,
      completedAt: row.completedAt,
    };
  }

  // The review (wallet.review.ts)

  byId(id: number): Promise<WithdrawalRow | null> {
    return withdrawalById(this.deps.db, id);
  }

  pending(after: number | null, limit: number) {
    return withdrawalsIn(this.deps.db, ['pending_review'], after, limit);
  }

  async customerName(userId: number): Promise<string> {
    const customer = await this.deps.customers.get(userId);
    return customer?.email ?? customer?.userName ?? `#${userId}`;
  }

  address(id: number): Promise<AddressRow | null> {
    return addressById(this.deps.db, id);
  }

  async approveInTx(tx: Queryable, id: number): Promise<void> {
    if (!(await moveWithdrawal(tx, id, ['pending_review'], 'approved')))
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }

  async rejectInTx(tx: Queryable, id: number, reason: string): Promise<void> {
    if (!(await moveWithdrawal(tx, id, ['pending_review'], 'rejected', { reason })))
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }

  // Sending and confirming (the wallet job, every few seconds)

  private paramsOf(row: WithdrawalRow): Record<string, string> {
    return {
      amount: decimal(row, row.amount),
      receive: decimal(row, row.receive),
      asset: row.asset,
      address: row.address,
    };
  }

  /**
   * Signs and sends approved withdrawals, one at a time. The signed transaction (with its nonce,
   * taken from the database so no two withdrawals share one) is stored before it is broadcast, so
   * a crash or a second node sends the same transaction again, never a second one.
   */
  async send(): Promise<number> {
    const { chain, signer, db } = this.deps;
    if (!chain || !signer) return 0;
    let sent = 0;
    for (const row of await withdrawalsIn(db, ['approved'], null, 50)) {
      let signed = row.rawTx && row.txHash ? { raw: row.rawTx as Hex, hash: row.txHash as Hex } : null;
      if (!signed) {
        const chainNext = await chain.nonce(signer.address);
        signed = await db.transaction(async (tx) => {
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
        if (!signed) continue;
      }
      try {
        await chain.broadcast(signed.raw);
        const head = await chain.head();
        if (await moveWithdrawal(db, row.id, ['approved'], 'sent', { sentBlock: head })) sent += 1;
      } catch (error) {
        this.deps.logger?.warn(
          { err: error, withdrawal: row.id },
          'withdrawal broadcast failed; tried again',
        );
        if (this.now() - Date.parse(row.createdAt) > SEND_GIVE_UP_MS && !(await chain.receipt(signed.hash)))
          await this.fail(row, 'not_sent');
      }
    }
    return sent;
  }

  /**
   * Follows sent withdrawals: at the network's confirmations the hold is posted (the customer's
   * amount to pending_withdrawals, then split: what was received to external_clearing, the fee to
   * fees); a reverted transaction releases the hold with a notice; one that stays unmined is
   * broadcast again.
   */
  async confirm(): Promise<number> {
    const { chain, db } = this.deps;
    if (!chain) return 0;
    const head = await chain.head();
    const networks = new Map((await this.deps.networks.all()).map((n) => [n.id, n]));
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
        await this.fail(row, 'reverted');
        continue;
      }
      if (head - receipt.blockNumber + 1n < BigInt(network.creditConfirmations)) continue;
      await this.post(row);
      completed += 1;
    }
    // Posted withdrawals whose split has not been written yet (a crash between the two entries).
    for (const row of await unsettledWithdrawals(db, 200)) await this.settle(row);
    return completed;
  }

  private async post(row: WithdrawalRow): Promise<void> {
    const { ledger } = this.deps;
    await ledger.postHold({
      holdId: row.holdId,
      toAccountId: await ledger.systemAccount(LIVE, row.asset, 'pending_withdrawals'),
      amount: row.amount,
      kind: 'withdrawal',
      idempotencyKey: `withdrawal:${row.id}:post`,
      actor: 'system',
      reference: `withdrawal:${row.id}`,
      attach: this.posted.with({
        withdrawalId: row.id,
        userId: row.userId,
        language: await this.languageOf(row.userId),
        params: this.paramsOf(row),
      }),
    });
    await this.settle(row);
  }

  /** The posted amount split: what the customer received leaves through external_clearing, the fee goes to fees. */
  private async settle(row: WithdrawalRow): Promise<void> {
    const { ledger } = this.deps;
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
      attach: this.settled.with({ withdrawalId: row.id }),
    });
  }

  /** Sending failed: the hold is voided and the customer told (no fee is charged). */
  private async fail(row: WithdrawalRow, reason: string): Promise<void> {
    await this.deps.ledger.voidHold({
      holdId: row.holdId,
      idempotencyKey: `withdrawal:${row.id}:release`,
      actor: 'system',
      attach: this.released.with({
        withdrawalId: row.id,
        userId: row.userId,
        language: await this.languageOf(row.userId),
        params: this.paramsOf(row),
        reason,
      }),
    });
  }
}
