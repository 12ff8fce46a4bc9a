// Sums up a browser-test profile (TEST_PROFILE=<file> npx vitest run --project e2e): per file, the
// wall seconds, the CPU seconds of Chromium, of the test servers, of the rest the worker started and
// of the worker, the contexts opened and the axe runs; then the totals and the heaviest tests.
// Usage: node scripts/profile-report.mjs <file> [tests to list, default 25]
import { readFileSync } from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/profile-report.mjs <profile.jsonl> [tests to list]');
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const keys = [
  'seconds',
  'chromium',
  'server',
  'other',
  'worker',
  'contexts',
  'axe',
  'axeSeconds',
  'settledSeconds',
];
const sum = (rows) => Object.fromEntries(keys.map((k) => [k, rows.reduce((s, r) => s + (r[k] ?? 0), 0)]));
const cpu = (r) => r.chromium + r.server + r.other + r.worker;
const row = (name, r) =>
  `${name.slice(0, 60).padEnd(60)} ${[r.seconds, cpu(r), r.chromium, r.server, r.other, r.worker]
    .map((v) => v.toFixed(1).padStart(7))
    .join(
      '',
    )}${String(r.contexts).padStart(6)}${String(r.axe).padStart(5)}${r.axeSeconds.toFixed(1).padStart(7)}`;
const head = `${'file'.padEnd(60)}    wall    cpu chromium server  other worker  ctx  axe  axe s`;
const byFile = new Map();
for (const line of lines) byFile.set(line.file, [...(byFile.get(line.file) ?? []), line]);
const files = [...byFile].map(([name, rows]) => [name, sum(rows)]).sort((a, b) => cpu(b[1]) - cpu(a[1]));
console.log(head);
for (const [name, r] of files) console.log(row(name, r));
console.log(row('TOTAL', sum(lines)));
const setUp = lines.filter((l) => l.test.startsWith('('));
console.log(row('of which set-up and tear-down', sum(setUp)));
console.log(`\nheaviest tests by CPU:\n${head}`);
for (const l of [...lines].sort((a, b) => cpu(b) - cpu(a)).slice(0, Number(top)))
  console.log(row(`${l.file.replace('.test.ts', '')} › ${l.test}`, l));
