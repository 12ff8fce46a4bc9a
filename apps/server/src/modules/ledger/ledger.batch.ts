import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { type AuditEvent, type AuditService, canonicalJson } from '../audit/audit.service.ts';
import {
  type AccountRow,
  entriesByKeys,
  type HoldRow,
  holdsByKeys,
  holdsByResolutionKeys,
  lockAccounts,
  lockHolds,
  type NewEntry,
  type NewHold,
  type NewPosting,
  writeBatch,
} from './ledger.repository.ts';
import {
  type AttachmentWriter,
  type EntryResult,
  type HoldRequest,
  type HoldResult,
  LedgerError,
  type PostHoldRequest,
  type TransferRequest,
  type VoidHoldRequest,
} from './ledger.types.ts';

/**
 * Group commit for the ledger. Requests queue up while a batch is being written; the next batch
 * takes everything queued (up to MAX_BATCH) into ONE transaction: lock the accounts and holds it
 * touches (in id order), read idempotency keys, apply the operations one by one to the locked
 * balances in memory (each accepted or refused on its own, exactly as if run alone in order),
 * then write all accepted effects with a handful of set-based statements and one commit. The
 * database still checks every invariant (entries net to zero, customer balance - held >= 0,
 * append-only, books never mixed). If a batch fails as a whole (a deadlock, a key raced in from
 * another node), each operation is retried alone, so one bad request never sinks the others.
 */
export type Operation =
  | { type: 'transfer'; request: TransferRequest }
  | { type: 'hold'; request: HoldRequest }
  | { type: 'post'; request: PostHoldRequest }
  | { type: 'void'; request: VoidHoldRequest };

type Outcome = EntryResult | HoldResult;

type Pending = {
  op: Operation;
  hash: string;
  resolve: (value: Outcome) => void;
  reject: (error: unknown) => void;
};

export const MAX_BATCH = 512;

export function requestHash(op: Operation): string {
  const r = op.request as unknown as Record<string, unknown>;
  const { actor: _actor, ...rest } = r;
  const normalized =
    op.type === 'transfer'
      ? { ...rest, postings: [...(op.request.postings ?? [])].sort((a, b) => a.accountId - b.accountId) }
      : rest;
  return createHash('sha256')
    .update(`${op.type}:${canonicalJson(normalized)}`)
    .digest('hex');
}

function keyOf(op: Operation): string {
  return op.request.idempotencyKey;
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

export class LedgerBatcher {
  private queue: Pending[] = [];
  private running = false;
  private readonly db: Database;
  private readonly audit: AuditService;
  private readonly logger: Logger | undefined;
  /** Figures for benchmarks and logs. */
  readonly stats = { batches: 0, operations: 0, fallbacks: 0 };
  private readonly writers = new Map<string, AttachmentWriter>();

  constructor(db: Database, audit: AuditService, logger?: Logger) {
    this.db = db;
    this.audit = audit;
    this.logger = logger;
  }

  /** Registers the writer of one attachment kind (see TransferRequest.attach). */
  registerAttachment(kind: string, writer: AttachmentWriter): void {
    if (this.writers.has(kind)) throw new Error(`attachment ${kind} registered twice`);
    this.writers.set(kind, writer);
  }

  submit(op: Operation): Promise<Outcome> {
    if (op.type === 'transfer' && op.request.attach && !this.writers.has(op.request.attach.kind))
      return Promise.reject(
        new LedgerError('invalid_request', `no writer for attachment ${op.request.attach.kind}`),
      );
    return new Promise((resolve, reject) => {
      this.queue.push({ op, hash: requestHash(op), resolve, reject });
      if (!this.running) void this.drain();
    });
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
    let outcomes: Map<Pending, Outcome | Error>;
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

  private async execute(tx: Queryable, batch: Pending[]): Promise<Map<Pending, Outcome | Error>> {
    const outcomes = new Map<Pending, Outcome | Error>();

    // 1. Holds named by post and void operations, locked.
    const holdIds = batch.flatMap((p) =>
      p.op.type === 'post' || p.op.type === 'void' ? [p.op.request.holdId] : [],
    );
    const holds = new Map<number, HoldRow>(
      (await lockHolds(tx, [...new Set(holdIds)])).map((h) => [h.id, h]),
    );

    // 2. Every account the batch touches, locked in id order.
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
    const accounts = new Map<number, AccountRow>(
      (
        await lockAccounts(
          tx,
          [...accountIds].sort((a, b) => a - b),
        )
      ).map((a) => [a.id, a]),
    );

    // 3. Idempotency keys already used (read after the locks: a concurrent duplicate has committed by now).
    const entryKeys = batch
      .filter((p) => p.op.type === 'transfer' || p.op.type === 'post')
      .map((p) => keyOf(p.op));
    const holdKeys = batch.filter((p) => p.op.type === 'hold').map((p) => keyOf(p.op));
    const resolutionKeys = batch
      .filter((p) => p.op.type === 'post' || p.op.type === 'void')
      .map((p) => keyOf(p.op));
    const storedEntries = new Map((await entriesByKeys(tx, entryKeys)).map((e) => [e.idempotencyKey, e]));
    const storedHolds = new Map((await holdsByKeys(tx, holdKeys)).map((h) => [h.idempotencyKey, h]));
    const storedResolutions = new Map(
      (await holdsByResolutionKeys(tx, resolutionKeys)).map((h) => [h.resolutionKey ?? '', h]),
    );
    const keyHashes = new Map<string, string>();

    // 4. Apply in order to the locked balances.
    const live = new Map<number, { balance: bigint; held: bigint }>();
    const state = (id: number) => {
      let s = live.get(id);
      if (!s) {
        const a = accounts.get(id);
        if (!a) return null;
        s = { balance: a.balance, held: a.held };
        live.set(id, s);
      }
      return s;
    };
    const accepted: { item: Pending; effect: Effect }[] = [];
    const replayOf = new Map<Pending, Pending>();
    for (const item of batch) {
      const key = keyOf(item.op);
      // The same key twice in one batch: the later one follows the first.
      const earlierHash = keyHashes.get(`${item.op.type === 'void' ? 'post' : item.op.type}:${key}`);
      if (earlierHash !== undefined) {
        if (earlierHash !== item.hash) outcomes.set(item, conflict(key));
        else {
          const first = batch.find((p) => p !== item && keyOf(p.op) === key && p.hash === item.hash);
          if (first) replayOf.set(item, first);
        }
        continue;
      }
      const replay = this.replay(item, storedEntries, storedHolds, storedResolutions);
      if (replay) {
        outcomes.set(item, replay);
        continue;
      }
      keyHashes.set(`${item.op.type === 'void' ? 'post' : item.op.type}:${key}`, item.hash);
      const effect = this.plan(item.op, accounts, holds);
      if (effect instanceof LedgerError) {
        outcomes.set(item, effect);
        keyHashes.delete(`${item.op.type === 'void' ? 'post' : item.op.type}:${key}`);
        continue;
      }
      // Check the effect against the running balances; accept it only if every account stays valid.
      const refused = [...effect.deltas].find(([id, d]) => {
        const s = state(id);
        const account = accounts.get(id);
        if (!s || !account) return true;
        const balance = s.balance + d.balance;
        const held = s.held + d.held;
        return held < 0n || (!account.allowNegative && balance - held < 0n);
      });
      if (refused) {
        outcomes.set(
          item,
          new LedgerError('insufficient_funds', `account ${refused[0]} has insufficient available balance`),
        );
        keyHashes.delete(`${item.op.type === 'void' ? 'post' : item.op.type}:${key}`);
        continue;
      }
      for (const [id, d] of effect.deltas) {
        const s = state(id);
        if (s) {
          s.balance += d.balance;
          s.held += d.held;
        }
      }
      if (effect.resolution) {
        const hold = holds.get(effect.resolution.holdId);
        if (hold) holds.set(hold.id, { ...hold, status: effect.resolution.status, resolutionKey: key });
      }
      accepted.push({ item, effect });
    }

    // 5. Write everything accepted in one statement, then its audit rows.
    const net = new Map<number, { balance: bigint; held: bigint }>();
    for (const { effect } of accepted) {
      for (const [id, d] of effect.deltas) {
        const n = net.get(id) ?? { balance: 0n, held: 0n };
        n.balance += d.balance;
        n.held += d.held;
        net.set(id, n);
      }
    }
    const written = await writeBatch(tx, {
      entries: accepted.flatMap((a) => (a.effect.entry ? [a.effect.entry] : [])),
      postings: accepted.flatMap((a) =>
        (a.effect.postings ?? []).map((p) => ({ ...p, entryKey: keyOf(a.item.op) })),
      ),
      holds: accepted.flatMap((a) => (a.effect.hold ? [a.effect.hold] : [])),
      resolutions: accepted.flatMap((a) =>
        a.effect.resolution
          ? [
              {
                holdId: a.effect.resolution.holdId,
                status: a.effect.resolution.status,
                resolutionKey: keyOf(a.item.op),
              },
            ]
          : [],
      ),
      deltas: [...net]
        .filter(([, d]) => d.balance !== 0n || d.held !== 0n)
        .map(([accountId, d]) => ({ accountId, ...d })),
    });
    const entryOf = (item: Pending) =>
      item.op.type === 'transfer' || item.op.type === 'post'
        ? written.entries.get(keyOf(item.op))
        : undefined;
    // Attachments of the accepted entries, one writer call per kind, in this transaction.
    const attached = new Map<string, { entryId: number; data: Record<string, unknown> }[]>();
    for (const { item } of accepted) {
      if (item.op.type !== 'transfer' || !item.op.request.attach) continue;
      const entry = entryOf(item);
      if (!entry) continue;
      const { kind, data } = item.op.request.attach;
      const rows = attached.get(kind) ?? [];
      rows.push({ entryId: entry.id, data });
      attached.set(kind, rows);
    }
    const attachedResults = new Map<number, unknown>();
    for (const [kind, rows] of attached) {
      const writer = this.writers.get(kind);
      if (!writer) throw new Error(`no writer for attachment ${kind}`);
      const results = await writer(tx, rows);
      if (results) for (const [entryId, result] of results) attachedResults.set(entryId, result);
    }
    const holdOf = (item: Pending) =>
      item.op.type === 'hold' ? written.holds.get(keyOf(item.op)) : undefined;
    await this.audit.appendInTx(
      tx,
      accepted.map(({ item, effect }) => {
        const entry = entryOf(item);
        const holdId = holdOf(item);
        return {
          ...effect.audit,
          subject: entry
            ? `ledger_entry:${entry.id}`
            : holdId
              ? `ledger_hold:${holdId}`
              : effect.audit.subject,
        };
      }),
    );

    for (const { item } of accepted) {
      const entry = entryOf(item);
      if (entry) {
        const result: EntryResult = { entryId: entry.id, createdAt: entry.createdAt, replayed: false };
        if (attachedResults.has(entry.id)) result.attached = attachedResults.get(entry.id);
        outcomes.set(item, result);
      } else if (item.op.type === 'hold') outcomes.set(item, { holdId: holdOf(item) ?? 0, replayed: false });
      else if (item.op.type === 'void')
        outcomes.set(item, { holdId: item.op.request.holdId, replayed: false });
    }
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

  /** The stored result of an operation already done under this key, or a conflict if it differed. */
  private replay(
    item: Pending,
    entries: Map<string, { id: number; requestHash: string; createdAt: string }>,
    holds: Map<string, HoldRow>,
    resolutions: Map<string, HoldRow>,
  ): Outcome | Error | null {
    const key = keyOf(item.op);
    if (item.op.type === 'transfer' || item.op.type === 'post') {
      const stored = entries.get(key);
      if (stored) {
        return stored.requestHash === item.hash
          ? { entryId: stored.id, createdAt: stored.createdAt, replayed: true }
          : conflict(key);
      }
    }
    if (item.op.type === 'hold') {
      const stored = holds.get(key);
      if (stored)
        return stored.requestHash === item.hash ? { holdId: stored.id, replayed: true } : conflict(key);
    }
    if (item.op.type === 'void') {
      const stored = resolutions.get(key);
      if (stored) {
        return stored.id === item.op.request.holdId && stored.status === 'voided'
          ? { holdId: stored.id, replayed: true }
          : conflict(key);
      }
    }
    return null;
  }

  private plan(
    op: Operation,
    accounts: Map<number, AccountRow>,
    holds: Map<number, HoldRow>,
  ): Effect | LedgerError {
    const hash = requestHash(op);
    if (op.type === 'transfer') {
      const r = op.request;
      const deltas = new Map<number, { balance: bigint; held: bigint }>();
      const postings: Omit<NewPosting, 'entryKey'>[] = [];
      const sums = new Map<string, bigint>();
      for (const p of r.postings) {
        const account = accounts.get(p.accountId);
        if (!account) return new LedgerError('unknown_account', `account ${p.accountId} does not exist`);
        if (account.book !== r.book)
          return new LedgerError('invalid_request', 'a posting may not cross books');
        if (deltas.has(p.accountId))
          return new LedgerError('invalid_request', 'an account appears twice in one entry');
        if (p.amount === 0n) return new LedgerError('invalid_request', 'a posting of zero');
        deltas.set(p.accountId, { balance: p.amount, held: 0n });
        postings.push({ accountId: p.accountId, book: r.book, asset: account.asset, amount: p.amount });
        sums.set(account.asset, (sums.get(account.asset) ?? 0n) + p.amount);
      }
      if (postings.length < 2)
        return new LedgerError('invalid_request', 'an entry needs at least two postings');
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
    if (op.type === 'hold') {
      const r = op.request;
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
    const hold = holds.get(op.request.holdId);
    if (!hold) return new LedgerError('unknown_hold', `hold ${op.request.holdId} does not exist`);
    if (hold.status !== 'pending')
      return new LedgerError('hold_not_pending', `hold ${hold.id} is ${hold.status}`);
    if (op.type === 'void') {
      return {
        deltas: new Map([[hold.accountId, { balance: 0n, held: -hold.amount }]]),
        resolution: { holdId: hold.id, status: 'voided' },
        audit: {
          actor: op.request.actor,
          action: 'ledger.hold_void',
          subject: `ledger_hold:${hold.id}`,
          data: { hold: hold.id, amount: hold.amount },
        },
      };
    }
    const r = op.request;
    const to = accounts.get(r.toAccountId);
    if (!to) return new LedgerError('unknown_account', `account ${r.toAccountId} does not exist`);
    if (to.book !== hold.book || to.asset !== hold.asset)
      return new LedgerError('invalid_request', 'a hold posts within its book and asset');
    if (r.amount <= 0n || r.amount > hold.amount)
      return new LedgerError('invalid_request', 'a hold posts at most its amount');
    if (to.id === hold.accountId)
      return new LedgerError('invalid_request', 'a hold posts to another account');
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
}

function conflict(key: string): LedgerError {
  return new LedgerError('idempotency_conflict', `idempotency key ${key} was used for a different request`);
}
