import { createHash } from 'node:crypto';
import type { Book, EntryKind } from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { type AuditEvent, type AuditService, canonicalJson } from '../audit/audit.service.ts';
import { lockHolds } from './ledger.batch.repository.ts';
import { type CompoundPosting, lockPageAccounts, paidKeys, writeCompound } from './ledger.bulk.repository.ts';
import type { AccountRow } from './ledger.repository.ts';
import { type Attachment, LedgerError } from './ledger.types.ts';

/*
 * Bulk posting: a page of payments from one source (a settlement run's page of holdings) as ONE
 * compound entry — the source debited once with the page's total, each line credited by its own
 * posting, which carries the line's idempotency key and reference — written with its attachment
 * rows, its reservation's resolution and its audit in one transaction of set-based statements.
 * An account appears once per entry: a page that credits one account twice (an owner with two
 * holdings in it) is written as a few compound entries, the n-th line of an account in the n-th.
 */

/** One payment of a page: the holding's key (unique across the ledger) and reference, the account credited. */
export type BulkLine = {
  key: string;
  accountId: number;
  amount: bigint;
  reference: string;
  /** The owning module's record of the payment (e.g. its income row), written for the line's entry. */
  attach?: Attachment<unknown>;
};

export type BulkRequest = {
  book: Book;
  kind: EntryKind;
  /** The account every line is paid from, in the lines' book and asset. */
  sourceAccountId: number;
  actor: string;
  /** The compound entry's own reference (a line's is on its posting). */
  reference: string;
  lines: readonly BulkLine[];
  /**
   * The page's reservation on the source (a pending hold of the page's total), counted as the
   * page's own: posted by the page's entry, or voided when every line was paid before; left
   * pending with `keep` (a page not complete yet: released once all its payments exist).
   */
  reservation?: { holdId: number; releaseKey: string; keep?: boolean };
};

export type BulkResult =
  | {
      status: 'paid';
      /** The lines paid now, their total, and the lines found paid before (by any path). */
      paid: number;
      paidMinor: bigint;
      replayed: number;
      entryIds: number[];
    }
  /** The source, less every other claim on it, could not cover the lines not paid yet: nothing was written. */
  | { status: 'short'; neededMinor: bigint; availableMinor: bigint };

/** Every line key's start (a settlement's `settle:<product>:<holding>:<day>`): the database checks such keys across entries and postings (0053). */
export const LINE_KEY_PREFIX = 'settle:';

/** Lines a compound write takes at once (a settlement page is at most 5,000). */
export const MAX_BULK_LINES = 5000;

export class LedgerBulk {
  private readonly db: Database;
  private readonly audit: Pick<AuditService, 'appendBatchInTx'>;
  private readonly now: () => number;

  constructor(db: Database, audit: Pick<AuditService, 'appendBatchInTx'>, now: () => number) {
    this.db = db;
    this.audit = audit;
    this.now = now;
  }

  /**
   * Pays the lines not paid yet in one transaction, or nothing when the source cannot cover them.
   * A line whose key already names a payment (an entry's or a posting's, on this node or another)
   * is not paid again; a concurrent write of the same key fails on its unique index and the page
   * is tried once more, finding it paid.
   */
  async post(request: BulkRequest): Promise<BulkResult> {
    checkRequest(request);
    try {
      return await this.db.transaction((tx) => this.write(tx, request));
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
      return this.db.transaction((tx) => this.write(tx, request));
    }
  }

  private async write(tx: Queryable, r: BulkRequest): Promise<BulkResult> {
    // Holds before accounts, accounts in id order: the batcher's order, so the two never deadlock.
    const [hold] = r.reservation ? await lockHolds(tx, [r.reservation.holdId]) : [];
    if (r.reservation && (!hold || hold.accountId !== r.sourceAccountId))
      throw new LedgerError('unknown_hold', `hold ${r.reservation.holdId} is not a hold on the source`);
    const ids = [...new Set([r.sourceAccountId, ...r.lines.map((l) => l.accountId)])].sort((a, b) => a - b);
    const { source, strays, missing } = await lockPageAccounts(tx, ids, r.sourceAccountId, r.book);
    if (!source) throw new LedgerError('unknown_account', `account ${r.sourceAccountId} does not exist`);
    checkAccounts(r, source, strays, missing);
    const paid = await paidKeys(
      tx,
      r.lines.map((l) => l.key),
    );
    const unpaid = r.lines.filter((l) => !paid.has(l.key));
    const pending = hold?.status === 'pending' ? hold : null;
    const neededMinor = unpaid.reduce((total, l) => total + l.amount, 0n);
    const availableMinor = source.balance - source.held + (pending?.amount ?? 0n);
    if (unpaid.length > 0 && availableMinor < neededMinor)
      return { status: 'short', neededMinor, availableMinor };
    const resolve = pending !== null && !r.reservation?.keep;
    if (unpaid.length === 0 && !resolve)
      return { status: 'paid', paid: 0, paidMinor: 0n, replayed: r.lines.length, entryIds: [] };

    const { rounds, entryKeys, postings, deltas } = compoundOf(source.id, unpaid, resolve ? pending : null);
    const at = new Date(this.now()).toISOString();
    const written = await writeCompound(tx, {
      book: r.book,
      kind: r.kind,
      asset: source.asset,
      actor: r.actor,
      entries: rounds.map((round, i) => ({
        key: entryKeys[i] ?? '',
        requestHash: hashOf(r, round),
        reference: r.reference,
      })),
      postings,
      resolution:
        resolve && pending && r.reservation
          ? {
              holdId: pending.id,
              status: unpaid.length > 0 ? 'posted' : 'voided',
              key: r.reservation.releaseKey,
            }
          : null,
      deltas,
      at,
    });
    const entryOf = new Map<string, number>();
    rounds.forEach((round, i) => {
      const id = written.get(entryKeys[i] ?? '')?.id;
      if (id === undefined) throw new Error('a compound entry was not written');
      for (const l of round) entryOf.set(l.key, id);
    });
    await writeAttachments(tx, unpaid, entryOf);
    await this.audit.appendBatchInTx(tx, auditEvents(r, source, rounds, entryOf, pending, resolve));
    return {
      status: 'paid',
      paid: unpaid.length,
      paidMinor: neededMinor,
      replayed: r.lines.length - unpaid.length,
      entryIds: [...written.values()].map((e) => e.id),
    };
  }
}

function checkRequest(r: BulkRequest): void {
  if (r.lines.length > MAX_BULK_LINES)
    throw new LedgerError('invalid_request', `a compound write takes at most ${MAX_BULK_LINES} lines`);
  const keys = new Set<string>();
  for (const l of r.lines) {
    if (!l.key.startsWith(LINE_KEY_PREFIX) || l.key.length > 195)
      throw new LedgerError('invalid_request', `a line key is ${LINE_KEY_PREFIX}… of at most 195 characters`);
    if (keys.has(l.key)) throw new LedgerError('invalid_request', `line key ${l.key} appears twice`);
    keys.add(l.key);
    if (l.amount <= 0n) throw new LedgerError('invalid_request', 'a line pays a positive amount');
    if (l.accountId === r.sourceAccountId)
      throw new LedgerError('invalid_request', 'a line pays an account other than the source');
    if (l.attach && l.attach.kind !== r.kind)
      throw new LedgerError('invalid_request', `no attachment of ${l.attach.kind} for ${r.kind}`);
  }
}

/** The source in the request's book; each line's account, in line order, existing and in the source's book and asset. */
function checkAccounts(r: BulkRequest, source: AccountRow, strays: Set<number>, missing: Set<number>): void {
  if (source.book !== r.book) throw new LedgerError('invalid_request', 'a posting may not cross books');
  if (strays.size === 0 && missing.size === 0) return;
  for (const l of r.lines) {
    if (missing.has(l.accountId))
      throw new LedgerError('unknown_account', `account ${l.accountId} does not exist`);
    if (strays.has(l.accountId))
      throw new LedgerError('invalid_request', 'a line pays within the source’s book and asset');
  }
}

/**
 * The entries of the lines (an account once per entry), their postings (the source's one debit per
 * entry, each line's credit) and the net balance changes, the resolved reservation's release too.
 */
function compoundOf(sourceId: number, unpaid: readonly BulkLine[], resolved: { amount: bigint } | null) {
  const rounds = roundsOf(unpaid);
  const entryKeys = rounds.map((round) => `bulk:${round[0]?.key}`);
  const postings: CompoundPosting[] = [];
  const net = new Map<number, { balance: bigint; held: bigint }>();
  const delta = (id: number, balance: bigint, held: bigint) => {
    const d = net.get(id) ?? { balance: 0n, held: 0n };
    d.balance += balance;
    d.held += held;
    net.set(id, d);
  };
  rounds.forEach((round, i) => {
    const entryKey = entryKeys[i] ?? '';
    const total = round.reduce((sum, l) => sum + l.amount, 0n);
    postings.push({ entryKey, accountId: sourceId, amount: -total, key: null, reference: null });
    for (const l of round) {
      postings.push({
        entryKey,
        accountId: l.accountId,
        amount: l.amount,
        key: l.key,
        reference: l.reference,
      });
      delta(l.accountId, l.amount, 0n);
    }
    delta(sourceId, -total, 0n);
  });
  if (resolved) delta(sourceId, 0n, -resolved.amount);
  const deltas = [...net]
    .filter(([, d]) => d.balance !== 0n || d.held !== 0n)
    .map(([accountId, d]) => ({ accountId, ...d }));
  return { rounds, entryKeys, postings, deltas };
}

/** The lines in entries where an account appears once: an account's n-th line in the n-th entry. */
function roundsOf(lines: readonly BulkLine[]): BulkLine[][] {
  const rounds: BulkLine[][] = [];
  const seen = new Map<number, number>();
  for (const l of lines) {
    const n = seen.get(l.accountId) ?? 0;
    seen.set(l.accountId, n + 1);
    let round = rounds[n];
    if (!round) {
      round = [];
      rounds[n] = round;
    }
    round.push(l);
  }
  return rounds;
}

function hashOf(r: BulkRequest, round: readonly BulkLine[]): string {
  return createHash('sha256')
    .update(
      `compound:${canonicalJson({
        book: r.book,
        kind: r.kind,
        source: r.sourceAccountId,
        lines: round.map((l) => [l.key, l.accountId, l.amount, l.reference]),
      })}`,
    )
    .digest('hex');
}

/** Each attachment kind's rows in one writer call: a line's row names its compound entry. */
async function writeAttachments(
  tx: Queryable,
  lines: readonly BulkLine[],
  entryOf: Map<string, number>,
): Promise<void> {
  const byChannel = new Map<Attachment<unknown>['channel'], unknown[]>();
  for (const l of lines) {
    if (!l.attach) continue;
    const rows = byChannel.get(l.attach.channel) ?? [];
    rows.push(l.attach.row({ entryId: entryOf.get(l.key) ?? 0 }));
    byChannel.set(l.attach.channel, rows);
  }
  for (const [channel, rows] of byChannel) await channel.write(tx, rows);
}

/** The page's audit: one operation per entry (its debit) and one per line (its posting), each with its own number. */
function auditEvents(
  r: BulkRequest,
  source: AccountRow,
  rounds: readonly BulkLine[][],
  entryOf: Map<string, number>,
  pending: { id: number; amount: bigint } | null,
  resolved: boolean,
): AuditEvent[] {
  const events: AuditEvent[] = [];
  for (const round of rounds) {
    const entryId = entryOf.get(round[0]?.key ?? '') ?? 0;
    events.push({
      actor: r.actor,
      action: `ledger.${r.kind}`,
      subject: `ledger_entry:${entryId}`,
      data: {
        book: r.book,
        compound: true,
        source: source.id,
        asset: source.asset,
        amount: -round.reduce((sum, l) => sum + l.amount, 0n),
        lines: round.length,
        reference: r.reference,
      },
    });
    for (const l of round)
      events.push({
        actor: r.actor,
        action: `ledger.${r.kind}.line`,
        subject: `ledger_entry:${entryId}`,
        data: {
          book: r.book,
          key: l.key,
          account: l.accountId,
          asset: source.asset,
          amount: l.amount,
          reference: l.reference,
        },
      });
  }
  if (pending && resolved)
    events.push({
      actor: r.actor,
      action: rounds.length > 0 ? 'ledger.hold_post' : 'ledger.hold_void',
      subject: `ledger_hold:${pending.id}`,
      data: { hold: pending.id, amount: pending.amount },
    });
  return events;
}

/**
 * What one customer sees of an entry's postings: a compound entry shows only their own line and
 * the source's debit of it (as a one-holding entry would have had), with the line's reference;
 * any other entry, every posting and the entry's reference (`reference: null`).
 */
export function customerLines<
  P extends {
    accountId: number;
    ownerId: number | null;
    amount: bigint;
    lineKey: string | null;
    lineReference: string | null;
  },
>(postings: readonly P[], ownerId: number): { postings: P[]; reference: string | null } {
  const own = postings.filter((p) => p.ownerId === ownerId && p.lineKey !== null);
  const debit = postings.find((p) => p.lineKey === null && p.amount < 0n);
  if (own.length === 0 || !debit) return { postings: [...postings], reference: null };
  const paid = own.reduce((sum, p) => sum + p.amount, 0n);
  return {
    postings: [...own, { ...debit, amount: -paid }].sort((a, b) => a.accountId - b.accountId),
    reference: own[0]?.lineReference ?? null,
  };
}
