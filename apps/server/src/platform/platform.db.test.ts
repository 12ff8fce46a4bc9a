import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../tests/support/db.ts';
import { listRuns } from './jobs.repository.ts';
import { JobRunner } from './jobs.ts';
import { createLogger } from './logger.ts';
import { migrate, pendingMigrations, readMigrations } from './migrate.ts';

const logger = createLogger({ logLevel: 'silent', nodeId: 'test' });

describe(`migrations on ${TEST_DB}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase({ migrated: false });
  });
  afterAll(() => t.close());

  it('apply every checked-in migration once, then nothing', async () => {
    expect(await pendingMigrations(t.db)).toEqual(readMigrations().map((m) => m.version));
    const [first, second] = await Promise.all([migrate(t.db), migrate(t.db)]);
    // Two nodes starting together: one applies, the other finds nothing left to do.
    expect([...(first ?? []), ...(second ?? [])].sort()).toEqual(
      readMigrations()
        .map((m) => m.version)
        .sort(),
    );
    expect(await migrate(t.db)).toEqual([]);
    expect(await pendingMigrations(t.db)).toEqual([]);
  });

  it('roll back a failing migration whole', async () => {
    const bad = [{ version: '9999_bad', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();' }];
    await expect(migrate(t.db, [...readMigrations(), ...bad])).rejects.toThrow();
    const rows = await t.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_tables WHERE tablename = 'half_done'",
    );
    expect(rows[0]?.n).toBe('0');
    expect(await pendingMigrations(t.db, [...readMigrations(), ...bad])).toEqual(['9999_bad']);
  });
});

describe(`job runner on ${TEST_DB}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase();
  });
  afterAll(() => t.close());

  it('runs a job once per run key across several nodes', async () => {
    let runs = 0;
    const job = {
      name: 'count-once',
      everyMs: 60_000,
      runKey: () => '2026-11-22',
      run: async () => {
        runs += 1;
        await new Promise((r) => setTimeout(r, 20));
      },
    };
    const nodes = ['a', 'b', 'c', 'd'].map((node) => {
      const runner = new JobRunner(t.db, node, logger);
      runner.register(job);
      return runner;
    });
    const ran = await Promise.all(nodes.map((runner) => runner.tick('count-once')));
    expect(runs).toBe(1);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(await Promise.all(nodes.map((runner) => runner.tick('count-once')))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    const [row] = await listRuns(t.db, 'count-once', 5);
    expect(row?.status).toBe('done');
  });

  it('retries a failed run up to its attempts, then stops', async () => {
    let calls = 0;
    const runner = new JobRunner(t.db, 'a', logger);
    runner.register({
      name: 'always-fails',
      everyMs: 60_000,
      runKey: () => 'k1',
      maxAttempts: 2,
      run: async () => {
        calls += 1;
        throw new Error('reserve unavailable');
      },
    });
    expect(await runner.tick('always-fails')).toBe(true);
    expect(await runner.tick('always-fails')).toBe(true);
    expect(await runner.tick('always-fails')).toBe(false);
    expect(calls).toBe(2);
    const [row] = await listRuns(t.db, 'always-fails', 5);
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(row?.error).toMatch(/reserve unavailable/);
  });

  it('lets another node take over a run whose node died (lease expired)', async () => {
    let runs = 0;
    const make = (node: string, leaseMs: number) => {
      const runner = new JobRunner(t.db, node, logger);
      runner.register({
        name: 'takeover',
        everyMs: 60_000,
        runKey: () => 'k',
        leaseMs,
        run: async () => {
          runs += 1;
        },
      });
      return runner;
    };
    // Node "dead" claims the run and never finishes: simulate with a claim row whose lease has passed.
    await t.db.query(
      "INSERT INTO job_runs (job, run_key, status, node, lease_until) VALUES ('takeover', 'k', 'running', 'dead', now() - interval '1 second')",
    );
    expect(await make('alive', 60_000).tick('takeover')).toBe(true);
    expect(runs).toBe(1);
    const [row] = await listRuns(t.db, 'takeover', 5);
    expect(row).toMatchObject({ status: 'done', node: 'alive', attempts: 2 });
  });
});
