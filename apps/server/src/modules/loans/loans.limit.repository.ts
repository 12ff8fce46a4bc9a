import type { Queryable } from '../../platform/db.ts';

/** SQL of the limit: the facts of a customer's loans the rule reads (the rule is the system parameter `loans.limitRule`). */

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
