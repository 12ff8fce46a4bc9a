import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../../platform/db.ts';
import {
  type AuditFilter,
  type AuditOperation,
  type AuditRow,
  insertAuditRows,
  insertBatchRow,
  insertStaffAlert,
  listOpenStaffAlerts,
  lockChainHead,
  readChainRows,
  searchAuditRows,
} from './audit.repository.ts';

/** What happened, by whom, to what; `data` is any JSON value (bigints become decimal strings). */
export type AuditEvent = { actor: string; action: string; subject: string; data: unknown };

/**
 * JSON with object keys sorted and bigints as strings: the same value always hashes the same.
 * It runs twice per ledger operation (its request hash and its audit data), so the value is first
 * copied into plain JSON (bigints as text, each object's keys inserted in sorted order) and then
 * written by the native `JSON.stringify` in one call, rather than through a replacer called for
 * every value. The text is the same (`canonicalJson.test.ts` checks it against the replacer).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedCopy(value, ''));
}

const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sortedCopy(value: unknown, key: string): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return sortedCopy(toJSON.call(value, key), key);
  if (Array.isArray(value)) return value.map((item, i) => sortedCopy(item, String(i)));
  const record = value as Record<string, unknown>;
  // No prototype: a key named __proto__ is a key like any other, as Object.fromEntries makes it.
  const copy: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(record).sort(compareKeys)) copy[k] = sortedCopy(record[k], k);
  return copy;
}

/** Between the hashed fields: a character no id, action or time contains. */
const SEPARATOR = '\u241f';

export function rowHash(row: Omit<AuditRow, 'hash'>): string {
  return createHash('sha256')
    .update([row.prevHash, row.seq, row.at, row.actor, row.action, row.subject, row.data].join(SEPARATOR))
    .digest('hex');
}

/** The digest of one operation of a ledger batch: what the batch row's hash commits to for it. */
export function operationDigest(op: Omit<AuditOperation, 'digest'>): string {
  return createHash('sha256')
    .update([op.actor, op.action, op.subject, op.data].join(SEPARATOR))
    .digest('hex');
}

/**
 * The hash of a ledger batch's row: its own fields and the ordered list of its operations' digests
 * (`insertBatchRow` computes the same in SQL when it appends the row).
 */
export function batchRowHash(row: Omit<AuditRow, 'hash'>, digests: readonly string[]): string {
  return createHash('sha256')
    .update(
      [row.prevHash, row.seq, row.at, row.actor, row.action, row.subject, row.data, digests.join(' ')].join(
        SEPARATOR,
      ),
    )
    .digest('hex');
}

/** The actor, action and subject of a ledger batch's own row (its operations carry their own). */
export const LEDGER_BATCH = { actor: 'system:ledger', action: 'ledger.batch', subject: 'ledger' } as const;

export type { AuditFilter } from './audit.repository.ts';

/** `rows`: the events checked (a row of its own, or one operation of a ledger batch's row). */
export type ChainVerdict =
  | { ok: true; rows: number }
  | { ok: false; rows: number; brokenAt: number; reason: string; kind: ChainBreak };

/**
 * How a row breaks the chain: it is missing, it names the wrong previous hash, or its content
 * changed (for a batch's operation, `brokenAt` is that operation's own number).
 */
export type ChainBreak = 'missing' | 'previous_hash' | 'content_hash';

/** What `npm run audit:verify` prints: the events checked, or where and why the chain breaks. */
export function auditVerdictText(verdict: ChainVerdict): string {
  return verdict.ok
    ? `Audit chain intact: ${verdict.rows} rows.`
    : `Audit chain BROKEN at row ${verdict.brokenAt}: ${verdict.reason}`;
}

/**
 * The append-only, hash-chained audit log: every money movement and every staff action. Appends
 * happen inside the caller's transaction, so an audit row exists exactly when its effect does. A
 * ledger batch appends one row for all its operations (`appendBatchInTx`); every other event one
 * row each (`appendInTx`). Either way each event has its own number, search and verdict.
 */
export class AuditService {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** Appends events in the caller's transaction (the chain lock is held until it commits). */
  async appendInTx(tx: Queryable, events: readonly AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    const head = await lockChainHead(tx);
    const at = new Date().toISOString();
    let prevHash = head.hash;
    const rows: AuditRow[] = events.map((event, index) => {
      const base = {
        seq: head.seq + index + 1,
        at,
        actor: event.actor,
        action: event.action,
        subject: event.subject,
        data: canonicalJson(event.data),
        prevHash,
      };
      const hash = rowHash(base);
      prevHash = hash;
      return { ...base, hash };
    });
    await insertAuditRows(tx, rows);
  }

  /**
   * Appends the operations of one ledger batch as ONE row, in the caller's transaction (one
   * statement: the chain's head is locked, the row hashed and the head moved in SQL). Each
   * operation keeps its facts and its digest; the row's hash covers the digests in order.
   */
  async appendBatchInTx(tx: Queryable, events: readonly AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    const operations = events.map((event) => {
      const op = {
        actor: event.actor,
        action: event.action,
        subject: event.subject,
        data: canonicalJson(event.data),
      };
      return { ...op, digest: operationDigest(op) };
    });
    const row = {
      ...LEDGER_BATCH,
      at: new Date().toISOString(),
      data: canonicalJson({ operations: events.length }),
    };
    await insertBatchRow(tx, row, operations, SEPARATOR);
  }

  async append(events: readonly AuditEvent[]): Promise<void> {
    await this.db.transaction((tx) => this.appendInTx(tx, events));
  }

  /**
   * Walks the whole chain: each row's hash must be its own and the next row must carry it; in a
   * ledger batch's row, each operation's digest must be that of its stored facts, and the row's
   * hash must cover those digests. A broken operation is named by its own number.
   */
  async verify(): Promise<ChainVerdict> {
    let prevHash = '';
    let expectedSeq = 1;
    let count = 0;
    for (;;) {
      const rows = await readChainRows(this.db, expectedSeq - 1, 2000);
      if (rows.length === 0) return { ok: true, rows: count };
      for (const row of rows) {
        const broken = (brokenAt: number, kind: ChainBreak, reason: string): ChainVerdict => ({
          ok: false,
          rows: count,
          brokenAt,
          reason,
          kind,
        });
        if (row.seq !== expectedSeq) return broken(expectedSeq, 'missing', `row ${expectedSeq} is missing`);
        if (row.prevHash !== prevHash)
          return broken(row.seq, 'previous_hash', 'previous hash does not match');
        const { hash, operations, ...rest } = row;
        if (operations === null) {
          if (rowHash(rest) !== hash)
            return broken(row.seq, 'content_hash', 'row content does not match its hash');
        } else {
          const tampered = operations.findIndex((op) => operationDigest(op) !== op.digest);
          if (tampered >= 0)
            return broken(
              row.seq + tampered,
              'content_hash',
              `operation ${row.seq + tampered} (${tampered + 1} of ${operations.length} in the ledger batch row ${row.seq}) does not match its digest`,
            );
          if (
            batchRowHash(
              rest,
              operations.map((op) => op.digest),
            ) !== hash
          )
            return broken(row.seq, 'content_hash', `ledger batch row ${row.seq} does not match its hash`);
        }
        const events = operations?.length ?? 1;
        prevHash = hash;
        expectedSeq += events;
        count += events;
      }
    }
  }

  /** Rows matching a filter, newest first (keyset pages by seq); for the back office. */
  search(filter: AuditFilter): Promise<AuditRow[]> {
    return searchAuditRows(this.db, { ...filter, limit: Math.min(Math.max(filter.limit, 1), 200) });
  }

  /** Raises an alert for staff, recorded in the audit log too. */
  async alertStaff(kind: string, message: string, data: unknown): Promise<number> {
    return this.db.transaction((tx) => this.alertStaffInTx(tx, kind, message, data));
  }

  /** Raises an alert in the caller's transaction: it exists exactly when the caller's record of it does. */
  async alertStaffInTx(tx: Queryable, kind: string, message: string, data: unknown): Promise<number> {
    const id = await insertStaffAlert(tx, { kind, message, data: canonicalJson(data) });
    await this.appendInTx(tx, [
      {
        actor: 'system',
        action: 'staff_alert.raised',
        subject: `staff_alert:${id}`,
        data: { kind, message },
      },
    ]);
    return id;
  }

  openAlerts() {
    return listOpenStaffAlerts(this.db);
  }
}
