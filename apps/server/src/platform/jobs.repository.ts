import type { Queryable } from './db.ts';

/** SQL of the job runner: one row per (job, run key) is the claim that makes a run happen once. */
export async function claimRun(
  db: Queryable,
  run: { job: string; runKey: string; node: string; leaseMs: number; maxAttempts: number },
): Promise<number | null> {
  const rows = await db.query<{ attempts: number }>(
    `INSERT INTO job_runs (job, run_key, status, node, lease_until)
     VALUES ($1, $2, 'running', $3, now() + $4 * interval '1 millisecond')
     ON CONFLICT (job, run_key) DO UPDATE
       SET status = 'running', node = EXCLUDED.node, attempts = job_runs.attempts + 1,
           lease_until = EXCLUDED.lease_until, started_at = now(), finished_at = NULL, error = NULL
     WHERE (job_runs.status = 'failed' AND job_runs.attempts < $5)
        OR (job_runs.status = 'running' AND job_runs.lease_until < now())
     RETURNING attempts`,
    [run.job, run.runKey, run.node, run.leaseMs, run.maxAttempts],
  );
  return rows[0]?.attempts ?? null;
}

export async function finishRun(
  db: Queryable,
  run: { job: string; runKey: string; node: string; error: string | null },
): Promise<void> {
  await db.query(
    `UPDATE job_runs SET status = $4, error = $5, finished_at = now()
     WHERE job = $1 AND run_key = $2 AND node = $3 AND status = 'running'`,
    [run.job, run.runKey, run.node, run.error === null ? 'done' : 'failed', run.error],
  );
}

export type JobRunRow = {
  job: string;
  run_key: string;
  status: string;
  node: string;
  attempts: number;
  error: string | null;
};

export async function listRuns(db: Queryable, job: string, limit: number): Promise<JobRunRow[]> {
  return db.query<JobRunRow>(
    'SELECT job, run_key, status, node, attempts, error FROM job_runs WHERE job = $1 ORDER BY started_at DESC LIMIT $2',
    [job, limit],
  );
}

/** Runs still marked running whose lease ran out: the node running them died or hangs. */
export async function stalledRuns(
  db: Queryable,
): Promise<{ job: string; runKey: string; node: string; attempts: number; leaseUntil: string }[]> {
  const rows = await db.query<{
    job: string;
    run_key: string;
    node: string;
    attempts: number;
    lease_until: Date | string;
  }>(
    `SELECT job, run_key, node, attempts, lease_until FROM job_runs
     WHERE status = 'running' AND lease_until < now() ORDER BY lease_until LIMIT 50`,
  );
  return rows.map((r) => ({
    job: r.job,
    runKey: r.run_key,
    node: r.node,
    attempts: Number(r.attempts),
    leaseUntil: new Date(r.lease_until).toISOString(),
  }));
}
