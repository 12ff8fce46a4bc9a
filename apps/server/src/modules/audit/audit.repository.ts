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

/** One operation of a ledger batch's row: its facts and the digest the row's hash covers. */
export type AuditOperation = { actor: string; action: string; subject: string; data: string; digest: string };

/** A row of the chain as stored: an event's, or a ledger batch's with its operations (numbered from seq). */
export type ChainRow = AuditRow & { operations: AuditOperation[] | null };

/** A row of `audit_log` as the database returns it. */
type AuditLogRow = {
  seq: string;
  at: string;
  actor: string;
  action: string;
  subject: string;
  data: string;
  prev_hash: string;
  hash: string;
};

type ChainLogRow = AuditLogRow & {
  op_actors: string[] | null;
  op_actions: string[] | null;
  op_subjects: string[] | null;
  op_data: string[] | null;
  op_digests: string[] | null;
};

const auditRowOf = (r: AuditLogRow): AuditRow => ({
  seq: Number(r.seq),
  at: r.at,
  actor: r.actor,
  action: r.action,
  subject: r.subject,
  data: r.data,
  prevHash: r.prev_hash,
  hash: r.hash,
});

const chainRowOf = (r: ChainLogRow): ChainRow => ({
  ...auditRowOf(r),
  operations:
    r.op_digests === null
      ? null
      : r.op_digests.map((digest, i) => ({
          actor: r.op_actors?.[i] ?? '',
          action: r.op_actions?.[i] ?? '',
          subject: r.op_subjects?.[i] ?? '',
          data: r.op_data?.[i] ?? '',
          digest,
        })),
});

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

/**
 * Appends one ledger batch's row and moves the head past its last operation, in ONE statement: the
 * head is locked and read, and the row's hash computed, in SQL, exactly as `batchRowHash` computes
 * it (the fields joined by `separator`, UTF-8, SHA-256, hex; the digests joined by spaces).
 */
export async function insertBatchRow(
  tx: Queryable,
  row: { at: string; actor: string; action: string; subject: string; data: string },
  operations: readonly AuditOperation[],
  separator: string,
): Promise<{ seq: number; hash: string }> {
  const rows = await tx.query<{ seq: string; hash: string }>(
    `WITH head AS (SELECT seq, hash FROM audit_head FOR UPDATE),
     next_row AS (
       SELECT head.seq + 1 AS seq, head.hash AS prev_hash,
         encode(sha256(convert_to(concat_ws($11::text, head.hash, (head.seq + 1)::text, $1::text, $2::text,
           $3::text, $4::text, $5::text, array_to_string($10::text[], ' ')), 'UTF8')), 'hex') AS hash
       FROM head
     ), appended AS (
       INSERT INTO audit_log (seq, at, actor, action, subject, data, prev_hash, hash,
         op_actors, op_actions, op_subjects, op_data, op_digests)
       SELECT seq, $1, $2, $3, $4, $5, prev_hash, hash, $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]
       FROM next_row
     )
     UPDATE audit_head SET seq = next_row.seq + cardinality($10::text[]) - 1, hash = next_row.hash
     FROM next_row
     RETURNING next_row.seq, next_row.hash`,
    [
      row.at,
      row.actor,
      row.action,
      row.subject,
      row.data,
      operations.map((o) => o.actor),
      operations.map((o) => o.action),
      operations.map((o) => o.subject),
      operations.map((o) => o.data),
      operations.map((o) => o.digest),
      separator,
    ],
  );
  const first = rows[0];
  if (!first) throw new Error('audit_head row is missing');
  return { seq: Number(first.seq), hash: first.hash };
}

/** Rows of the chain after a number, in order, with a batch row's operations. */
export async function readChainRows(db: Queryable, afterSeq: number, limit: number): Promise<ChainRow[]> {
  const rows = await db.query<ChainLogRow>('SELECT * FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2', [
    afterSeq,
    limit,
  ]);
  return rows.map(chainRowOf);
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

/**
 * Audit events matching a filter, newest first, a page before a number (keyset). An event is a
 * row of its own or one operation of a ledger batch's row (numbered from the row's seq, at the
 * row's time). Rows are found by actor and subject through their btree indexes and a batch's
 * operations through the GIN indexes on its arrays; each operation is then matched on its own.
 */
export async function searchAuditRows(db: Queryable, filter: AuditFilter): Promise<AuditRow[]> {
  const prefix =
    filter.actionPrefix === undefined ? null : `${filter.actionPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.query<AuditLogRow>(
    `SELECT (l.seq + o.i - 1)::text AS seq, l.at, o.actor, o.action, o.subject, o.data, l.prev_hash, l.hash
     FROM audit_log l
     CROSS JOIN LATERAL unnest(
       coalesce(l.op_actors, ARRAY[l.actor]), coalesce(l.op_actions, ARRAY[l.action]),
       coalesce(l.op_subjects, ARRAY[l.subject]), coalesce(l.op_data, ARRAY[l.data])
     ) WITH ORDINALITY AS o(actor, action, subject, data, i)
     WHERE ($1::text IS NULL OR l.actor = $1 OR l.op_actors @> ARRAY[$1::text])
       AND ($3::text IS NULL OR l.subject = $3 OR l.op_subjects @> ARRAY[$3::text])
       AND ($1::text IS NULL OR o.actor = $1)
       AND ($2::text IS NULL OR o.action LIKE $2)
       AND ($3::text IS NULL OR o.subject = $3)
       AND ($4::text IS NULL OR l.at >= $4)
       AND ($5::text IS NULL OR l.at < $5)
       AND ($6::bigint IS NULL OR (l.seq < $6 AND l.seq + o.i - 1 < $6))
     ORDER BY l.seq DESC, o.i DESC LIMIT $7`,
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
