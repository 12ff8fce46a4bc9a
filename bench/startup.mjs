// Cold start of the server process: time from spawn to /readyz answering ready, on a fresh data
// folder (PGlite created, migrations and seed applied) and again on the same folder (warm data),
// with the embedded chain (the default: anvil started, the test token deployed on a fresh folder)
// and, as the peer in the same run, without one (CHAIN=off). Beside each time, the CPU the server
// process had spent when it answered ready (all its threads, and its main thread alone: the rest
// is V8's helper threads compiling and collecting), read from /proc.
// Usage: node bench/startup.mjs [runs]   (run under Node 24; npm test or npm start installs it)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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

const variants = [
  { name: 'embedded chain (default)', env: {} },
  { name: 'no chain (CHAIN=off)', env: { CHAIN: 'off' } },
];
const results = variants.map(() => ({ fresh: [], warm: [] }));
for (let i = 0; i < runs; i++) {
  // Interleaved, so that both see the same machine load.
  for (const [v, variant] of variants.entries()) {
    const dir = mkdtempSync(join(tmpdir(), 'swx-bench-'));
    results[v].fresh.push(await startOnce(dir, variant.env));
    results[v].warm.push(await startOnce(dir, variant.env));
    rmSync(dir, { recursive: true, force: true });
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
console.log(`server cold start, ${runs} runs (Node ${process.versions.node}, PGlite):`);
for (const [v, variant] of variants.entries()) {
  const { fresh, warm } = results[v];
  console.log(`  ${variant.name}`);
  console.log(`    fresh data folder (create, migrate, seed): ${line(fresh)}`);
  console.log(`    existing data folder:                      ${line(warm)}`);
}
