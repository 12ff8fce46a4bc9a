import type { Queryable } from '../../platform/db.ts';

export type ReviewDecision = 'approved' | 'rejected';

/** The review of one item: claim, first approval, the decision. */
export type ReviewRow = {
  kind: string;
  itemId: number;
  claimedBy: number | null;
  claimUntil: string | null;
  firstApprover: number | null;
  firstApprovedAt: string | null;
  decision: ReviewDecision | null;
  decidedBy: number | null;
  decidedAt: string | null;
  reason: string | null;
};

type Raw = {
  kind: string;
  item_id: string;
  claimed_by: string | null;
  claim_until: Date | string | null;
  first_approver: string | null;
  first_approved_at: Date | string | null;
  decision: ReviewDecision | null;
  decided_by: string | null;
  decided_at: Date | string | null;
  reason: string | null;
};

const COLUMNS = `kind, item_id, claimed_by, claim_until, first_approver, first_approved_at, decision, decided_by,
  decided_at, reason`;
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const id = (v: string | null) => (v === null ? null : Number(v));
const toRow = (r: Raw): ReviewRow => ({
  kind: r.kind,
  itemId: Number(r.item_id),
  claimedBy: id(r.claimed_by),
  claimUntil: iso(r.claim_until),
  firstApprover: id(r.first_approver),
  firstApprovedAt: iso(r.first_approved_at),
  decision: r.decision,
  decidedBy: id(r.decided_by),
  decidedAt: iso(r.decided_at),
  reason: r.reason,
});

export async function reviewRow(
  db: Queryable,
  kind: string,
  itemId: number,
  lock = false,
): Promise<ReviewRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM review_items WHERE kind = $1 AND item_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [kind, itemId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

export async function reviewRows(db: Queryable, kind: string, itemIds: number[]): Promise<ReviewRow[]> {
  if (itemIds.length === 0) return [];
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM review_items WHERE kind = $1 AND item_id = ANY($2::bigint[])`,
    [kind, itemIds],
  );
  return rows.map(toRow);
}

/**
 * Claims an item for `staffId` until `until`, in one statement: a new row, or the row of an item
 * nobody holds, whose claim has ended, or that `staffId` holds already (a renewal). Of two claims
 * at once one wins: the other waits for the row and then finds it held. Null when refused (held
 * by someone else, or decided).
 */
export async function claimItem(
  db: Queryable,
  claim: { kind: string; itemId: number; staffId: number; now: string; until: string },
): Promise<ReviewRow | null> {
  const rows = await db.query<Raw>(
    `INSERT INTO review_items (kind, item_id, claimed_by, claim_until) VALUES ($1, $2, $3, $5)
     ON CONFLICT (kind, item_id) DO UPDATE SET claimed_by = EXCLUDED.claimed_by, claim_until = EXCLUDED.claim_until
     WHERE review_items.decision IS NULL
       AND (review_items.claimed_by IS NULL OR review_items.claimed_by = EXCLUDED.claimed_by
            OR review_items.claim_until <= $4)
     RETURNING ${COLUMNS}`,
    [claim.kind, claim.itemId, claim.staffId, claim.now, claim.until],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Ends `staffId`'s claim of an undecided item; null when they hold none. */
export async function releaseClaim(
  db: Queryable,
  kind: string,
  itemId: number,
  staffId: number,
): Promise<ReviewRow | null> {
  const rows = await db.query<Raw>(
    `UPDATE review_items SET claimed_by = NULL, claim_until = NULL
     WHERE kind = $1 AND item_id = $2 AND claimed_by = $3 AND decision IS NULL RETURNING ${COLUMNS}`,
    [kind, itemId, staffId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** The first approval of a four-eyes item; the claim ends so that another staff member can take it. */
export async function recordFirstApproval(
  tx: Queryable,
  kind: string,
  itemId: number,
  staffId: number,
  at: string,
): Promise<ReviewRow | null> {
  const rows = await tx.query<Raw>(
    `UPDATE review_items SET first_approver = $3, first_approved_at = $4, claimed_by = NULL, claim_until = NULL
     WHERE kind = $1 AND item_id = $2 AND first_approver IS NULL AND decision IS NULL
     RETURNING ${COLUMNS}`,
    [kind, itemId, staffId, at],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Records the decision (in the decision's one transaction); the claim ends. Null when already decided. */
export async function recordDecision(
  tx: Queryable,
  decided: {
    kind: string;
    itemId: number;
    decision: ReviewDecision;
    staffId: number;
    reason: string | null;
    at: string;
  },
): Promise<ReviewRow | null> {
  const rows = await tx.query<Raw>(
    `UPDATE review_items SET decision = $3, decided_by = $4, reason = $5, decided_at = $6,
       claimed_by = NULL, claim_until = NULL
     WHERE kind = $1 AND item_id = $2 AND decision IS NULL RETURNING ${COLUMNS}`,
    [decided.kind, decided.itemId, decided.decision, decided.staffId, decided.reason, decided.at],
  );
  return rows[0] ? toRow(rows[0]) : null;
}
