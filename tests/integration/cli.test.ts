import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPostgresDatabase } from '../support/db.ts';
import { ROOT, type RunningServer, runCli, startServer } from '../support/server.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';

/** Runs `cli.ts <args>` as the operator does, against a data folder. */
const cli = runCli;

// Server starts are slow on a loaded machine: one server for the file, generous hook and test limits.
const SLOW = 240_000;

describe('operator commands before and beside a server on the embedded database', { timeout: SLOW }, () => {
  let server: RunningServer;
  let dataDir: string;
  let beforePassword: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'swx-it-cli-'));
    // No server yet: the command takes the folder's lock and runs itself.
    beforePassword = createStaffByCli(dataDir, 'before@swx.test', 'finance');
    server = await startServer({ FEED: 'off' }, { dataDir, startTimeoutMs: SLOW / 2 });
  }, SLOW);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a command run before the server started wrote to the folder the server opened', async () => {
    await enrolStaffByApi(server.baseUrl, 'before@swx.test', beforePassword);
  });

  it('staff:create while the server runs: the server itself has the account', async () => {
    const oneTimePassword = createStaffByCli(dataDir, 'running@swx.test', 'admin');
    // The running server accepts the one-time password printed by the command: the write reached it.
    const enrolled = await enrolStaffByApi(server.baseUrl, 'running@swx.test', oneTimePassword);
    expect(enrolled.token).toMatch(/\S{20,}/);
    // A second create of the same address is refused by the server, with the CLI's exit code.
    const again = cli(dataDir, 'staff:create', '--email', 'running@swx.test', '--role', 'admin');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('A staff account for running@swx.test exists already.');
  });

  // Right after the sign-ins above: a keep-alive connection idle for over a minute may be closed by
  // the server just as it is reused, which is not what this file tests.
  it('a second server on the same folder refuses to start, and the first keeps working', async () => {
    const second = spawnSync(process.execPath, [join(ROOT, 'apps', 'server', 'src', 'main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        FEED: 'off',
      },
      encoding: 'utf8',
      timeout: SLOW,
    });
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`The data folder ${dataDir} is in use by the SWX server`);
    const password = createStaffByCli(dataDir, 'after-second@swx.test', 'support');
    await enrolStaffByApi(server.baseUrl, 'after-second@swx.test', password);
  });

  it('reconcile and audit:verify run in the server and stream its answer back', () => {
    const verify = cli(dataDir, 'audit:verify');
    expect(verify.status).toBe(0);
    // The staff creation and sign-ins above are in the chain the server holds.
    const rows = Number(/Audit chain intact: (\d+) rows\./.exec(verify.stdout)?.[1]);
    expect(rows).toBeGreaterThanOrEqual(2);
    const reconcile = cli(dataDir, 'reconcile');
    expect(reconcile.status).toBe(0);
    expect(reconcile.stdout).toContain('every balance matches its postings');
    const usage = cli(dataDir, 'staff:create', '--email', 'x@swx.test', '--role', 'owner');
    expect(usage.status).toBe(2);
  });

  it('refuses to move the clock of a server on the system clock', () => {
    const moved = cli(dataDir, 'clock:advance', '--by', '1d');
    expect(moved.status).toBe(1);
    expect(moved.stderr).toContain("Refused: this server's clock is the system's");
    expect(cli(dataDir, 'clock:advance', '--by', 'tomorrow').status).toBe(2);
  });

  it('serves its control socket to the owner only, and a file-only command needs no server', () => {
    expect(statSync(join(dataDir, 'control.sock')).mode & 0o777).toBe(0o600);
    const outbox = cli(dataDir, 'outbox');
    expect(outbox.status).toBe(0);
  });
});

describe('operator commands with no server running', { timeout: SLOW }, () => {
  it('refuse a folder another operator command holds, and never open it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'swx-it-cli3-'));
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeFileSync(
        join(dataDir, 'swx.lock'),
        JSON.stringify({ pid: holder.pid, role: 'cli', startedAt: '2026-01-01T00:00:00.000Z' }),
      );
      const refused = cli(dataDir, 'staff:create', '--email', 'late@swx.test', '--role', 'admin');
      expect(refused.status).toBe(3);
      expect(refused.stderr).toContain(`is in use by an operator command (process ${holder.pid}`);
      expect(refused.stdout).not.toContain('One-time password');
      // It did not create the database folder beside the holder.
      expect(() => statSync(join(dataDir, 'pglite'))).toThrow();
    } finally {
      holder.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('operator commands beside a server on PostgreSQL', { timeout: SLOW }, () => {
  let server: RunningServer;
  let database: Awaited<ReturnType<typeof newPostgresDatabase>>;
  let other: Awaited<ReturnType<typeof newPostgresDatabase>>;

  beforeAll(async () => {
    [database, other] = await Promise.all([newPostgresDatabase(), newPostgresDatabase()]);
    server = await startServer(
      { DATABASE_URL: database.url, FEED: 'off', SWX_CLOCK: 'movable' },
      { startTimeoutMs: SLOW / 2 },
    );
  }, SLOW);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    await other?.drop();
  });

  it('runs in the server holding the folder: the movable clock, which lives only there, moves', () => {
    const before = Date.now();
    const moved = cli(server, 'clock:advance', '--by', '2d');
    expect(moved.stderr).toBe('');
    expect(moved.status).toBe(0);
    const at = Date.parse(/The clock reads (\S+)\./.exec(moved.stdout)?.[1] ?? '');
    expect(at - before).toBeGreaterThanOrEqual(2 * 86_400_000);
    // staff:create in the server: the server has the account at once.
    const created = cli(server, 'staff:create', '--email', 'pg@swx.test', '--role', 'support');
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/One-time password: \S+/);
    expect(statSync(join(server.dataDir, 'control.sock')).mode & 0o777).toBe(0o600);
  });

  it('a command for another database runs where it was typed, and one naming none is told which', () => {
    // Another database than the server's: the command opens it itself. The account the server
    // already has (above) is new there.
    const elsewhere = cli(
      { operatorEnv: { DATA_DIR: server.dataDir, DATABASE_URL: other.url } },
      'staff:create',
      '--email',
      'pg@swx.test',
      '--role',
      'support',
    );
    expect(elsewhere.stderr).toBe('');
    expect(elsewhere.status).toBe(0);
    const again = cli(server, 'staff:create', '--email', 'pg@swx.test', '--role', 'support');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('A staff account for pg@swx.test exists already.');
    // No DATABASE_URL: the folder's own database, which the server on PostgreSQL does not use.
    const none = cli(server.dataDir, 'reconcile');
    expect(none.status).toBe(3);
    expect(none.stderr).toContain(
      `runs on the database 127.0.0.1:5432/${new URL(database.url).pathname.slice(1)}`,
    );
    expect(none.stdout).toBe('');
  });
});
