import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { copyPgliteTemplate } from './templates.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** The master key of the servers a test process starts on one database: random per process. */
const CLUSTER_MASTER_KEY = randomBytes(32).toString('hex');

export type RunningServer = {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** What an operator command names to reach this server: DATA_DIR, and DATABASE_URL when it has one. */
  operatorEnv: Record<string, string>;
  process: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  /**
   * The client address this file's calls present (X-Forwarded-For) on a server shared by the
   * worker's files (support/integration.ts); absent on a file's own server (127.0.0.1).
   */
  clientAddress?: string;
};

/**
 * Starts the real server process (apps/server/src/main.ts on Node 24) on a free port with its own
 * data folder, and waits until /readyz answers ready. Without a chain (CHAIN=off) unless `env`
 * names one: `{ CHAIN: 'embedded' }`, or a shared development chain's `chain.env` (support/chain.ts).
 */
export async function startServer(
  env: Record<string, string> = {},
  /** startTimeoutMs: how long to wait for it to listen (110 s: a budget that holds on a busy two-core machine). */
  options: { keepData?: boolean; dataDir?: string; startTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'swx-it-'));
  if (!env.DATABASE_URL) withMigratedPglite(dataDir);
  const child = spawn(process.execPath, [join(ROOT, 'apps', 'server', 'src', 'main.ts')], {
    cwd: ROOT,
    env: serverEnv(env, dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  // TEST_SERVER_START_MS raises every start's limit on a busy machine.
  const limit = options.startTimeoutMs ?? (Number(process.env.TEST_SERVER_START_MS) || 110_000);
  const port = await listeningPort(child, () => output, exited, limit);
  const baseUrl = `http://127.0.0.1:${port}`;
  await untilReady(baseUrl);
  return {
    baseUrl,
    port,
    dataDir,
    operatorEnv: { DATA_DIR: dataDir, ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}) },
    process: child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      if (!options.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** The environment of a test server: the runner's, a loopback address, and the test's `env` over it. */
function serverEnv(env: Record<string, string>, dataDir: string): NodeJS.ProcessEnv {
  // Not the runner's NODE_ENV (vitest names 'test'): a test server runs as `npm start` runs it.
  const { NODE_ENV: _runners, ...runner } = process.env;
  return {
    ...runner,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Every customer of a test file comes from the one loopback address, so the per-address API
    // allowance (600 a minute) is raised here; api.test.ts tests the allowance with its own value.
    API_RATE_LIMIT: '20000',
    // A test run killed midway leaves no server behind (it would share Redis and PostgreSQL with
    // the next run's servers).
    EXIT_WITH_PARENT: 'on',
    // No chain unless the test names one (CHAIN, CHAIN_DEV_RPC_URL, …): hundreds of server starts
    // would otherwise each start an anvil. tests/support/chain.ts starts one to share.
    ...(Object.keys(env).some((name) => name.startsWith('CHAIN') || name.startsWith('EVM_'))
      ? {}
      : { CHAIN: 'off' }),
    // Nodes sharing a database share one master key, as a cluster's nodes must (README); a
    // node on its own folder's PGlite makes its own sandbox key there.
    ...(env.DATABASE_URL ? { MASTER_KEY: CLUSTER_MASTER_KEY } : {}),
    ...env,
  };
}

/**
 * The port a starting server listens on, read off its output; fails when it exits first or has not
 * started in `limit` ms.
 */
function listeningPort(
  child: ChildProcess,
  output: () => string,
  exited: Promise<number | null>,
  limit: number,
): Promise<number> {
  return new Promise<number>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`server did not start in ${limit / 1000} s:\n${output()}`)),
      limit,
    );
    const look = () => {
      const match = /Customer app\s+http:\/\/localhost:(\d+)\//.exec(output());
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    };
    child.stdout?.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before listening:\n${output()}`));
    });
  });
}

/** Waits until the server's /readyz answers ready (100 tries, 100 ms apart). */
async function untilReady(baseUrl: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ready = await fetch(`${baseUrl}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A data folder with no database yet gets the suite's migrated PGlite (support/templates.ts): the
 * same database a first start makes, without initdb and every migration in each server start.
 */
export function withMigratedPglite(dataDir: string): void {
  if (!existsSync(join(dataDir, 'pglite'))) copyPgliteTemplate(dataDir);
}

/** GET or POST a /swx call and return status, headers and the parsed envelope. */
export async function api(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Headers; body: { code: number; msg: string; data: unknown } }> {
  const response = await fetch(baseUrl + path, init);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { code: number; msg: string; data: unknown },
  };
}

/** The id of a crypto instrument the server lists (type 2); fails the setup when it is not listed. */
export async function listedCryptoId(baseUrl: string, code: string): Promise<number> {
  const list = (await (await fetch(`${baseUrl}/swx/customer/index/listMarketByType?type=2`)).json()) as {
    data: { id: number; code: string }[];
  };
  const item = list.data.find((entry) => entry.code === code);
  if (!item) throw new Error(`${code} is not listed`);
  return item.id;
}

/**
 * Runs an operator command (`cli.ts <args>`) against a data folder, or the server running on one
 * (its folder and database), as the operator does: while a server holds the folder, the command
 * runs inside it through its control socket.
 */
export function runCli(
  target: string | Pick<RunningServer, 'operatorEnv'>,
  ...args: string[]
): { status: number | null; stdout: string; stderr: string } {
  const operatorEnv = typeof target === 'string' ? { DATA_DIR: target } : target.operatorEnv;
  const result = spawnSync(process.execPath, [join(ROOT, 'apps', 'server', 'src', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...operatorEnv, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Moves a sandbox server's clock forward (`npm run clock:advance -- --by <by>`; the server started
 * with `SWX_CLOCK=movable`) and runs its jobs at the new time: what that time brings is done when
 * this resolves. Answers the server's new time (epoch ms). The command runs beside the test, never
 * blocking it: a job may mail the test's own SMTP receiver (a failed job's staff alert), which must
 * answer meanwhile.
 */
export async function advanceClock(server: RunningServer, by: string): Promise<number> {
  const ran = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'apps', 'server', 'src', 'cli.ts'), 'clock:advance', '--by', by],
      { cwd: ROOT, env: { ...process.env, ...server.operatorEnv, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
      (error, stdout, stderr) =>
        done({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
  if (ran.status !== 0) throw new Error(`clock:advance --by ${by} failed (${ran.status}): ${ran.stderr}`);
  const at = /The clock reads (\S+)\./.exec(ran.stdout)?.[1];
  if (!at) throw new Error(`clock:advance said: ${ran.stdout}`);
  return Date.parse(at);
}
