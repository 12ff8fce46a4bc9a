import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { ledgerBatchSeconds, ledgerBatchSize, ledgerQueueDepth } from '../../platform/metrics.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { type HoldRow, holdsByKeys, holdsByResolutionKeys, lockHolds } from './ledger.batch.repository.ts';
import {
  DEFAULT_MAX_QUEUED,
  entryResult,
  holdKeyOf,
  isEntry,
  keyOf,
  type Locked,
  MAX_BATCH,
  type Operation,
  type Outcomes,
  type Pending,
  requestHash,
  type Stored,
  type Written,
} from './ledger.operations.ts';
import { applyBatch } from './ledger.plan.ts';
import { lockAccountsReadingKeys } from './ledger.repository.ts';
import {
  type AttachmentChannel,
  type AttachmentWriter,
  EntryAttachment,
  type EntryKind,
  type EntryResult,
  type HoldAttached,
  HoldAttachment,
  type HoldRequest,
  type HoldResult,
  type HoldTarget,
  LedgerError,
  type PostHoldRequest,
  type TransferRequest,
  type VoidHoldRequest,
} from './ledger.types.ts';
import { writeAccepted } from './ledger.write.ts';

/** A ledger's queue bound and clock (the service clock; Date.now unless given). */
export type LedgerOptions = { maxQueued?: number; now?: () => number };

/**
 * Group commit for the ledger. Requests queue up while a batch is being written; the next batch
 * takes everything queued (up to MAX_BATCH) into ONE transaction: lock the accounts and holds it
 * touches (in id order) and read idempotency keys (for a batch of transfers, one statement), apply
 * the operations one by one to the locked balances in memory (each accepted or refused on its own,
 * exactly as if run alone in order), then write all accepted effects with a handful of set-based
 * statements (entries, postings, holds and balances in one; each attachment kind's rows in one;
 * the batch's audit row in one) and one commit. The database still checks every invariant
 * (entries net to zero, customer balance - held >= 0, append-only, books never mixed). If a batch
 * fails as a whole (a deadlock, a key raced in from another node), each operation is retried
 * alone, so one bad request never sinks the others.
 * The queue is bounded (`maxQueued`): when it is full a request is refused at once
 * (`unavailable`, code 10031) rather than left waiting behind an ever longer line.
 *
 * What a batch carries is in `ledger.operations.ts`; applying it in memory in `ledger.plan.ts`;
 * writing it in `ledger.write.ts`.
 */
export class LedgerBatcher {
  private queue: Pending[] = [];
  private running = false;
  private readonly db: Database;
  private readonly audit: AuditService;
  private readonly logger: Logger | undefined;
  private readonly maxQueued: number;
  /** The service clock: an entry is dated by it (a sandbox's movable clock too). */
  private readonly now: () => number;
  /** Figures for benchmarks and logs. */
  readonly stats = { batches: 0, operations: 0, fallbacks: 0, refusedFull: 0 };
  private readonly channels = new Map<EntryKind, AttachmentChannel>();
  private readonly holdChannels = new Map<string, AttachmentChannel>();

  constructor(db: Database, audit: AuditService, logger?: Logger, limits: LedgerOptions = {}) {
    this.db = db;
    this.audit = audit;
    this.logger = logger;
    this.now = limits.now ?? Date.now;
    this.maxQueued = limits.maxQueued ?? DEFAULT_MAX_QUEUED;
    if (!Number.isInteger(this.maxQueued) || this.maxQueued < 1)
      throw new Error('the ledger queue holds at least one operation');
  }

  /** Registers the attachment of one entry kind (see TransferRequest.attach); once per kind. */
  attachment<D, R>(kind: EntryKind, writer: AttachmentWriter<D, R>): EntryAttachment<D, R> {
    if (this.channels.has(kind)) throw new Error(`attachment of ${kind} registered twice`);
    const attachment = new EntryAttachment(kind, writer);
    this.channels.set(kind, attachment);
    return attachment;
  }

  /** Registers a hold attachment (see HoldRequest.attach) under its name; once per name. */
  holdAttachment<D, R>(name: string, writer: AttachmentWriter<D, R, HoldTarget>): HoldAttachment<D, R> {
    if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid hold attachment name ${name}`);
    if (this.holdChannels.has(name)) throw new Error(`hold attachment ${name} registered twice`);
    const attachment = new HoldAttachment(name, writer);
    this.holdChannels.set(name, attachment);
    return attachment;
  }

  /** Why a hold operation's attachment cannot go through this ledger, or null. */
  private strangeHoldAttachment(attach: { kind: string; channel: AttachmentChannel } | undefined) {
    return attach && this.holdChannels.get(attach.kind) !== attach.channel
      ? new LedgerError('invalid_request', `no hold attachment ${attach.kind} registered`)
      : null;
  }

  transfer<R>(request: TransferRequest<R>): Promise<EntryResult<R>> {
    const strange = this.strangeAttachment(request);
    if (strange) return Promise.reject(strange);
    return new Promise((resolve, reject) => {
      this.enqueue({ type: 'transfer', request }, reject, this.answerTransfer(resolve, reject));
    });
  }

  /**
   * Many transfers queued together: they go into ONE batch (one transaction, one set-based write),
   * never split between two, each still accepted or refused on its own. Answers each, in order.
   * Refused at once as a whole (`unavailable`) when the queue cannot take them all.
   */
  transfers<R>(requests: readonly TransferRequest<R>[]): Promise<PromiseSettledResult<EntryResult<R>>[]> {
    if (this.queue.length + requests.length > this.maxQueued) {
      this.stats.refusedFull += 1;
      const full = new LedgerError('unavailable', `the ledger queue is full (${this.maxQueued} operations)`);
      return Promise.resolve(requests.map(() => ({ status: 'rejected' as const, reason: full })));
    }
    const group = Symbol('transfers');
    const answers = requests.map((request) => {
      const strange = this.strangeAttachment(request);
      if (strange) return Promise.reject(strange);
      return new Promise<EntryResult<R>>((resolve, reject) => {
        const op: Operation = { type: 'transfer', request };
        this.queue.push({
          op,
          hash: requestHash(op),
          group,
          resolve: this.answerTransfer(resolve, reject),
          reject,
        });
        ledgerQueueDepth.inc();
      });
    });
    if (!this.running) void this.drain();
    return Promise.allSettled(answers);
  }

  private strangeAttachment(request: TransferRequest<unknown>): LedgerError | null {
    const attach = request.attach;
    return attach && (attach.kind !== request.kind || this.channels.get(attach.kind) !== attach.channel)
      ? new LedgerError('invalid_request', `no attachment of ${attach.kind} registered for ${request.kind}`)
      : null;
  }

  private answerTransfer<R>(
    resolve: (result: EntryResult<R>) => void,
    reject: (error: unknown) => void,
  ): (written: Written) => void {
    return (written) => {
      if (!isEntry(written)) return reject(new Error('the ledger answered a hold for a transfer'));
      const attached = written.replayed ? undefined : (written.attached as R | undefined);
      resolve(attached === undefined ? entryResult(written) : { ...entryResult(written), attached });
    };
  }

  postHold<R>(request: PostHoldRequest<R>): Promise<EntryResult<R>> {
    const strange = this.strangeHoldAttachment(request.attach);
    if (strange) return Promise.reject(strange);
    return new Promise((resolve, reject) => {
      this.enqueue({ type: 'post', request }, reject, (written) => {
        if (!isEntry(written)) return reject(new Error('the ledger answered a hold for a post'));
        const attached = written.replayed ? undefined : (written.attached as R | undefined);
        resolve(attached === undefined ? entryResult(written) : { ...entryResult(written), attached });
      });
    });
  }

  hold<R>(request: HoldRequest<R>): Promise<HoldResult<R>> {
    return this.holdOperation({ type: 'hold', request }, request.attach);
  }

  voidHold<R>(request: VoidHoldRequest<R>): Promise<HoldResult<R>> {
    return this.holdOperation({ type: 'void', request }, request.attach);
  }

  private holdOperation<R>(op: Operation, attach: HoldAttached<R> | undefined): Promise<HoldResult<R>> {
    const strange = this.strangeHoldAttachment(attach);
    if (strange) return Promise.reject(strange);
    return new Promise((resolve, reject) => {
      this.enqueue(op, reject, (written) => {
        if (isEntry(written)) return reject(new Error('the ledger answered an entry for a hold'));
        const attached = written.replayed ? undefined : (written.attached as R | undefined);
        const result = { holdId: written.holdId, replayed: written.replayed };
        resolve(attached === undefined ? result : { ...result, attached });
      });
    });
  }

  /** Queues an operation for the next batch, or refuses it at once when the queue is full. */
  private enqueue(
    op: Operation,
    reject: (error: unknown) => void,
    resolve: (written: Written) => void,
  ): void {
    if (this.queue.length >= this.maxQueued) {
      this.stats.refusedFull += 1;
      reject(new LedgerError('unavailable', `the ledger queue is full (${this.maxQueued} operations)`));
      return;
    }
    this.queue.push({ op, hash: requestHash(op), resolve, reject });
    ledgerQueueDepth.inc();
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.runBatch(this.nextBatch());
    } finally {
      this.running = false;
    }
  }

  /** The next batch: up to MAX_BATCH operations, and the rest of a group (`transfers`) it took a part of. */
  private nextBatch(): Pending[] {
    let end = Math.min(MAX_BATCH, this.queue.length);
    const group = this.queue[end - 1]?.group;
    if (group !== undefined) while (this.queue[end]?.group === group) end += 1;
    ledgerQueueDepth.dec(end);
    return this.queue.splice(0, end);
  }

  private async runBatch(batch: Pending[], retried = false): Promise<void> {
    this.stats.batches += 1;
    this.stats.operations += batch.length;
    ledgerBatchSize.observe(batch.length);
    let outcomes: Outcomes;
    const began = performance.now();
    try {
      outcomes = await this.db.transaction((tx) => this.execute(tx, batch));
      ledgerBatchSeconds.observe((performance.now() - began) / 1000);
    } catch (error) {
      if (batch.length === 1) {
        // A key that another node committed between our read and our insert: run again to replay it.
        if (!retried && (error as { code?: string }).code === '23505') return this.runBatch(batch, true);
        const [only] = batch;
        only?.reject(error);
        return;
      }
      // One statement failed for the whole batch: run each operation alone, in order.
      this.stats.fallbacks += 1;
      this.logger?.warn({ err: error, size: batch.length }, 'ledger batch failed; retrying one by one');
      for (const item of batch) await this.runBatch([item]);
      return;
    }
    for (const item of batch) {
      const outcome = outcomes.get(item);
      if (outcome instanceof Error) item.reject(outcome);
      else if (outcome) item.resolve(outcome);
      else item.reject(new Error('ledger batch lost an operation'));
    }
  }

  /** One batch in one transaction: lock, read keys, apply in order, write what was accepted. */
  private async execute(tx: Queryable, batch: Pending[]): Promise<Outcomes> {
    const { locked, stored } = await lockAndReadKeys(tx, batch);
    const { outcomes, accepted, replayOf } = applyBatch(batch, locked, stored);
    for (const [item, written] of await writeAccepted(
      tx,
      this.audit,
      accepted,
      new Date(this.now()).toISOString(),
    ))
      outcomes.set(item, written);
    for (const [item, first] of replayOf) {
      const outcome = outcomes.get(first);
      outcomes.set(
        item,
        outcome instanceof Error || !outcome
          ? (outcome ?? new Error('lost'))
          : { ...outcome, replayed: true },
      );
    }
    return outcomes;
  }
}

/** The hold an operation resolves: a post's or a void's, or the one a transfer releases (`releaseHold`). */
function heldBy(op: Operation): number | null {
  if (op.type === 'post' || op.type === 'void') return op.request.holdId;
  return op.type === 'transfer' ? (op.request.releaseHold ?? null) : null;
}

/**
 * Steps 1 to 3: the holds named by post and void operations, then every account touched, locked in
 * id order, with the idempotency keys already used: the entries' read in the accounts' statement
 * (one round trip for a batch of transfers), the holds' after it. A key a concurrent batch of
 * another node committed while this one waited for its locks may be missed by that statement's
 * snapshot: inserting it again fails on its unique index, and each operation is retried alone.
 */
async function lockAndReadKeys(tx: Queryable, batch: Pending[]): Promise<{ locked: Locked; stored: Stored }> {
  const holdIds = batch.flatMap((p) => heldBy(p.op) ?? []);
  const holds = new Map<number, HoldRow>((await lockHolds(tx, [...new Set(holdIds)])).map((h) => [h.id, h]));
  const accountIds = new Set<number>();
  for (const { op } of batch) {
    if (op.type === 'transfer') for (const p of op.request.postings) accountIds.add(p.accountId);
    if (op.type === 'hold') accountIds.add(op.request.accountId);
    if (op.type === 'post') accountIds.add(op.request.toAccountId);
    if (op.type === 'post' && op.request.also) accountIds.add(op.request.also.accountId);
    const hold = holds.get(heldBy(op) ?? 0);
    if (hold) accountIds.add(hold.accountId);
  }
  const keysOf = (types: Operation['type'][]) =>
    batch.filter((p) => types.includes(p.op.type)).map((p) => keyOf(p.op));
  const { accounts, entries } = await lockAccountsReadingKeys(
    tx,
    [...accountIds].sort((a, b) => a - b),
    keysOf(['transfer', 'post']),
  );
  const heldKeys = await holdsByKeys(
    tx,
    batch.flatMap((p) => holdKeyOf(p.op) ?? []),
  );
  const resolutions = await holdsByResolutionKeys(tx, keysOf(['post', 'void']));
  return {
    locked: { holds, accounts: new Map(accounts.map((a) => [a.id, a])) },
    stored: {
      entries: new Map(entries.map((e) => [e.idempotencyKey, e])),
      holds: new Map(heldKeys.map((h) => [h.idempotencyKey, h])),
      resolutions: new Map(resolutions.map((h) => [h.resolutionKey ?? '', h])),
    },
  };
}
