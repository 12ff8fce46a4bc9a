import { createHash } from 'node:crypto';
import { type AuditEvent, canonicalJson } from '../audit/audit.service.ts';
import type { HoldRow, NewEntry, NewHold, NewPosting } from './ledger.batch.repository.ts';
import type { AccountRow } from './ledger.repository.ts';
import {
  type HoldRequest,
  LedgerError,
  type PostHoldRequest,
  type TransferRequest,
  type VoidHoldRequest,
} from './ledger.types.ts';

/*
 * What a ledger batch carries (ledger.batch.ts): the operations queued, the hash and key that make
 * each idempotent, what each does to the accounts, and what the batch locked and read before
 * applying them (ledger.plan.ts) and writing them (ledger.write.ts).
 */

/** One request of the ledger, as it waits for a batch. */
export type Operation =
  | { type: 'transfer'; request: TransferRequest<unknown> }
  | { type: 'hold'; request: HoldRequest<unknown> }
  | { type: 'post'; request: PostHoldRequest<unknown> }
  | { type: 'void'; request: VoidHoldRequest<unknown> };

/** What a batch answers for one operation: the entry it wrote (or replayed), or the hold. */
export type WrittenEntry = {
  entryId: number;
  createdAt: string;
  replayed: boolean;
  attached?: unknown;
  /** The hold a `holdCredit` transfer placed. */
  holdId?: number;
};
export type WrittenHold = { holdId: number; replayed: boolean; attached?: unknown };
export type Written = WrittenEntry | WrittenHold;

export type Pending = {
  op: Operation;
  hash: string;
  /** Operations queued together (`LedgerBatcher.transfers`) share one batch: never split between two. */
  group?: symbol;
  resolve: (written: Written) => void;
  reject: (error: unknown) => void;
};

export type Outcomes = Map<Pending, Written | Error>;

export const MAX_BATCH = 512;
/** Operations that may wait for a batch at once, unless configured (LEDGER_MAX_QUEUED). */
export const DEFAULT_MAX_QUEUED = 20_000;

/** The request as hashed for idempotency: without the actor, postings in account order, an attachment by kind and data. */
function hashedForm(op: Operation): unknown {
  const hashedAttach = (attach: { kind: string; data: unknown } | undefined) =>
    attach ? { attach: { kind: attach.kind, data: attach.data } } : {};
  if (op.type !== 'transfer') {
    const { actor: _actor, attach, ...rest } = op.request;
    return { ...rest, ...hashedAttach(attach) };
  }
  const { actor: _actor, attach, postings, ...rest } = op.request;
  return {
    ...rest,
    postings: [...postings].sort((a, b) => a.accountId - b.accountId),
    ...hashedAttach(attach),
  };
}

export function requestHash(op: Operation): string {
  return createHash('sha256')
    .update(`${op.type}:${canonicalJson(hashedForm(op))}`)
    .digest('hex');
}

export function keyOf(op: Operation): string {
  return op.request.idempotencyKey;
}

/** Where a key is unique: entries (transfer, post), holds, and hold resolutions (post and void share it). */
export function keySlot(op: Operation): string {
  return `${op.type === 'void' ? 'post' : op.type}:${keyOf(op)}`;
}

/** The key of the hold an operation places: a hold's own, or a `holdCredit` transfer's. */
export function holdKeyOf(op: Operation): string | null {
  if (op.type === 'hold') return op.request.idempotencyKey;
  if (op.type === 'transfer') return op.request.holdCredit?.idempotencyKey ?? null;
  return null;
}

export function isEntry(written: Written): written is WrittenEntry {
  return 'entryId' in written;
}

export function entryResult(written: WrittenEntry): {
  entryId: number;
  createdAt: string;
  replayed: boolean;
  holdId?: number;
} {
  const result = { entryId: written.entryId, createdAt: written.createdAt, replayed: written.replayed };
  return written.holdId === undefined ? result : { ...result, holdId: written.holdId };
}

/** What an operation does to each account: balance and held deltas, and the posting lines. */
export type Effect = {
  deltas: Map<number, { balance: bigint; held: bigint }>;
  entry?: NewEntry;
  postings?: Omit<NewPosting, 'entryKey'>[];
  hold?: NewHold;
  resolution?: { holdId: number; status: 'posted' | 'voided' };
  audit: AuditEvent;
};

export type Accepted = { item: Pending; effect: Effect };

/** The rows a batch locked: holds named by post and void, and every account it touches. */
export type Locked = { holds: Map<number, HoldRow>; accounts: Map<number, AccountRow> };

/** Idempotency keys already used, read after the locks. */
export type Stored = {
  entries: Map<string, { id: number; requestHash: string; createdAt: string }>;
  holds: Map<string, HoldRow>;
  resolutions: Map<string, HoldRow>;
};

export function conflict(key: string): LedgerError {
  return new LedgerError('idempotency_conflict', `idempotency key ${key} was used for a different request`);
}
