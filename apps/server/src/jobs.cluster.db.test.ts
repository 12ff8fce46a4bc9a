import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../tests/support/db.ts';
import { createServices } from './app.ts';
import { MODULES } from './modules.ts';
import { createBus } from './platform/bus.ts';
import { loadConfig } from './platform/config.ts';
import { type Job, JobRunner } from './platform/jobs.ts';
import { platformKeys } from './platform/keys.ts';
import { createLogger } from './platform/logger.ts';
import { createMailer } from './platform/mail.ts';
import type { Platform } from './platform/module.ts';
import { createMemoryRateLimiter } from './platform/ratelimit.ts';
import { createSmsSender } from './platform/sms.ts';
import { FileStorage } from './platform/storage.ts';

/** The master key the nodes share, as a cluster's nodes must. */
const MASTER_KEY = randomBytes(32).toString('hex');

type Node = { name: string; runner: JobRunner; jobs: Job[]; ran: string[] };

/** One node's platform on the shared database: its own folder, bus, mailer and keys, as a process has. */
async function nodePlatform(db: TestDatabase['db'], name: string, dataDir: string): Promise<Platform> {
  const config = loadConfig({
    NODE_ID: name,
    DATA_DIR: dataDir,
    MASTER_KEY,
    CHAIN: 'off',
    FEED: 'off',
    JOBS: 'off',
  });
  const logger = createLogger({ logLevel: 'silent', nodeId: name });
  return {
    config,
    logger,
    db,
    bus: await createBus(undefined, logger),
    mailer: createMailer({ from: config.mailFrom, dataDir, logger }),
    sms: createSmsSender({ url: undefined, token: undefined, dataDir, logger }),
    storage: new FileStorage(dataDir),
    rateLimiter: createMemoryRateLimiter(),
    redis: null,
    chain: null,
    keys: platformKeys(config),
  };
}

/**
 * Every job the server registers (main.ts: each module's `jobs`), on two nodes sharing one
 * database: at the same moment both nodes tick it, and its run happens on exactly one of them;
 * ticked again, on neither. What each job does is replaced by a counter (its own work is each
 * module's tests'); what is proved is that every job goes through the runner's claim under a run
 * key both nodes compute alike.
 */
describe(`every job on two nodes sharing ${TEST_DB}`, () => {
  let t: TestDatabase;
  let folder: string;
  const nodes: Node[] = [];
  beforeAll(async () => {
    t = await openTestDatabase();
    folder = mkdtempSync(join(tmpdir(), 'swx-jobs-cluster-'));
    for (const name of ['node-a', 'node-b']) {
      const platform = await nodePlatform(t.db, name, join(folder, name));
      const services = createServices(platform);
      const runner = new JobRunner(t.db, name, platform.logger, services.clock.now);
      const ran: string[] = [];
      const jobs = MODULES.flatMap((module) => module.jobs?.(services, platform, runner) ?? []);
      for (const job of jobs)
        runner.register({
          ...job,
          run: async () => {
            ran.push(job.name);
            // Long enough that the other node's claim meets this run still under way.
            await new Promise((resolve) => setTimeout(resolve, 20));
          },
        });
      nodes.push({ name, runner, jobs, ran });
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('registers the same jobs on every node, each with a run key both compute alike', () => {
    const [a, b] = nodes as [Node, Node];
    expect(a.jobs.length).toBeGreaterThan(10);
    expect(b.jobs.map((j) => j.name)).toEqual(a.jobs.map((j) => j.name));
    const moment = new Date('2027-03-04T05:06:07.000Z');
    for (const [i, job] of a.jobs.entries())
      expect(b.jobs[i]?.runKey(moment), job.name).toBe(job.runKey(moment));
  });

  it('runs each job once across the two nodes when both tick it at the same moment', async () => {
    const [a, b] = nodes as [Node, Node];
    const moment = new Date('2027-03-04T05:06:07.000Z');
    for (const job of a.jobs) {
      const took = await Promise.all([a.runner.tick(job.name, moment), b.runner.tick(job.name, moment)]);
      expect(took.filter(Boolean), job.name).toHaveLength(1);
      const again = await Promise.all([a.runner.tick(job.name, moment), b.runner.tick(job.name, moment)]);
      expect(again, job.name).toEqual([false, false]);
    }
    const ranAnywhere = [...a.ran, ...b.ran].sort();
    expect(ranAnywhere).toEqual(a.jobs.map((j) => j.name).sort());
  });
});
