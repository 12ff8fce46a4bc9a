import type { Book } from './ledger.repository.ts';

export type { Book };

/** A posting changes one account: positive credits it (its balance grows), negative debits it. */
export type Posting = { accountId: number; amount: bigint };

export type TransferRequest = {
  book: Book;
  kind: string;
  idempotencyKey: string;
  postings: readonly Posting[];
  reference?: string | null;
  actor: string;
  reason?: string | null;
  reversesEntryId?: number | null;
};

export type HoldRequest = {
  book: Book;
  accountId: number;
  amount: bigint;
  idempotencyKey: string;
  reference?: string | null;
  actor: string;
};

/** Posts a pending hold: `amount` (at most the hold's) moves from the held account to `toAccountId`; the rest is released. */
export type PostHoldRequest = {
  holdId: number;
  toAccountId: number;
  amount: bigint;
  kind: string;
  idempotencyKey: string;
  actor: string;
  reference?: string | null;
};

export type VoidHoldRequest = { holdId: number; idempotencyKey: string; actor: string };

export type EntryResult = { entryId: number; createdAt: string; replayed: boolean };
export type HoldResult = { holdId: number; replayed: boolean };

export type LedgerErrorCode =
  | 'insufficient_funds'
  | 'idempotency_conflict'
  | 'unknown_account'
  | 'unknown_hold'
  | 'hold_not_pending'
  | 'invalid_request';

/** A refusal of the ledger: nothing was written. */
export class LedgerError extends Error {
  readonly reason: LedgerErrorCode;

  constructor(reason: LedgerErrorCode, message: string) {
    super(message);
    this.reason = reason;
  }
}
