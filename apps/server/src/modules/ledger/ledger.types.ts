import type { Queryable } from '../../platform/db.ts';
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
  /**
   * A record another module writes in the same transaction as this entry (e.g. the position an
   * entry opens), through the writer it registered for `kind`. Part of the request: a replay with
   * different data is an idempotency conflict.
   */
  attach?: Attachment;
};

export type Attachment = { kind: string; data: Record<string, unknown> };

/** Writes the attachments of one kind for the entries of a batch, inside the batch's transaction. */
export type AttachmentWriter = (
  tx: Queryable,
  rows: readonly { entryId: number; data: Record<string, unknown> }[],
) => Promise<ReadonlyMap<number, unknown> | undefined>;

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

/** `attached`: what the attachment's writer returned for this entry (absent on a replay). */
export type EntryResult = { entryId: number; createdAt: string; replayed: boolean; attached?: unknown };
export type HoldResult = { holdId: number; replayed: boolean };

export type LedgerErrorCode =
  | 'insufficient_funds'
  | 'positions_open'
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
