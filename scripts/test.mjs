// `npm test`: everything, in order, failing fast on a broken stage:
// typecheck, lint, unit tests, database tests on PGlite and on PostgreSQL, the apps' build and the
// home route's JavaScript budget, integration tests against real server processes, and browser
// tests in Debian's Chromium at a desktop and a mobile viewport. It installs or starts what it
// needs (Chromium, PostgreSQL, Redis) when it can, and says exactly what to install when it cannot.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUDGET_BYTES, homeInitialJs } from './budget.mjs';
import { bin, buildApps, root, run } from './lib.mjs';

const started = Date.now();
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const reports = join(root, 'test-results');
mkdirSync(reports, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const timings = [];

function fail(message) {
  console.error(`\n✗ ${message}`);
  summary();
  process.exit(1);
}

function summary() {
  console.log('\nStage timings:');
  for (const t of timings) console.log(`  ${t.stage.padEnd(28)} ${(t.ms / 1000).toFixed(1)} s`);
  console.log(`  ${'total'.padEnd(28)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
}

function stage(name, work) {
  console.log(`\n▶ ${name}`);
  const t0 = Date.now();
  work();
  timings.push({ stage: name, ms: Date.now() - t0 });
}

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

function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return;
  console.log('Chromium is missing; installing Debian’s chromium package');
  if (!aptInstall('chromium') || !existsSync(path)) {
    fail(
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
    fail(
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
    fail(
      'Redis is needed for the multi-node tests: set REDIS_URL, or install it (sudo apt-get install -y redis-server)',
    );
  return url;
}

function vitest(project, label, env = {}) {
  const output = join(reports, `${label}.json`);
  const code = run(
    process.execPath,
    [
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${output}`,
    ],
    {
      env: { ...process.env, ...env },
    },
  );
  if (existsSync(output)) {
    const report = JSON.parse(readFileSync(output, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    if (report.numTotalTests === 0) fail(`${label}: no test ran`);
  }
  if (code !== 0) fail(`${label} tests failed`);
}

ensureChromium();
const postgresUrl = ensurePostgres();
const redisUrl = ensureRedis();
const services = { TEST_DATABASE_URL: postgresUrl, TEST_REDIS_URL: redisUrl };

stage('typecheck', () => {
  for (const project of ['packages/contract', 'apps/server', 'apps/web', 'apps/admin', 'tests']) {
    if (run(bin('tsc'), ['-p', project]) !== 0) fail(`typecheck of ${project} failed`);
  }
});
stage('lint and format', () => {
  if (run(bin('biome'), ['check', '--error-on-warnings', '.']) !== 0)
    fail('lint found problems (npm run format fixes formatting)');
});
stage('unit tests', () => vitest('unit', 'unit'));
stage('database tests (PGlite)', () => vitest('db', 'db-pglite', { TEST_DB: 'pglite' }));
stage('database tests (PostgreSQL)', () => vitest('db', 'db-postgres', { TEST_DB: 'postgres', ...services }));
stage('build and JS budget', () => {
  buildApps();
  const result = homeInitialJs();
  console.log(
    `home route initial JS: ${(result.gzip / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)`,
  );
  if (result.gzip > BUDGET_BYTES) fail('the home route’s initial JavaScript is over budget');
  if (result.withSchemas.length > 0)
    fail(`the app builds the contract's schemas as it starts (${result.withSchemas.join(', ')})`);
});
stage('integration tests', () => vitest('integration', 'integration', services));
stage('browser tests (Chromium)', () => vitest('e2e', 'e2e', services));

summary();
