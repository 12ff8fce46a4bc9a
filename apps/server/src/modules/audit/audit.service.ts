import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../../platform/db.ts';
import {
  type AuditFilter,
  type AuditRow,
  insertAuditRows,
  insertStaffAlert,
  listOpenStaffAlerts,
  lockChainHead,
  readAuditRows,
  searchAuditRows,
} from './audit.repository.ts';

/** What happened, by whom, to what; `data` is any JSON value (bigints become decimal strings). */
export type AuditEvent = { actor: string; action: string; subject: string; data: unknown };

/** JSON with object keys sorted and bigints as strings: the same value always hashes the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return v;
  });
}

export function rowHash(row: Omit<AuditRow, 'hash'>): string {
  return createHash('sha256')
    .update([row.prevHash, row.seq, row.at, row.actor, row.action, row.subject, row.data].join('\u241f'))
    .digest('hex');
}

export type { AuditFilter } from './audit.repository.ts';

export type ChainVerdict =
  | { ok: true; rows: number }
  | { ok: false; rows: number; brokenAt: number; reason: string; kind: ChainBreak };

/** How a row breaks the chain: it is missing, it names the wrong previous hash, or its content changed. */
export type ChainBreak = 'missing' | 'previous_hash' | 'content_hash';

/**
 * The append-only, hash-chained audit log: every money movement and every staff action. Appends
 * happen inside the caller's transaction, so an audit row exists exactly when its effect does.
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

  async append(events: readonly AuditEvent[]): Promise<void> {
    await this.db.transaction((tx) => this.appendInTx(tx, events));
  }

  /** Walks the whole chain: each row's hash must be its own and the next row must carry it. */
  async verify(): Promise<ChainVerdict> {
    let prevHash = '';
    let expectedSeq = 1;
    let count = 0;
    for (;;) {
      const rows = await readAuditRows(this.db, expectedSeq - 1, 5000);
      if (rows.length === 0) return { ok: true, rows: count };
      for (const row of rows) {
        if (row.seq !== expectedSeq)
          return {
            ok: false,
            rows: count,
            brokenAt: expectedSeq,
            reason: `row ${expectedSeq} is missing`,
            kind: 'missing',
          };
        if (row.prevHash !== prevHash)
          return {
            ok: false,
            rows: count,
            brokenAt: row.seq,
            reason: 'previous hash does not match',
            kind: 'previous_hash',
          };
        const { hash, ...rest } = row;
        if (rowHash(rest) !== hash)
          return {
            ok: false,
            rows: count,
            brokenAt: row.seq,
            reason: 'row content does not match its hash',
            kind: 'content_hash',
          };
        prevHash = hash;
        expectedSeq += 1;
        count += 1;
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
