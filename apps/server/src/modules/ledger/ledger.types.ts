import { type Book, Code, type CodeValue, type EntryKind } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { CodedError } from '../../platform/http.ts';

export type { Book, EntryKind };

/** A posting changes one account: positive credits it (its balance grows), negative debits it. */
export type Posting = { accountId: number; amount: bigint };

/** `R`: what the entry's attachment writer answers for it (see `attach`). */
export type TransferRequest<R = never> = {
  book: Book;
  kind: EntryKind;
  idempotencyKey: string;
  postings: readonly Posting[];
  reference?: string | null;
  actor: string;
  reason?: string | null;
  reversesEntryId?: number | null;
  /**
   * A record the module owning the entry's kind writes in the same transaction as the entry (e.g.
   * the position an entry opens), made by `ledger.attachment(kind, writer).with(data)`. Part of
   * the request: a replay with different data is an idempotency conflict.
   */
  attach?: Attachment<R>;
};

/** Writes the attachments of one entry kind for the entries of a batch, inside the batch's transaction. */
export type AttachmentWriter<D, R> = (
  tx: Queryable,
  rows: readonly { entryId: number; data: D }[],
) => Promise<ReadonlyMap<number, R>>;

/** What the batcher sees of an entry kind's writer: the rows of the running batch, written at once. */
export interface AttachmentChannel {
  readonly kind: EntryKind;
  /** Forgets the rows and results of an earlier batch. */
  clear(): void;
  /** Writes the rows staged in this batch (one writer call) and keeps what the writer answered. */
  flush(tx: Queryable): Promise<void>;
}

/** One entry's attachment: its data (hashed with the request) and, once written, the writer's answer. */
export interface Attachment<R> {
  readonly kind: EntryKind;
  readonly data: unknown;
  readonly channel: AttachmentChannel;
  /** Stages the data for the entry the batch wrote for this request. */
  stage(entryId: number): void;
  /** What the writer answered for the entry, in the batch that wrote it. */
  result(entryId: number): R | undefined;
}

/**
 * The attachment of one entry kind: the module that owns the kind registers it once with the
 * ledger (`LedgerService.attachment`) and attaches typed data to each of its transfers.
 */
export class EntryAttachment<D, R> implements AttachmentChannel {
  readonly kind: EntryKind;
  private readonly writer: AttachmentWriter<D, R>;
  private rows: { entryId: number; data: D }[] = [];
  private results: ReadonlyMap<number, R> = new Map();

  constructor(kind: EntryKind, writer: AttachmentWriter<D, R>) {
    this.kind = kind;
    this.writer = writer;
  }

  /** The attachment of one transfer of this kind. */
  with(data: D): Attachment<R> {
    return {
      kind: this.kind,
      data,
      channel: this,
      stage: (entryId) => {
        this.rows.push({ entryId, data });
      },
      result: (entryId) => this.results.get(entryId),
    };
  }

  clear(): void {
    this.rows = [];
    this.results = new Map();
  }

  async flush(tx: Queryable): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    this.results = rows.length > 0 ? await this.writer(tx, rows) : new Map();
  }
}

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
  kind: EntryKind;
  idempotencyKey: string;
  actor: string;
  reference?: string | null;
};

export type VoidHoldRequest = { holdId: number; idempotencyKey: string; actor: string };

/** `attached`: what the attachment's writer returned for this entry (absent on a replay). */
export type EntryResult<R = never> = { entryId: number; createdAt: string; replayed: boolean; attached?: R };
export type HoldResult = { holdId: number; replayed: boolean };

export type LedgerErrorCode =
  | 'insufficient_funds'
  | 'positions_open'
  | 'idempotency_conflict'
  | 'unknown_account'
  | 'unknown_hold'
  | 'hold_not_pending'
  | 'invalid_request'
  /** The batcher's queue is full (LEDGER_MAX_QUEUED): nothing was queued; try again later. */
  | 'unavailable';

/**
 * The one mapping of ledger refusals to catalogue codes (spec §8), with the envelope's data. The
 * other reasons are faults of the calling code, not of the customer's request: null (logged, 10030).
 */
export function ledgerErrorCode(reason: LedgerErrorCode): { code: CodeValue; data: unknown } | null {
  switch (reason) {
    case 'insufficient_funds':
      return { code: Code.INSUFFICIENT_BALANCE, data: null };
    case 'positions_open':
      return { code: Code.POSITIONS_OPEN, data: null };
    case 'unavailable':
      return { code: Code.SERVICE_UNAVAILABLE, data: null };
    case 'idempotency_conflict':
      // The client's request id was already used for a different request.
      return { code: Code.INVALID_INPUT, data: [{ path: 'requestId', issue: 'in_use' }] };
    default:
      return null;
  }
}

/** A refusal of the ledger: nothing was written. Reaching the API, it answers `ledgerErrorCode`. */
export class LedgerError extends CodedError {
  readonly reason: LedgerErrorCode;

  constructor(reason: LedgerErrorCode, message: string) {
    const mapped = ledgerErrorCode(reason);
    super(message, mapped?.code ?? null, mapped?.data ?? null);
    this.reason = reason;
  }
}
