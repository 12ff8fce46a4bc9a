import type { Queryable } from '../../platform/db.ts';

export async function findPublicParam(
  db: Queryable,
  key: string,
): Promise<{ key: string; value: string } | null> {
  const rows = await db.query<{ key: string; value: string }>(
    'SELECT key, value FROM system_params WHERE key = $1 AND is_public',
    [key],
  );
  return rows[0] ?? null;
}

export async function findParam(db: Queryable, key: string): Promise<string | null> {
  const rows = await db.query<{ value: string }>('SELECT value FROM system_params WHERE key = $1', [key]);
  return rows[0]?.value ?? null;
}

/** A parameter's value and when it was last written. */
export async function findParamRow(
  db: Queryable,
  key: string,
): Promise<{ value: string; updatedAt: string } | null> {
  const rows = await db.query<{ value: string; updatedAt: string }>(
    `SELECT value, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
     FROM system_params WHERE key = $1`,
    [key],
  );
  return rows[0] ?? null;
}

/** Inserts defaults that are missing; a value staff changed is left alone. */
export async function insertMissingParams(
  db: Queryable,
  params: readonly { key: string; value: string; isPublic: boolean; description: string }[],
): Promise<void> {
  for (const p of params) {
    await db.query(
      `INSERT INTO system_params (key, value, is_public, description) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO NOTHING`,
      [p.key, p.value, p.isPublic, p.description],
    );
  }
}

/** The values of the parameters whose key starts with `prefix` (e.g. the four-eyes thresholds). */
export async function paramsWithPrefix(db: Queryable, prefix: string): Promise<Map<string, string>> {
  const rows = await db.query<{ key: string; value: string }>(
    'SELECT key, value FROM system_params WHERE starts_with(key, $1)',
    [prefix],
  );
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** Sets a parameter (staff-only, not public), or removes it with value null. */
export async function writeParam(
  db: Queryable,
  key: string,
  value: string | null,
  description: string,
): Promise<void> {
  if (value === null) {
    await db.query('DELETE FROM system_params WHERE key = $1', [key]);
    return;
  }
  await db.query(
    `INSERT INTO system_params (key, value, description) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, value, description],
  );
}

export type ProposalRow = {
  id: number;
  key: string;
  value: string | null;
  before: string | null;
  proposedBy: number;
  proposedAt: string;
  decision: 'approved' | 'rejected' | null;
  decidedBy: number | null;
  decidedAt: string | null;
};

const PROPOSAL_COLUMNS = `id::int AS id, key, value, before, proposed_by::int AS "proposedBy",
  to_char(proposed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "proposedAt",
  decision, decided_by::int AS "decidedBy",
  to_char(decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "decidedAt"`;

/** A new proposal; null when a change of the same key already waits (the unique index). */
export async function insertProposal(
  db: Queryable,
  p: { key: string; value: string | null; before: string | null; proposedBy: number; at: string },
): Promise<ProposalRow | null> {
  const rows = await db.query<ProposalRow>(
    `INSERT INTO four_eyes_proposals (key, value, before, proposed_by, proposed_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key) WHERE decision IS NULL DO NOTHING
     RETURNING ${PROPOSAL_COLUMNS}`,
    [p.key, p.value, p.before, p.proposedBy, p.at],
  );
  return rows[0] ?? null;
}

/** One proposal; `lock` takes its row for the deciding transaction. */
export async function findProposal(db: Queryable, id: number, lock = false): Promise<ProposalRow | null> {
  const rows = await db.query<ProposalRow>(
    `SELECT ${PROPOSAL_COLUMNS} FROM four_eyes_proposals WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Records the decision of a waiting proposal; null when it was already decided. */
export async function decideProposal(
  db: Queryable,
  p: { id: number; decision: 'approved' | 'rejected'; decidedBy: number; at: string },
): Promise<ProposalRow | null> {
  const rows = await db.query<ProposalRow>(
    `UPDATE four_eyes_proposals SET decision = $2, decided_by = $3, decided_at = $4
     WHERE id = $1 AND decision IS NULL
     RETURNING ${PROPOSAL_COLUMNS}`,
    [p.id, p.decision, p.decidedBy, p.at],
  );
  return rows[0] ?? null;
}

/**
 * The waiting proposals of the keys starting with `prefix`, oldest first, and their latest decided
 * ones, newest first.
 */
export async function listProposals(
  db: Queryable,
  prefix: string,
  recent: number,
): Promise<{ pending: ProposalRow[]; recent: ProposalRow[] }> {
  const pending = await db.query<ProposalRow>(
    `SELECT ${PROPOSAL_COLUMNS} FROM four_eyes_proposals
     WHERE decision IS NULL AND starts_with(key, $1) ORDER BY id`,
    [prefix],
  );
  const decided = await db.query<ProposalRow>(
    `SELECT ${PROPOSAL_COLUMNS} FROM four_eyes_proposals
     WHERE decision IS NOT NULL AND starts_with(key, $1)
     ORDER BY decided_at DESC, id DESC LIMIT $2`,
    [prefix, recent],
  );
  return { pending, recent: decided };
}

/** The latest approved proposal of one key (what set its value, unless written otherwise since). */
export async function lastApproved(db: Queryable, key: string): Promise<ProposalRow | null> {
  const rows = await db.query<ProposalRow>(
    `SELECT ${PROPOSAL_COLUMNS} FROM four_eyes_proposals WHERE key = $1 AND decision = 'approved'
     ORDER BY decided_at DESC, id DESC LIMIT 1`,
    [key],
  );
  return rows[0] ?? null;
}
