import type { Queryable } from '../../platform/db.ts';

/** SQL of the limit rule (`loan_limit_rules`): the rule that applies, its proposed changes, and the facts it reads. */

export type LimitRule = { basePpm: bigint; stepPpm: bigint; maxPpm: bigint; minLoanDays: number };

export type LimitRuleRow = LimitRule & {
  id: number;
  state: 'pending' | 'approved' | 'rejected';
  proposedBy: number | null;
  proposedAt: string;
  decidedBy: number | null;
  decidedAt: string | null;
};

type RawRule = {
  id: string;
  base_ppm: string;
  step_ppm: string;
  max_ppm: string;
  min_loan_days: number;
  state: LimitRuleRow['state'];
  proposed_by: string | null;
  proposed_at: string;
  decided_by: string | null;
  decided_at: string | null;
};

const ISO = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`;
const RULE_COLUMNS = `id, base_ppm, step_ppm, max_ppm, min_loan_days, state, proposed_by, ${ISO('proposed_at')},
  decided_by, ${ISO('decided_at')}`;

const num = (v: string | null) => (v === null ? null : Number(v));

const toRule = (r: RawRule): LimitRuleRow => ({
  id: Number(r.id),
  basePpm: BigInt(r.base_ppm),
  stepPpm: BigInt(r.step_ppm),
  maxPpm: BigInt(r.max_ppm),
  minLoanDays: r.min_loan_days,
  state: r.state,
  proposedBy: num(r.proposed_by),
  proposedAt: r.proposed_at,
  decidedBy: num(r.decided_by),
  decidedAt: r.decided_at,
});

/** The rule that applies: the latest approved (the migration seeds one). */
export async function currentRule(db: Queryable): Promise<LimitRuleRow> {
  const rows = await db.query<RawRule>(
    `SELECT ${RULE_COLUMNS} FROM loan_limit_rules WHERE state = 'approved'
     ORDER BY coalesce(decided_at, proposed_at) DESC, id DESC LIMIT 1`,
  );
  if (!rows[0]) throw new Error('no loan limit rule');
  return toRule(rows[0]);
}

/** The change waiting for a second staff member, the latest decided changes (newest first). */
export async function ruleChanges(
  db: Queryable,
  recent: number,
): Promise<{ pending: LimitRuleRow | null; recent: LimitRuleRow[] }> {
  const rows = await db.query<RawRule>(
    `(SELECT ${RULE_COLUMNS} FROM loan_limit_rules WHERE state = 'pending')
     UNION ALL
     (SELECT ${RULE_COLUMNS} FROM loan_limit_rules WHERE state <> 'pending' AND proposed_by IS NOT NULL
      ORDER BY decided_at DESC, id DESC LIMIT $1)`,
    [recent],
  );
  const all = rows.map(toRule);
  return {
    pending: all.find((r) => r.state === 'pending') ?? null,
    recent: all.filter((r) => r.state !== 'pending'),
  };
}

/** A proposed rule; null when a change already waits (the unique index). */
export async function insertProposal(
  tx: Queryable,
  rule: LimitRule,
  by: number,
  at: string,
): Promise<LimitRuleRow | null> {
  const rows = await tx.query<RawRule>(
    `INSERT INTO loan_limit_rules (base_ppm, step_ppm, max_ppm, min_loan_days, state, proposed_by, proposed_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $6) ON CONFLICT DO NOTHING RETURNING ${RULE_COLUMNS}`,
    [rule.basePpm.toString(), rule.stepPpm.toString(), rule.maxPpm.toString(), rule.minLoanDays, by, at],
  );
  return rows[0] ? toRule(rows[0]) : null;
}

export async function proposalById(tx: Queryable, id: number): Promise<LimitRuleRow | null> {
  const rows = await tx.query<RawRule>(
    `SELECT ${RULE_COLUMNS} FROM loan_limit_rules WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] ? toRule(rows[0]) : null;
}

/** Decides a waiting proposal; null when it was not waiting. */
export async function decideProposal(
  tx: Queryable,
  id: number,
  decision: 'approved' | 'rejected',
  by: number,
  at: string,
): Promise<LimitRuleRow | null> {
  const rows = await tx.query<RawRule>(
    `UPDATE loan_limit_rules SET state = $2, decided_by = $3, decided_at = $4
     WHERE id = $1 AND state = 'pending' RETURNING ${RULE_COLUMNS}`,
    [id, decision, by, at],
  );
  return rows[0] ? toRule(rows[0]) : null;
}

/**
 * A customer's loans as the limit rule reads them: repaid on time (never overdue) and run at least
 * `minDays` days from the payout to the day they closed; ever overdue.
 */
export async function limitFactsOf(
  db: Queryable,
  userId: number,
  minDays: number,
): Promise<{ counted: number; overdue: number }> {
  const rows = await db.query<{ counted: string; overdue: string }>(
    `SELECT count(*) FILTER (WHERE state IN ('repaid', 'withdrawn') AND NOT was_overdue
         AND disbursed_day IS NOT NULL AND closed_day - disbursed_day >= $2) AS counted,
       count(*) FILTER (WHERE was_overdue) AS overdue
     FROM loans WHERE user_id = $1`,
    [userId, minDays],
  );
  return { counted: Number(rows[0]?.counted ?? 0), overdue: Number(rows[0]?.overdue ?? 0) };
}
