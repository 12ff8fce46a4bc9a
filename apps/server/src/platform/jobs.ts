import type { Database } from './db.ts';
import { claimRun, finishRun, stalledRuns } from './jobs.repository.ts';
import type { Logger } from './logger.ts';
import { jobFailures, jobRuns } from './metrics.ts';

/**
 * A job runs once per run key (a day for a daily job, a minute for a minutely one) across every
 * node: the node whose claim row is inserted first runs it; the others skip. A run that fails is
 * retried up to `maxAttempts`; a node that dies mid-run leaves a lease that expires, after which
 * another node takes the run over. Jobs must therefore be idempotent in their own effects too.
 */
export type Job = {
  name: string;
  /** How often the runner looks at this job. */
  everyMs: number;
  /** The run this moment belongs to, e.g. `2026-11-22` for a daily job. */
  runKey: (now: Date) => string;
  run: (context: { runKey: string; attempt: number; logger: Logger }) => Promise<void>;
  leaseMs?: number;
  maxAttempts?: number;
};

/** A failed run, as the failure listener hears of it. */
export type JobFailure = { job: string; runKey: string; attempt: number; error: unknown };

export const dailyKey = (now: Date) => now.toISOString().slice(0, 10);
export const minuteKey = (now: Date) => now.toISOString().slice(0, 16);

export class JobRunner {
  private readonly jobs = new Map<string, Job>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;
  private failureListener: ((failure: JobFailure) => Promise<unknown>) | null = null;

  private readonly db: Database;
  private readonly node: string;
  private readonly logger: Logger;
  private readonly now: () => number;

  /** `now`: the clock the run keys are read on (platform/clock.ts). */
  constructor(db: Database, node: string, logger: Logger, now: () => number = () => Date.now()) {
    this.db = db;
    this.node = node;
    this.logger = logger;
    this.now = now;
  }

  /** Called after every failed run (the server alerts staff); a failure of its own is logged, never thrown. */
  onFailure(listener: (failure: JobFailure) => Promise<unknown>): void {
    this.failureListener = listener;
  }

  register(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  start(): void {
    for (const job of this.jobs.values()) {
      // A tick that cannot reach the database (claiming or finishing its run) is logged and tried
      // again at the next one; it never ends the process.
      const timer = setInterval(
        () =>
          void this.tick(job.name).catch((error: unknown) =>
            this.logger.warn({ err: error, job: job.name }, 'job tick failed; tried again at the next'),
          ),
        job.everyMs,
      );
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Runs the job's current run now if no node has; returns whether this node ran it. */
  async tick(name: string, now = new Date(this.now())): Promise<boolean> {
    const job = this.jobs.get(name);
    if (!job || this.stopped) return false;
    const runKey = job.runKey(now);
    const attempt = await claimRun(this.db, {
      job: job.name,
      runKey,
      node: this.node,
      leaseMs: job.leaseMs ?? 10 * 60_000,
      maxAttempts: job.maxAttempts ?? 3,
    });
    if (attempt === null) return false;
    const logger = this.logger.child({ job: job.name, runKey, attempt });
    const work = (async () => {
      try {
        await job.run({ runKey, attempt, logger });
        await finishRun(this.db, { job: job.name, runKey, node: this.node, error: null });
        jobRuns.inc({ job: job.name, outcome: 'done' });
        logger.info('job run done');
      } catch (error) {
        jobRuns.inc({ job: job.name, outcome: 'failed' });
        jobFailures.inc({ job: job.name });
        logger.error({ err: error }, 'job run failed');
        await finishRun(this.db, {
          job: job.name,
          runKey,
          node: this.node,
          error: String(error).slice(0, 2000),
        });
        await this.failureListener?.({ job: job.name, runKey, attempt, error }).catch((e: unknown) => {
          logger.error({ err: e }, 'job failure listener failed');
        });
      }
    })();
    this.running.add(work);
    try {
      await work;
    } finally {
      this.running.delete(work);
    }
    return true;
  }

  /**
   * Each job's current run, one after the other in the order registered, as if each job's timer
   * fired now (after a movable clock moved): the names of those this node ran.
   */
  async tickAll(): Promise<string[]> {
    const ran: string[] = [];
    for (const name of this.jobs.keys()) if (await this.tick(name)) ran.push(name);
    return ran;
  }

  /** Runs whose node stopped renewing them: still marked running after their lease ran out. */
  stalled(): ReturnType<typeof stalledRuns> {
    return stalledRuns(this.db);
  }

  /** Stops scheduling and waits for runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.allSettled([...this.running]);
  }
}
