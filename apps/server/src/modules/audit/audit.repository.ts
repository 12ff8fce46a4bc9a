import type { Queryable } from '../../platform/db.ts';

/** An arbitrary constant: the advisory lock that orders appends to the audit chain. */
const AUDIT_CHAIN_LOCK = 7_243_002;

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

/** Locks the chain for this transaction and returns its head (seq 0 and the genesis hash when empty). */
export async function lockChainHead(tx: Queryable): Promise<{ seq: number; hash: string }> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_CHAIN_LOCK]);
  const rows = await tx.query<{ seq: string; hash: string }>(
    'SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1',
  );
  const head = rows[0];
  return head ? { seq: Number(head.seq), hash: head.hash } : { seq: 0, hash: '' };
}

export async function insertAuditRows(tx: Queryable, rows: readonly AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO audit_log (seq, at, actor, action, subject, data, prev_hash, hash)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])`,
    [
      rows.map((r) => r.seq),
      rows.map((r) => r.at),
      rows.map((r) => r.actor),
      rows.map((r) => r.action),
      rows.map((r) => r.subject),
      rows.map((r) => r.data),
      rows.map((r) => r.prevHash),
      rows.map((r) => r.hash),
    ],
  );
}

export async function readAuditRows(db: Queryable, afterSeq: number, limit: number): Promise<AuditRow[]> {
  const rows = await db.query<{
    seq: string;
    at: string;
    actor: string;
    action: string;
    subject: string;
    data: string;
    prev_hash: string;
    hash: string;
  }>('SELECT * FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit]);
  return rows.map((r) => ({ ...r, seq: Number(r.seq), prevHash: r.prev_hash }));
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
