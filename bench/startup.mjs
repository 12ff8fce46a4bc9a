// Cold start of the server process: time from spawn to /readyz answering ready, on a fresh data
// folder (PGlite created, migrations and seed applied) and again on the same folder (warm data),
// with the embedded chain (the default: anvil started, the test token deployed on a fresh folder)
// and, as the peer in the same run, without one (CHAIN=off); and on a new PostgreSQL database (as the
// integration and browser tests' servers run; BENCH_POSTGRES_URL, default the local server; left out
// when none answers). Beside each time, the CPU the server
// process had spent when it answered ready (all its threads, and its main thread alone: the rest
// is V8's helper threads compiling and collecting), read from /proc.
// Usage: node bench/startup.mjs [runs]   (run under Node 24; npm test or npm start installs it)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

const root = resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 3);

/** CPU milliseconds (user + system) of a process: all its threads, and its main thread alone. */
function cpuOf(pid) {
  const ms = (path) => {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime and stime, in ticks of 10 ms
  };
  return { all: ms(`/proc/${pid}/stat`), main: ms(`/proc/${pid}/task/${pid}/stat`) };
}

async function startOnce(dataDir, extraEnv) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(root, 'apps/server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JOBS: 'off',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const port = await new Promise((done) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /localhost:(\d+)\//.exec(out);
      if (match) done(Number(match[1]));
    });
  });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - t0;
  const cpu = cpuOf(child.pid);
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  return { ms, cpu };
}

const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement on the PostgreSQL server's maintenance database. */
async function admin(sql) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL database for a data folder's starts; null when no server answers. */
async function newDatabase() {
  const name = `swx_bench_${randomBytes(6).toString('hex')}`;
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch {
    return null;
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const variants = [
  { name: 'embedded chain (default)', env: {} },
  { name: 'no chain (CHAIN=off)', env: { CHAIN: 'off' } },
  { name: 'PostgreSQL, no chain (CHAIN=off)', env: { CHAIN: 'off' }, postgres: true },
];
const results = variants.map(() => ({ fresh: [], warm: [] }));
for (let i = 0; i < runs; i++) {
  // Interleaved, so that both see the same machine load.
  for (const [v, variant] of variants.entries()) {
    const database = variant.postgres ? await newDatabase() : null;
    if (variant.postgres && !database) continue;
    // Nodes on PostgreSQL take their master key from the environment, as a cluster's nodes do.
    const env = database
      ? { ...variant.env, DATABASE_URL: database.url, MASTER_KEY: randomBytes(32).toString('hex') }
      : variant.env;
    const dir = mkdtempSync(join(tmpdir(), 'swx-bench-'));
    results[v].fresh.push(await startOnce(dir, env));
    results[v].warm.push(await startOnce(dir, env));
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const list = (xs) => `[${xs.map((x) => x.toFixed(0)).join(', ')}]`;
const line = (starts) => {
  const ms = starts.map((s) => s.ms);
  const all = starts.map((s) => s.cpu.all);
  const main = starts.map((s) => s.cpu.main);
  return `median ${median(ms).toFixed(0)} ms  ${list(ms)}; CPU at ready median ${median(all).toFixed(0)} ms ${list(all)}, main thread ${median(main).toFixed(0)} ms`;
};
console.log(`server cold start, ${runs} runs (Node ${process.versions.node}):`);
for (const [v, variant] of variants.entries()) {
  const { fresh, warm } = results[v];
  if (fresh.length === 0) {
    console.log(`  ${variant.name}: not measured (no PostgreSQL at ${postgresUrl})`);
    continue;
  }
  const where = variant.postgres ? 'database' : 'data folder';
  console.log(`  ${variant.name}${variant.postgres ? '' : ', PGlite'}`);
  console.log(`    fresh ${where} (create, migrate, seed): ${line(fresh)}`);
  console.log(`    existing ${where}:${' '.repeat(variant.postgres ? 22 : 19)}${line(warm)}`);
}
