import type { Queryable } from '../../platform/db.ts';

export type AuditRow = {
  seq: number;
  at: string;
  actor: string;
  action: string;
  subject: string;
  data: string;
  prevHash: string;
  hash: string;
};

/** A row of `audit_log` as the database returns it. */
export type AuditLogRow = {
  seq: string;
  at: string;
  actor: string;
  action: string;
  subject: string;
  data: string;
  prev_hash: string;
  hash: string;
};

const auditRowOf = (r: AuditLogRow): AuditRow => ({ ...r, seq: Number(r.seq), prevHash: r.prev_hash });

/** Locks the head of the chain for this transaction (ordering every append) and returns it. */
export async function lockChainHead(tx: Queryable): Promise<{ seq: number; hash: string }> {
  const rows = await tx.query<{ seq: string; hash: string }>('SELECT seq, hash FROM audit_head FOR UPDATE');
  const head = rows[0];
  if (!head) throw new Error('audit_head row is missing');
  return { seq: Number(head.seq), hash: head.hash };
}

/** Appends rows and moves the head to the last of them, in one statement. */
export async function insertAuditRows(tx: Queryable, rows: readonly AuditRow[]): Promise<void> {
  const last = rows.at(-1);
  if (!last) return;
  await tx.query(
    `WITH appended AS (
       INSERT INTO audit_log (seq, at, actor, action, subject, data, prev_hash, hash)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
     )
     UPDATE audit_head SET seq = $9, hash = $10`,
    [
      rows.map((r) => r.seq),
      rows.map((r) => r.at),
      rows.map((r) => r.actor),
      rows.map((r) => r.action),
      rows.map((r) => r.subject),
      rows.map((r) => r.data),
      rows.map((r) => r.prevHash),
      rows.map((r) => r.hash),
      last.seq,
      last.hash,
    ],
  );
}

export async function readAuditRows(db: Queryable, afterSeq: number, limit: number): Promise<AuditRow[]> {
  const rows = await db.query<AuditLogRow>('SELECT * FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2', [
    afterSeq,
    limit,
  ]);
  return rows.map(auditRowOf);
}

export async function insertStaffAlert(
  db: Queryable,
  alert: { kind: string; message: string; data: string },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO staff_alerts (kind, message, data) VALUES ($1, $2, $3) RETURNING id',
    [alert.kind, alert.message, alert.data],
  );
  return Number(rows[0]?.id);
}

export async function listOpenStaffAlerts(
  db: Queryable,
): Promise<{ id: number; kind: string; message: string; data: string }[]> {
  const rows = await db.query<{ id: string; kind: string; message: string; data: string }>(
    'SELECT id, kind, message, data FROM staff_alerts WHERE acknowledged_at IS NULL ORDER BY id',
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export type AuditFilter = {
  actor?: string | undefined;
  /** An action or its beginning. */
  actionPrefix?: string | undefined;
  subject?: string | undefined;
  /** ISO times: at >= from, at < to. */
  from?: string | undefined;
  to?: string | undefined;
  beforeSeq?: number | undefined;
  limit: number;
};

/** Audit rows matching a filter, newest first, a page before a seq (keyset). */
export async function searchAuditRows(db: Queryable, filter: AuditFilter): Promise<AuditRow[]> {
  const prefix =
    filter.actionPrefix === undefined ? null : `${filter.actionPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.query<AuditLogRow>(
    `SELECT * FROM audit_log
     WHERE ($1::text IS NULL OR actor = $1)
       AND ($2::text IS NULL OR action LIKE $2)
       AND ($3::text IS NULL OR subject = $3)
       AND ($4::text IS NULL OR at >= $4)
       AND ($5::text IS NULL OR at < $5)
       AND ($6::bigint IS NULL OR seq < $6)
     ORDER BY seq DESC LIMIT $7`,
    [
      filter.actor ?? null,
      prefix,
      filter.subject ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.beforeSeq ?? null,
      filter.limit,
    ],
  );
  return rows.map(auditRowOf);
}
