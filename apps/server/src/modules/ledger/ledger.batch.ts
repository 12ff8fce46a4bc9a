import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { type AuditEvent, type AuditService, canonicalJson } from '../audit/audit.service.ts';
import {
  type AccountRow,
  type HoldRow,
  holdsByKeys,
  holdsByResolutionKeys,
  lockAccountsReadingKeys,
  lockHolds,
  type NewEntry,
  type NewHold,
  type NewPosting,
  writeBatch,
} from './ledger.repository.ts';
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
 */
export type Operation =
  | { type: 'transfer'; request: TransferRequest<unknown> }
  | { type: 'hold'; request: HoldRequest<unknown> }
  | { type: 'post'; request: PostHoldRequest<unknown> }
  | { type: 'void'; request: VoidHoldRequest<unknown> };

/** What a batch answers for one operation: the entry it wrote (or replayed), or the hold. */
type WrittenEntry = { entryId: number; createdAt: string; replayed: boolean; attached?: unknown };
type WrittenHold = { holdId: number; replayed: boolean; attached?: unknown };
type Written = WrittenEntry | WrittenHold;

type Pending = {
  op: Operation;
  hash: string;
  resolve: (written: Written) => void;
  reject: (error: unknown) => void;
};

type Outcomes = Map<Pending, Written | Error>;

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

function keyOf(op: Operation): string {
  return op.request.idempotencyKey;
}

/** Where a key is unique: entries (transfer, post), holds, and hold resolutions (post and void share it). */
function keySlot(op: Operation): string {
  return `${op.type === 'void' ? 'post' : op.type}:${keyOf(op)}`;
}

function isEntry(written: Written): written is WrittenEntry {
  return 'entryId' in written;
}

function entryResult(written: WrittenEntry): { entryId: number; createdAt: string; replayed: boolean } {
  return { entryId: written.entryId, createdAt: written.createdAt, replayed: written.replayed };
}

/** What an operation does to each account: balance and held deltas, and the posting lines. */
type Effect = {
  deltas: Map<number, { balance: bigint; held: bigint }>;
  entry?: NewEntry;
  postings?: Omit<NewPosting, 'entryKey'>[];
  hold?: NewHold;
  resolution?: { holdId: number; status: 'posted' | 'voided' };
  audit: AuditEvent;
};

type Accepted = { item: Pending; effect: Effect };

/** The rows a batch locked: holds named by post and void, and every account it touches. */
type Locked = { holds: Map<number, HoldRow>; accounts: Map<number, AccountRow> };

/** Idempotency keys already used, read after the locks. */
type Stored = {
  entries: Map<string, { id: number; requestHash: string; createdAt: string }>;
  holds: Map<string, HoldRow>;
  resolutions: Map<string, HoldRow>;
};

export class LedgerBatcher {
  private queue: Pending[] = [];
  private running = false;
  private readonly db: Database;
  private readonly audit: AuditService;
  private readonly logger: Logger | undefined;
  private readonly maxQueued: number;
  /** Figures for benchmarks and logs. */
  readonly stats = { batches: 0, operations: 0, fallbacks: 0, refusedFull: 0 };
  private readonly channels = new Map<EntryKind, AttachmentChannel>();
  private readonly holdChannels = new Map<string, AttachmentChannel>();

  constructor(db: Database, audit: AuditService, logger?: Logger, limits: { maxQueued?: number } = {}) {
    this.db = db;
    this.audit = audit;
    this.logger = logger;
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
    const attach = request.attach;
    if (attach && (attach.kind !== request.kind || this.channels.get(attach.kind) !== attach.channel))
      return Promise.reject(
        new LedgerError('invalid_request', `no attachment of ${attach.kind} registered for ${request.kind}`),
      );
    return new Promise((resolve, reject) => {
      this.enqueue({ type: 'transfer', request }, reject, (written) => {
        if (!isEntry(written)) return reject(new Error('the ledger answered a hold for a transfer'));
        const attached = written.replayed ? undefined : (written.attached as R | undefined);
        resolve(attached === undefined ? entryResult(written) : { ...entryResult(written), attached });
      });
    });
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
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.runBatch(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async runBatch(batch: Pending[], retried = false): Promise<void> {
    this.stats.batches += 1;
    this.stats.operations += batch.length;
    let outcomes: Outcomes;
    try {
      outcomes = await this.db.transaction((tx) => this.execute(tx, batch));
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
    const { outcomes, accepted, replayOf } = this.apply(batch, locked, stored);
    for (const [item, written] of await this.write(tx, accepted)) outcomes.set(item, written);
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

  /**
   * Applies the batch in order to the locked balances: each operation is replayed, refused or
   * accepted on its own, exactly as if it ran alone after the ones before it.
   */
  private apply(
    batch: Pending[],
    locked: Locked,
    stored: Stored,
  ): { outcomes: Outcomes; accepted: Accepted[]; replayOf: Map<Pending, Pending> } {
    const outcomes: Outcomes = new Map();
    const accepted: Accepted[] = [];
    const replayOf = new Map<Pending, Pending>();
    const keyHashes = new Map<string, string>();
    const live = new RunningBalances(locked.accounts);
    for (const item of batch) {
      const slot = keySlot(item.op);
      // The same key twice in one batch: the later one follows the first.
      const earlierHash = keyHashes.get(slot);
      if (earlierHash !== undefined) {
        if (earlierHash !== item.hash) outcomes.set(item, conflict(keyOf(item.op)));
        else {
          const key = keyOf(item.op);
          const first = batch.find((p) => p !== item && keyOf(p.op) === key && p.hash === item.hash);
          if (first) replayOf.set(item, first);
        }
        continue;
      }
      const replay = replayOfStored(item, stored);
      if (replay) {
        outcomes.set(item, replay);
        continue;
      }
      const effect = plan(item.op, item.hash, locked);
      if (effect instanceof LedgerError) {
        outcomes.set(item, effect);
        continue;
      }
      const refused = live.refusal(effect);
      if (refused !== null) {
        outcomes.set(
          item,
          new LedgerError(
            'insufficient_funds',
            `account ${refused} has insufficient available balance`,
            refused,
          ),
        );
        continue;
      }
      keyHashes.set(slot, item.hash);
      live.add(effect);
      if (effect.resolution) {
        const hold = locked.holds.get(effect.resolution.holdId);
        if (hold)
          locked.holds.set(hold.id, {
            ...hold,
            status: effect.resolution.status,
            resolutionKey: keyOf(item.op),
          });
      }
      accepted.push({ item, effect });
    }
    return { outcomes, accepted, replayOf };
  }

  /** Writes everything accepted in one statement, then the attachments and the batch's audit row. */
  private async write(tx: Queryable, accepted: Accepted[]): Promise<Map<Pending, Written>> {
    const written = await writeBatch(tx, batchWrite(accepted));
    const entryOf = (item: Pending) =>
      item.op.type === 'transfer' || item.op.type === 'post'
        ? written.entries.get(keyOf(item.op))
        : undefined;
    const holdOf = (item: Pending) =>
      item.op.type === 'hold' ? written.holds.get(keyOf(item.op)) : undefined;
    const attached = await writeAttachments(tx, accepted, entryOf, holdOf);
    await this.audit.appendBatchInTx(
      tx,
      accepted.map(({ item, effect }) => {
        const entry = entryOf(item);
        const holdId = holdOf(item);
        const subject = entry
          ? `ledger_entry:${entry.id}`
          : holdId
            ? `ledger_hold:${holdId}`
            : effect.audit.subject;
        return { ...effect.audit, subject };
      }),
    );
    const results = new Map<Pending, Written>();
    for (const { item } of accepted) {
      const entry = entryOf(item);
      const answer = attached.has(item) ? { attached: attached.get(item) } : {};
      if (entry)
        results.set(item, { entryId: entry.id, createdAt: entry.createdAt, replayed: false, ...answer });
      else if (item.op.type === 'hold')
        results.set(item, { holdId: holdOf(item) ?? 0, replayed: false, ...answer });
      else if (item.op.type === 'void')
        results.set(item, { holdId: item.op.request.holdId, replayed: false, ...answer });
    }
    return results;
  }
}

/**
 * Steps 1 to 3: the holds named by post and void operations, then every account touched, locked in
 * id order, with the idempotency keys already used: the entries' read in the accounts' statement
 * (one round trip for a batch of transfers), the holds' after it. A key a concurrent batch of
 * another node committed while this one waited for its locks may be missed by that statement's
 * snapshot: inserting it again fails on its unique index, and each operation is retried alone.
 */
async function lockAndReadKeys(tx: Queryable, batch: Pending[]): Promise<{ locked: Locked; stored: Stored }> {
  const holdIds = batch.flatMap((p) =>
    p.op.type === 'post' || p.op.type === 'void' ? [p.op.request.holdId] : [],
  );
  const holds = new Map<number, HoldRow>((await lockHolds(tx, [...new Set(holdIds)])).map((h) => [h.id, h]));
  const accountIds = new Set<number>();
  for (const { op } of batch) {
    if (op.type === 'transfer') for (const p of op.request.postings) accountIds.add(p.accountId);
    if (op.type === 'hold') accountIds.add(op.request.accountId);
    if (op.type === 'post') accountIds.add(op.request.toAccountId);
    if (op.type === 'post' || op.type === 'void') {
      const hold = holds.get(op.request.holdId);
      if (hold) accountIds.add(hold.accountId);
    }
  }
  const keysOf = (types: Operation['type'][]) =>
    batch.filter((p) => types.includes(p.op.type)).map((p) => keyOf(p.op));
  const { accounts, entries } = await lockAccountsReadingKeys(
    tx,
    [...accountIds].sort((a, b) => a - b),
    keysOf(['transfer', 'post']),
  );
  const heldKeys = await holdsByKeys(tx, keysOf(['hold']));
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

/** Balances and held amounts of the locked accounts as the batch's accepted operations change them. */
class RunningBalances {
  private readonly accounts: Map<number, AccountRow>;
  private readonly live = new Map<number, { balance: bigint; held: bigint }>();

  constructor(accounts: Map<number, AccountRow>) {
    this.accounts = accounts;
  }

  private state(id: number): { balance: bigint; held: bigint } | null {
    let s = this.live.get(id);
    if (!s) {
      const a = this.accounts.get(id);
      if (!a) return null;
      s = { balance: a.balance, held: a.held };
      this.live.set(id, s);
    }
    return s;
  }

  /** The first account the effect would leave invalid (held below zero, a customer below zero available), or null. */
  refusal(effect: Effect): number | null {
    for (const [id, d] of effect.deltas) {
      const s = this.state(id);
      const account = this.accounts.get(id);
      if (!s || !account) return id;
      const balance = s.balance + d.balance;
      const held = s.held + d.held;
      if (held < 0n || (!account.allowNegative && balance - held < 0n)) return id;
    }
    return null;
  }

  add(effect: Effect): void {
    for (const [id, d] of effect.deltas) {
      const s = this.state(id);
      if (s) {
        s.balance += d.balance;
        s.held += d.held;
      }
    }
  }
}

/** The rows of the one statement that writes a batch: entries, postings, holds, resolutions, net deltas. */
function batchWrite(accepted: Accepted[]) {
  const net = new Map<number, { balance: bigint; held: bigint }>();
  for (const { effect } of accepted) {
    for (const [id, d] of effect.deltas) {
      const n = net.get(id) ?? { balance: 0n, held: 0n };
      n.balance += d.balance;
      n.held += d.held;
      net.set(id, n);
    }
  }
  return {
    entries: accepted.flatMap((a) => (a.effect.entry ? [a.effect.entry] : [])),
    postings: accepted.flatMap((a) =>
      (a.effect.postings ?? []).map((p) => ({ ...p, entryKey: keyOf(a.item.op) })),
    ),
    holds: accepted.flatMap((a) => (a.effect.hold ? [a.effect.hold] : [])),
    resolutions: accepted.flatMap((a) =>
      a.effect.resolution ? [{ ...a.effect.resolution, resolutionKey: keyOf(a.item.op) }] : [],
    ),
    deltas: [...net]
      .filter(([, d]) => d.balance !== 0n || d.held !== 0n)
      .map(([accountId, d]) => ({ accountId, ...d })),
  };
}

/**
 * The attachments of the accepted operations, after their entries and hold changes are written: one
 * writer call per attachment kind, in the batch's transaction, with this batch's rows only; answers
 * what each operation's writer answered. A writer that throws fails the batch, which is then
 * retried operation by operation: only the operation whose writer throws is refused, with nothing
 * of it written.
 */
async function writeAttachments(
  tx: Queryable,
  accepted: Accepted[],
  entryOf: (item: Pending) => { id: number } | undefined,
  holdOf: (item: Pending) => number | undefined,
): Promise<Map<Pending, unknown>> {
  type Staged = { item: Pending; id: number; answer: (answers: ReadonlyMap<number, unknown>) => unknown };
  const byChannel = new Map<AttachmentChannel, { rows: unknown[]; staged: Staged[] }>();
  const stage = (channel: AttachmentChannel, row: unknown, staged: Staged) => {
    let group = byChannel.get(channel);
    if (!group) {
      group = { rows: [], staged: [] };
      byChannel.set(channel, group);
    }
    group.rows.push(row);
    group.staged.push(staged);
  };
  for (const { item } of accepted) {
    const { op } = item;
    if (op.type === 'transfer') {
      const entry = entryOf(item);
      const attach = op.request.attach;
      if (entry && attach)
        stage(attach.channel, attach.row({ entryId: entry.id }), {
          item,
          id: entry.id,
          answer: (answers) => attach.result(answers, entry.id),
        });
      continue;
    }
    const attach = op.request.attach;
    if (!attach) continue;
    const target: HoldTarget | null =
      op.type === 'hold'
        ? { holdId: holdOf(item) ?? 0, entryId: null }
        : { holdId: op.request.holdId, entryId: op.type === 'post' ? (entryOf(item)?.id ?? null) : null };
    if (target.holdId > 0)
      stage(attach.channel, attach.row(target), {
        item,
        id: target.holdId,
        answer: (answers) => attach.result(answers, target.holdId),
      });
  }
  const attached = new Map<Pending, unknown>();
  for (const [channel, group] of byChannel) {
    const answers = await channel.write(tx, group.rows);
    for (const staged of group.staged) {
      const answer = staged.answer(answers);
      if (answer !== undefined) attached.set(staged.item, answer);
    }
  }
  return attached;
}

/** The stored result of an operation already done under this key, or a conflict if it differed. */
function replayOfStored(item: Pending, stored: Stored): Written | Error | null {
  const key = keyOf(item.op);
  if (item.op.type === 'transfer' || item.op.type === 'post') {
    const entry = stored.entries.get(key);
    if (entry)
      return entry.requestHash === item.hash
        ? { entryId: entry.id, createdAt: entry.createdAt, replayed: true }
        : conflict(key);
  }
  if (item.op.type === 'hold') {
    const hold = stored.holds.get(key);
    if (hold) return hold.requestHash === item.hash ? { holdId: hold.id, replayed: true } : conflict(key);
  }
  if (item.op.type === 'void') {
    const hold = stored.resolutions.get(key);
    if (hold)
      return hold.id === item.op.request.holdId && hold.status === 'voided'
        ? { holdId: hold.id, replayed: true }
        : conflict(key);
  }
  return null;
}

/** What one operation would do, checked against the locked rows; or why it cannot. */
function plan(op: Operation, hash: string, locked: Locked): Effect | LedgerError {
  switch (op.type) {
    case 'transfer':
      return planTransfer(op.request, hash, locked.accounts);
    case 'hold':
      return planHold(op.request, hash, locked.accounts);
    case 'void': {
      const hold = pendingHold(op.request.holdId, locked.holds);
      return hold instanceof LedgerError ? hold : planVoid(op.request, hold);
    }
    case 'post': {
      const hold = pendingHold(op.request.holdId, locked.holds);
      return hold instanceof LedgerError ? hold : planPost(op.request, hash, hold, locked.accounts);
    }
  }
}

function planTransfer(
  r: TransferRequest<unknown>,
  hash: string,
  accounts: Map<number, AccountRow>,
): Effect | LedgerError {
  const deltas = new Map<number, { balance: bigint; held: bigint }>();
  const postings: Omit<NewPosting, 'entryKey'>[] = [];
  const sums = new Map<string, bigint>();
  for (const p of r.postings) {
    const account = accounts.get(p.accountId);
    if (!account) return new LedgerError('unknown_account', `account ${p.accountId} does not exist`);
    if (account.book !== r.book) return new LedgerError('invalid_request', 'a posting may not cross books');
    if (deltas.has(p.accountId))
      return new LedgerError('invalid_request', 'an account appears twice in one entry');
    if (p.amount === 0n) return new LedgerError('invalid_request', 'a posting of zero');
    deltas.set(p.accountId, { balance: p.amount, held: 0n });
    postings.push({ accountId: p.accountId, book: r.book, asset: account.asset, amount: p.amount });
    sums.set(account.asset, (sums.get(account.asset) ?? 0n) + p.amount);
  }
  if (postings.length < 2) return new LedgerError('invalid_request', 'an entry needs at least two postings');
  if ([...sums.values()].some((s) => s !== 0n))
    return new LedgerError('invalid_request', 'postings must net to zero per asset');
  return {
    deltas,
    postings,
    entry: {
      book: r.book,
      kind: r.kind,
      idempotencyKey: r.idempotencyKey,
      requestHash: hash,
      reference: r.reference ?? null,
      actor: r.actor,
      reason: r.reason ?? null,
      reversesEntryId: r.reversesEntryId ?? null,
    },
    audit: {
      actor: r.actor,
      action: r.reversesEntryId ? 'ledger.reversal' : `ledger.${r.kind}`,
      subject: '',
      data: {
        book: r.book,
        postings: postings.map((p) => ({ account: p.accountId, asset: p.asset, amount: p.amount })),
        reference: r.reference ?? null,
        reason: r.reason ?? null,
      },
    },
  };
}

function planHold(
  r: HoldRequest<unknown>,
  hash: string,
  accounts: Map<number, AccountRow>,
): Effect | LedgerError {
  const account = accounts.get(r.accountId);
  if (!account) return new LedgerError('unknown_account', `account ${r.accountId} does not exist`);
  if (account.book !== r.book) return new LedgerError('invalid_request', 'a hold may not cross books');
  if (r.amount <= 0n) return new LedgerError('invalid_request', 'a hold must be positive');
  return {
    deltas: new Map([[r.accountId, { balance: 0n, held: r.amount }]]),
    hold: {
      accountId: r.accountId,
      book: r.book,
      asset: account.asset,
      amount: r.amount,
      idempotencyKey: r.idempotencyKey,
      requestHash: hash,
      reference: r.reference ?? null,
      actor: r.actor,
    },
    audit: {
      actor: r.actor,
      action: 'ledger.hold',
      subject: '',
      data: {
        book: r.book,
        account: r.accountId,
        asset: account.asset,
        amount: r.amount,
        reference: r.reference ?? null,
      },
    },
  };
}

/** The hold a post or void names, if it is still pending. */
function pendingHold(holdId: number, holds: Map<number, HoldRow>): HoldRow | LedgerError {
  const hold = holds.get(holdId);
  if (!hold) return new LedgerError('unknown_hold', `hold ${holdId} does not exist`);
  if (hold.status !== 'pending')
    return new LedgerError('hold_not_pending', `hold ${hold.id} is ${hold.status}`);
  return hold;
}

function planVoid(r: VoidHoldRequest<unknown>, hold: HoldRow): Effect {
  return {
    deltas: new Map([[hold.accountId, { balance: 0n, held: -hold.amount }]]),
    resolution: { holdId: hold.id, status: 'voided' },
    audit: {
      actor: r.actor,
      action: 'ledger.hold_void',
      subject: `ledger_hold:${hold.id}`,
      data: { hold: hold.id, amount: hold.amount },
    },
  };
}

function planPost(
  r: PostHoldRequest<unknown>,
  hash: string,
  hold: HoldRow,
  accounts: Map<number, AccountRow>,
): Effect | LedgerError {
  const to = accounts.get(r.toAccountId);
  if (!to) return new LedgerError('unknown_account', `account ${r.toAccountId} does not exist`);
  if (to.book !== hold.book || to.asset !== hold.asset)
    return new LedgerError('invalid_request', 'a hold posts within its book and asset');
  if (r.amount <= 0n || r.amount > hold.amount)
    return new LedgerError('invalid_request', 'a hold posts at most its amount');
  if (to.id === hold.accountId) return new LedgerError('invalid_request', 'a hold posts to another account');
  return {
    deltas: new Map([
      [hold.accountId, { balance: -r.amount, held: -hold.amount }],
      [to.id, { balance: r.amount, held: 0n }],
    ]),
    postings: [
      { accountId: hold.accountId, book: hold.book, asset: hold.asset, amount: -r.amount },
      { accountId: to.id, book: hold.book, asset: hold.asset, amount: r.amount },
    ],
    entry: {
      book: hold.book,
      kind: r.kind,
      idempotencyKey: r.idempotencyKey,
      requestHash: hash,
      reference: r.reference ?? null,
      actor: r.actor,
      reason: null,
      reversesEntryId: null,
    },
    resolution: { holdId: hold.id, status: 'posted' },
    audit: {
      actor: r.actor,
      action: `ledger.${r.kind}`,
      subject: '',
      data: { hold: hold.id, from: hold.accountId, to: to.id, asset: hold.asset, amount: r.amount },
    },
  };
}

function conflict(key: string): LedgerError {
  return new LedgerError('idempotency_conflict', `idempotency key ${key} was used for a different request`);
}
