// `npm test`: every stage, each reported. Two stages that use little of the machine go side by
// side first (typecheck, lint and unit tests beside the apps' build); then the database tests on
// PGlite, which keep both cores busy, alone; then the browser tests in Debian's Chromium at a
// desktop and a mobile viewport (two files at a time) beside a lane of one file at a time: the
// integration tests against real server processes, then the database tests on PostgreSQL. The
// browser tests alone left about a sixth of the machine idle; heavy stages each at full width
// side by side (four files on two cores) took four to six times their time alone, and their
// servers missed their start budgets.
// A failed stage does not stop the others (a stage that needs the build is reported as not run
// when the build failed); the run exits non-zero when any failed, and ends with the line
// `N passed, N failed, N skipped`. Each stage's output goes to test-results/<stage>.log and is
// printed when the stage ends; test-results/timings.json keeps each stage's files and seconds.
//
// `npm run test:quick` (`--quick`): the inner loop: typecheck, lint, unit tests, the database
// tests on PGlite, and the integration and browser tests related to uncommitted changes.
// `npm run test:long` (`--long`): the long runs at their full length (a year of settlement,
// 400 days of earn) on both databases.
//
// It installs or starts what it needs (Chromium, PostgreSQL, Redis) when it can, and says exactly
// what to install when it cannot.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BUDGET_BYTES, homeInitialJs } from './budget.mjs';
import { bin, root } from './lib.mjs';

const started = Date.now();
// V8's compiled code of every Node process the run starts (tsc, vitest, each test server and
// operator command), kept on disk between them: a server start spends about a second less.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'swx-node-compile-cache');
const mode = process.argv.includes('--quick') ? 'quick' : process.argv.includes('--long') ? 'long' : 'full';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const reports = join(root, 'test-results');
mkdirSync(reports, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
/** @type {{ stage: string, ok: boolean, ran: boolean, seconds: number, files: number, passed: number, failed: number, skipped: number, note?: string }[]} */
const results = [];

function sh(command) {
  return spawnSync('sh', ['-c', command], { stdio: 'inherit' }).status === 0;
}

function canConnect(port, host = '127.0.0.1') {
  const probe = spawnSync(process.execPath, [
    '-e',
    `const s=require('node:net').createConnection(${port},'${host}');s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));setTimeout(()=>process.exit(1),2000)`,
  ]);
  return probe.status === 0;
}

let aptUpdated = false;
function aptInstall(...packages) {
  if (!isRoot) return false;
  if (!aptUpdated) {
    sh('DEBIAN_FRONTEND=noninteractive apt-get update -qq');
    aptUpdated = true;
  }
  return sh(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')} > /dev/null`);
}

/** Set-up that cannot go on (no database, no browser): said, and the run stops. */
function cannot(message) {
  console.error(`\n✗ ${message}`);
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(1);
}

function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return;
  console.log('Chromium is missing; installing Debian’s chromium package');
  if (!aptInstall('chromium') || !existsSync(path)) {
    cannot(
      'Chromium is needed for the browser tests. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH)',
    );
  }
}

function ensurePostgres() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const url = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (canConnect(5432)) return url;
  const startCluster = () => {
    const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
    for (const version of versions) sh(`pg_ctlcluster --skip-systemctl-redirect ${version} main start`);
    for (let i = 0; i < 50 && !canConnect(5432); i++) spawnSync('sleep', ['0.2']);
  };
  if (existsSync('/usr/bin/pg_ctlcluster')) startCluster();
  if (!canConnect(5432)) {
    console.log('PostgreSQL is not installed; installing Debian’s postgresql package');
    if (aptInstall('postgresql')) {
      startCluster();
      // A fresh Debian cluster wants a password over TCP; give the test role one it knows.
      sh(`su postgres -c "psql -qc \\"ALTER USER postgres PASSWORD 'postgres'\\""`);
      if (canConnect(5432)) return 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
    }
    cannot(
      'PostgreSQL is needed for the database tests: set DATABASE_URL, or install it (sudo apt-get install -y postgresql) and start it',
    );
  }
  return url;
}

function ensureRedis() {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  const url = 'redis://127.0.0.1:6379';
  if (canConnect(6379)) return url;
  const start = () => {
    sh('redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no > /dev/null');
    for (let i = 0; i < 50 && !canConnect(6379); i++) spawnSync('sleep', ['0.1']);
  };
  if (existsSync('/usr/bin/redis-server')) start();
  if (!canConnect(6379)) {
    console.log('Redis is not installed; installing Debian’s redis-server package');
    if (aptInstall('redis-server')) start();
  }
  if (!canConnect(6379))
    cannot(
      'Redis is needed for the multi-node tests: set REDIS_URL, or install it (sudo apt-get install -y redis-server)',
    );
  return url;
}

/** Runs a command with its output in test-results/<label>.log; resolves to its exit code. */
function runLogged(label, cmd, args, env = {}) {
  const log = createWriteStream(join(reports, `${label}.log`));
  return new Promise((done) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', (error) => {
      log.write(`${error.stack ?? error}\n`);
    });
    child.on('close', (code) => log.end(() => done(code ?? 1)));
  });
}

/**
 * One stage: its work answers `{ ok, files?, counts? }`; the time, the outcome and the log are
 * recorded and printed when it ends.
 */
async function stage(name, label, work) {
  const t0 = Date.now();
  console.log(`▶ ${name} (started at ${((t0 - started) / 1000).toFixed(0)} s)`);
  let outcome;
  try {
    outcome = await work();
  } catch (error) {
    outcome = { ok: false, note: String(error?.stack ?? error) };
  }
  const seconds = (Date.now() - t0) / 1000;
  const counts = outcome.counts ?? { passed: 0, failed: 0, skipped: 0 };
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  const result = { stage: name, ok: outcome.ok, ran: true, seconds, files: outcome.files ?? 0, ...counts };
  if (outcome.note) result.note = outcome.note;
  results.push(result);
  const logPath = join(reports, `${label}.log`);
  const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
  console.log(`\n━━ ${outcome.ok ? '✓' : '✗'} ${name}: ${seconds.toFixed(1)} s ━━`);
  if (log.trim()) console.log(log.trimEnd());
  if (outcome.note) console.log(outcome.note);
  return outcome.ok;
}

function notRun(name, why) {
  results.push({
    stage: name,
    ok: false,
    ran: false,
    seconds: 0,
    files: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    note: why,
  });
  console.log(`\n━━ ✗ ${name}: not run (${why}) ━━`);
  return false;
}

/** A vitest project as one stage; its counts come from its JSON report. */
function vitest(name, label, project, env = {}, extra = []) {
  return stage(name, label, async () => {
    const output = join(reports, `${label}.json`);
    const code = await runLogged(
      label,
      process.execPath,
      [
        join(root, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--project',
        project,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${output}`,
        ...extra,
      ],
      env,
    );
    if (!existsSync(output)) return { ok: false, note: `${name}: no report was written (exit ${code})` };
    const report = JSON.parse(readFileSync(output, 'utf8'));
    const counts = {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + (report.numTodoTests ?? 0),
    };
    const files = report.testResults.length;
    if (report.numTotalTests === 0 && !extra.includes('--passWithNoTests'))
      return { ok: false, files, counts, note: `${name}: no test ran` };
    if (counts.failed > 0) {
      const failures = report.testResults.flatMap((file) =>
        file.assertionResults
          .filter((t) => t.status === 'failed')
          .map(
            (t) =>
              `  ${relative(root, file.name)} › ${t.fullName}\n    ${String(t.failureMessages?.[0] ?? '')
                .split('\n')
                .slice(0, 6)
                .join('\n    ')}`,
          ),
      );
      return {
        ok: false,
        files,
        counts,
        note: `${name}: ${counts.failed} failed:\n${failures.slice(0, 15).join('\n')}`,
      };
    }
    if (code !== 0)
      return {
        ok: false,
        files,
        counts,
        note: `${name}: vitest exited ${code} with no failed test:\n${whyExited(label)}`,
      };
    return { ok: code === 0 && counts.failed === 0, files, counts };
  });
}

/**
 * What made vitest exit non-zero when no test failed (an unhandled error, a worker that died, a
 * file that did not load): the lines of its log around the words it uses for them, at most 60,
 * so the end of the run's output (all a CI page may keep) says it.
 */
function whyExited(label) {
  const logPath = join(reports, `${label}.log`);
  if (!existsSync(logPath)) return '(no log)';
  const lines = readFileSync(logPath, 'utf8').split('\n');
  const unhandled = lines.findIndex((line) => /Unhandled (Error|Rejection)/.test(line));
  if (unhandled >= 0) return lines.slice(unhandled, unhandled + 60).join('\n');
  const marks = /Unhandled|Error:|error:|Worker exited|Failed to|Timeout|timed out|ECONNREFUSED|⎯⎯/;
  const picked = new Set();
  lines.forEach((line, i) => {
    if (marks.test(line))
      for (let j = Math.max(0, i - 2); j <= Math.min(lines.length - 1, i + 6); j++) picked.add(j);
  });
  const out = [...picked].sort((a, b) => a - b).map((i) => lines[i]);
  return (out.length ? out : lines.slice(-30)).slice(0, 60).join('\n');
}

function command(name, label, cmd, args, fix) {
  return stage(name, label, async () => {
    const code = await runLogged(label, cmd, args);
    return code === 0 ? { ok: true } : { ok: false, note: fix };
  });
}

async function typecheck() {
  return stage('typecheck', 'typecheck', async () => {
    for (const project of ['packages/contract', 'apps/server', 'apps/web', 'apps/admin', 'tests']) {
      const code = await runLogged(`typecheck-${project.replace('/', '-')}`, bin('tsc'), ['-p', project]);
      if (code !== 0) {
        const log = readFileSync(join(reports, `typecheck-${project.replace('/', '-')}.log`), 'utf8');
        return { ok: false, note: `typecheck of ${project} failed:\n${log}` };
      }
    }
    return { ok: true };
  });
}

function lint() {
  return command(
    'lint and format',
    'lint',
    bin('biome'),
    ['check', '--error-on-warnings', '.'],
    'lint found problems (npm run format fixes formatting)',
  );
}

async function build() {
  return stage('build and JS budget', 'build', async () => {
    const code = await runLogged('build', process.execPath, [join(root, 'scripts', 'build.mjs')]);
    if (code !== 0) return { ok: false, note: 'the build failed' };
    const result = homeInitialJs();
    const line = `home route initial JS: ${(result.gzip / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)`;
    if (result.gzip > BUDGET_BYTES) return { ok: false, note: `${line}: over budget` };
    if (result.withSchemas.length > 0)
      return {
        ok: false,
        note: `the app builds the contract's schemas as it starts (${result.withSchemas.join(', ')})`,
      };
    return { ok: true, note: line };
  });
}

function summary() {
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(
    join(reports, 'timings.json'),
    `${JSON.stringify({ mode, seconds: Math.round(seconds * 10) / 10, stages: results.map((r) => ({ ...r, seconds: Math.round(r.seconds * 10) / 10 })) }, null, 2)}\n`,
  );
  console.log('\nStage timings (test-results/timings.json):');
  for (const r of results)
    console.log(
      `  ${r.ok ? '✓' : '✗'} ${r.stage.padEnd(28)} ${r.ran ? `${r.seconds.toFixed(1).padStart(7)} s` : '  not run'}${r.files ? `  ${r.files} files` : ''}`,
    );
  console.log(`  ${'  total'.padEnd(30)} ${seconds.toFixed(1).padStart(7)} s`);
  const failedStages = results.filter((r) => !r.ok).map((r) => r.stage);
  if (failedStages.length) {
    // Why each failed, again at the end: a CI page may keep only the last lines of the output.
    for (const r of results.filter((x) => !x.ok && x.note)) console.log(`\n✗ ${r.stage}:\n${r.note}`);
    console.log(`\n✗ failed: ${failedStages.join(', ')}`);
  }
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return failedStages.length === 0;
}

ensureChromium();
const postgresUrl = ensurePostgres();
const redisUrl = ensureRedis();
const services = { TEST_DATABASE_URL: postgresUrl, TEST_REDIS_URL: redisUrl };

let done;
if (mode === 'long') {
  const long = [
    'apps/server/src/modules/products/settlement.year.db.test.ts',
    'apps/server/src/modules/earn/earn.db.test.ts',
  ];
  done = Promise.all([
    vitest('long runs (PGlite)', 'long-pglite', 'db', { TEST_DB: 'pglite', TEST_FULL_LENGTH: '1' }, long),
    vitest(
      'long runs (PostgreSQL)',
      'long-postgres',
      'db',
      { TEST_DB: 'postgres', TEST_FULL_LENGTH: '1', ...services },
      long,
    ),
  ]);
} else if (mode === 'quick') {
  done = (async () => {
    await Promise.all([
      (async () => {
        await typecheck();
        await lint();
      })(),
      vitest('unit tests', 'unit', 'unit'),
    ]);
    await vitest('database tests (PGlite)', 'db-pglite', 'db', { TEST_DB: 'pglite' });
    // The integration and browser tests of the files changed since the last commit (and those
    // that import them); the browser's need the apps built.
    const hasBuild = existsSync(join(root, 'apps', 'web', 'dist', 'index.html'));
    if (!hasBuild) await build();
    await vitest('changed: integration and browser', 'changed', 'integration', services, [
      '--project',
      'e2e',
      '--changed',
      '--passWithNoTests',
    ]);
  })();
} else {
  done = (async () => {
    const [, built] = await Promise.all([
      (async () => {
        await typecheck();
        await lint();
        await vitest('unit tests', 'unit', 'unit');
      })(),
      build(),
    ]);
    await vitest('database tests (PGlite)', 'db-pglite', 'db', { TEST_DB: 'pglite' });
    // The browser tests leave about a sixth of the machine idle (a file waits on its page, its
    // server, its polls): a lane of one file at a time beside them, the integration tests and then
    // the database tests on PostgreSQL, uses it.
    const lane = { TEST_WORKERS: '1' };
    const postgresDb = () =>
      vitest('database tests (PostgreSQL)', 'db-postgres', 'db', {
        TEST_DB: 'postgres',
        ...services,
        ...lane,
      });
    if (built) {
      await Promise.all([
        vitest('browser tests (Chromium)', 'e2e', 'e2e', services),
        (async () => {
          await vitest('integration tests', 'integration', 'integration', { ...services, ...lane });
          await postgresDb();
        })(),
      ]);
    } else {
      await postgresDb();
      notRun('integration tests', 'the build failed');
      notRun('browser tests (Chromium)', 'the build failed');
    }
  })();
}
await done;
process.exit(summary() ? 0 : 1);
