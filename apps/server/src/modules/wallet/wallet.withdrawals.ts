import type {
  Book,
  Language,
  Withdrawal,
  WithdrawalAddress,
  WithdrawalQuote,
  withdrawalBody,
  withdrawalQuoteBody,
} from '@swx/contract';
import { Code } from '@swx/contract';
import type { z } from 'zod/mini';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Client } from '../identity/identity.service.ts';
import { Quotes } from '../products/quotes.ts';
import { addAddress, addresses, removeAddress } from './wallet.addresses.ts';
import { withdrawalAttachments } from './wallet.attachments.ts';
import { confirm, send } from './wallet.send.ts';
import { nowIso, WITHDRAWAL, type WithdrawalDeps, type WithdrawalsContext } from './wallet.shared.ts';
import { commit, limits, list, quote, sendCode, withdrawalWire } from './wallet.withdraw.ts';
import {
  type AddressRow,
  addressById,
  addressesOfOwners,
  moveWithdrawal,
  type WithdrawalRow,
  withdrawalById,
  withdrawalsIn,
} from './wallet.withdrawals.repository.ts';

export type { WithdrawalDeps };

/**
 * Money out: the address book (a new address, and every address after a password change or a
 * two-step removal, waits ADDRESS_LOCK_HOURS), daily limits per asset (higher with a verified
 * identity), quoted withdrawals (amount, fee at the network's rate rounded up, amount received;
 * exactly what is posted), a fresh confirmation (authenticator or mailed code), the amount held on
 * request (20003), staff review (withdrawal.review in wallet.review.ts: four eyes above the
 * threshold), then the signer sends it and the hold is posted when the transaction confirms, or
 * voided with a notice when sending fails. A thin front over its use cases: the address book
 * (`wallet.addresses.ts`), limits, quote, code and commit (`wallet.withdraw.ts`), sending and
 * confirming (`wallet.send.ts`); what they share is in `wallet.shared.ts`.
 */
export class Withdrawals {
  private readonly ctx: WithdrawalsContext;

  constructor(deps: WithdrawalDeps) {
    const now = deps.now ?? Date.now;
    this.ctx = {
      db: deps.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      identity: deps.identity,
      kyc: deps.kyc,
      params: deps.params,
      customers: deps.customers,
      networks: deps.networks,
      chain: deps.chain,
      signer: deps.signer,
      now,
      logger: deps.logger,
      quotes: new Quotes(WITHDRAWAL, { keys: deps.quoteKeys, db: deps.db, now }),
      attachments: withdrawalAttachments({ ...deps, now }),
    };
  }

  // The address book

  addresses(book: Book, userId: number): Promise<WithdrawalAddress[]> {
    return addresses(this.ctx, book, userId);
  }

  addAddress(
    book: Book,
    userId: number,
    body: { network: string; address: string; label: string; signature?: string | undefined },
    client?: Client,
  ): Promise<WithdrawalAddress> {
    return addAddress(this.ctx, book, userId, body, client);
  }

  removeAddress(book: Book, userId: number, id: number): Promise<null> {
    return removeAddress(this.ctx, book, userId, id);
  }

  // Limits, quote, confirm, commit

  limits(book: Book, userId: number): ReturnType<typeof limits> {
    return limits(this.ctx, book, userId);
  }

  /** The exact figures of a withdrawal (valid 60 s): what leaves the balance, the fee, what arrives. */
  quote(book: Book, userId: number, body: z.infer<typeof withdrawalQuoteBody>): Promise<WithdrawalQuote> {
    return quote(this.ctx, book, userId, body);
  }

  /** The code that confirms a withdrawal, for a pending quote of this customer (10028, 10032). */
  sendCode(book: Book, userId: number, language: Language, quoteId: string): ReturnType<typeof sendCode> {
    return sendCode(this.ctx, book, userId, language, quoteId);
  }

  /** Commits a quoted withdrawal: the code, the address again, then ONE hold that records it (20003). */
  commit(book: Book, userId: number, body: z.infer<typeof withdrawalBody>): Promise<Withdrawal> {
    return commit(this.ctx, book, userId, body);
  }

  list(book: Book, userId: number): Promise<Withdrawal[]> {
    return list(this.ctx, book, userId);
  }

  wire(row: WithdrawalRow, head: bigint | null = null): Withdrawal {
    return withdrawalWire(row, head);
  }

  // The review (wallet.review.ts)

  byId(id: number): Promise<WithdrawalRow | null> {
    return withdrawalById(this.ctx.db, id);
  }

  pending(after: number | null, limit: number) {
    return withdrawalsIn(this.ctx.db, ['pending_review'], after, limit);
  }

  async customerName(userId: number): Promise<string> {
    const customer = await this.ctx.customers.get(userId);
    return customer?.email ?? customer?.userName ?? `#${userId}`;
  }

  address(id: number): Promise<AddressRow | null> {
    return addressById(this.ctx.db, id);
  }

  /** Every withdrawal address each of these customers named (removed ones too), in lowercase. */
  addressesOfOwners(userIds: readonly number[]): Promise<Map<number, string[]>> {
    return addressesOfOwners(this.ctx.db, userIds);
  }

  async approveInTx(tx: Queryable, id: number): Promise<void> {
    if (!(await moveWithdrawal(tx, id, ['pending_review'], 'approved', nowIso(this.ctx))))
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }

  async rejectInTx(tx: Queryable, id: number, reason: string): Promise<void> {
    if (!(await moveWithdrawal(tx, id, ['pending_review'], 'rejected', nowIso(this.ctx), { reason })))
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }

  // Sending and confirming (the wallet job, every few seconds)

  /** Signs and sends approved withdrawals, one at a time (the signed transaction stored before it is broadcast). */
  send(): Promise<number> {
    return send(this.ctx);
  }

  /** Follows sent withdrawals: posted at the network's confirmations, released when reverted. */
  confirm(): Promise<number> {
    return confirm(this.ctx);
  }
}
