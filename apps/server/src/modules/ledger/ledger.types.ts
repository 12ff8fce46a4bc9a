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
  /**
   * Holds what the entry credits to one of its accounts, in the entry itself (a chain deposit's
   * lock): the credit and the hold are one operation, so the credited amount is never available
   * in between. The hold is an ordinary pending hold (voided or posted later by its id), keyed by
   * its own idempotency key; part of the request.
   */
  holdCredit?: CreditHold;
  /**
   * Releases (voids) this pending hold in the entry's own operation, before its postings apply:
   * the balance checks see the account after the release, and the release and the entry are written
   * both or neither (`LedgerService.releaseAndTransfer`). The hold's book must be the entry's.
   */
  releaseHold?: number;
};

/** The hold a transfer places on the account it credits: the whole credited amount, on that account. */
export type CreditHold = { accountId: number; idempotencyKey: string; reference?: string | null };

/** What an entry attachment is written for: the entry a transfer wrote, and the hold it placed (`holdCredit`). */
export type EntryTarget = { entryId: number; holdId?: number };
/** What a hold attachment is written for: the hold placed, posted or voided, and the entry a post wrote. */
export type HoldTarget = { holdId: number; entryId: number | null };

/**
 * Writes the attachments of one kind for the operations of a batch, inside the batch's transaction,
 * after the batch's entries and hold changes; answers per entry id (entry attachments) or hold id
 * (hold attachments). When it throws, the operations it was called for are refused: nothing of
 * them is written (the batch is retried operation by operation, so the others go on).
 */
export type AttachmentWriter<D, R, T = EntryTarget> = (
  tx: Queryable,
  rows: readonly (T & { data: D })[],
) => Promise<ReadonlyMap<number, R>>;

/** What the batcher sees of an attachment kind's writer: one call per batch, with that batch's rows. */
export interface AttachmentChannel {
  readonly kind: string;
  /** Writes the rows of one batch (one writer call) and answers what the writer answered, by id. */
  write(tx: Queryable, rows: readonly unknown[]): Promise<ReadonlyMap<number, unknown>>;
}

/** One operation's attachment: its data (hashed with the request), its row, and the writer's answer for it. */
export interface Attachment<R, T = EntryTarget, K extends string = EntryKind> {
  readonly kind: K;
  readonly data: unknown;
  readonly channel: AttachmentChannel;
  /** The writer's row for what the batch wrote for this request. */
  row(target: T): unknown;
  /** What the writer answered for it (by entry id, or hold id), among its batch's answers. */
  result(answers: ReadonlyMap<number, unknown>, id: number): R | undefined;
}
/** The attachment of a hold, a post or a void (`ledger.holdAttachment(name, writer).with(data)`). */
export type HoldAttached<R> = Attachment<R, HoldTarget, string>;

/**
 * One attachment kind and its writer. It keeps no state between calls: each batch passes its own
 * rows and keeps its own answers, so two batches in flight at once never see each other's.
 */
class AttachmentKind<K extends string, T, D, R> implements AttachmentChannel {
  readonly kind: K;
  private readonly writer: AttachmentWriter<D, R, T>;

  constructor(kind: K, writer: AttachmentWriter<D, R, T>) {
    this.kind = kind;
    this.writer = writer;
  }

  /** The attachment of one operation of this kind. */
  with(data: D): Attachment<R, T, K> {
    return {
      kind: this.kind,
      data,
      channel: this,
      row: (target) => ({ ...target, data }),
      result: (answers, id) => answers.get(id) as R | undefined,
    };
  }

  async write(tx: Queryable, rows: readonly unknown[]): Promise<ReadonlyMap<number, unknown>> {
    return rows.length > 0 ? this.writer(tx, rows as (T & { data: D })[]) : new Map();
  }
}

/**
 * The attachment of one entry kind: the module that owns the kind registers it once with the
 * ledger (`LedgerService.attachment`) and attaches typed data to each of its transfers.
 */
export class EntryAttachment<D, R> extends AttachmentKind<EntryKind, EntryTarget, D, R> {}

/**
 * A hold attachment, registered once by name (`LedgerService.holdAttachment`): a record the
 * owning module writes in the same transaction as a hold, its post or its void (e.g. a staff
 * decision posting or voiding the hold it decides), after the hold's change.
 */
export class HoldAttachment<D, R> extends AttachmentKind<string, HoldTarget, D, R> {}

/** `R`: what a hold attachment's writer answers (`attach`, as on a transfer, for hold, post and void). */
export type HoldRequest<R = never> = {
  book: Book;
  accountId: number;
  amount: bigint;
  idempotencyKey: string;
  reference?: string | null;
  actor: string;
  attach?: HoldAttached<R>;
};

/** Posts a pending hold: `amount` (at most the hold's) moves from the held account to `toAccountId`; the rest is released. */
export type PostHoldRequest<R = never> = {
  holdId: number;
  toAccountId: number;
  amount: bigint;
  /**
   * A second destination of the same post, in the same ONE entry (a sale's platform fee beside the
   * charity's share): `amount` + `also.amount` at most the hold's, to another account of its book and asset.
   */
  also?: { accountId: number; amount: bigint };
  kind: EntryKind;
  idempotencyKey: string;
  actor: string;
  reference?: string | null;
  attach?: HoldAttached<R>;
};

/** A void is replayed by its key and hold (its attachment data is not compared). */
export type VoidHoldRequest<R = never> = {
  holdId: number;
  idempotencyKey: string;
  actor: string;
  attach?: HoldAttached<R>;
};

/**
 * `attached`: what the attachment's writer returned for this entry (absent on a replay); `holdId`:
 * the hold a `holdCredit` transfer placed (on a replay too).
 */
export type EntryResult<R = never> = {
  entryId: number;
  createdAt: string;
  replayed: boolean;
  attached?: R;
  holdId?: number;
};
export type HoldResult<R = never> = { holdId: number; replayed: boolean; attached?: R };

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
  /** insufficient_funds: the account that could not cover it. */
  readonly accountId: number | null;

  constructor(reason: LedgerErrorCode, message: string, accountId: number | null = null) {
    const mapped = ledgerErrorCode(reason);
    super(message, mapped?.code ?? null, mapped?.data ?? null);
    this.reason = reason;
    this.accountId = accountId;
  }
}
