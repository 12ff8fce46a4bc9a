// Quote broadcast: the platform's /message (real server process, quotes arriving through Redis as
// they do with several nodes) beside a bare `ws` broadcast and a socket.io broadcast of the same
// batches, at 1,000 and 5,000 clients. Prints deliveries per second, tick-to-client latency p50 and
// p99, server memory per connection and server CPU. First, with the live feed of the catalogue,
// the bytes per second a client watching one instrument receives beside a whole-list client.
// Usage: node bench/quotes.mjs [seconds per case, default 6]
// BENCH_PARTS=subscription (or broadcast) runs one part only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import WebSocket from 'ws';

const root = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.argv[2] ?? 6);
/** The live feed (one batch a second of every open instrument) and a stress rate for throughput. */
const SCENARIOS = [
  { name: 'live feed', rate: 1, quotes: 450 },
  { name: 'stress', rate: 10, quotes: 100 },
];
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLIENTS = (process.env.BENCH_CLIENTS ?? '1000,5000').split(',').map(Number);

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}
function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 per second)
}

function waitFor(child, word) {
  return new Promise((done, fail) => {
    const lines = createInterface({ input: child.stdout });
    let output = '';
    lines.on('line', (line) => {
      output += `${line}\n`;
      if (line.includes(word)) done(line);
    });
    child.on('exit', (code) => fail(new Error(`exited ${code} before "${word}":\n${output}`)));
  });
}

async function startTarget(kind, port, dataDir) {
  if (kind === 'platform') {
    const child = spawn(process.execPath, [join(root, 'apps/server/src/main.ts')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        FEED: 'off',
        JOBS: 'off',
        REDIS_URL,
        API_RATE_LIMIT: '1000000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await waitFor(child, 'Customer app');
    return { child, url: `ws://127.0.0.1:${port}/message` };
  }
  const child = spawn(
    process.execPath,
    [join(root, 'bench/quotes-harness.mjs'), kind, String(port), REDIS_URL],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await waitFor(child, 'ready');
  return { child, url: kind === 'socketio' ? `http://127.0.0.1:${port}` : `ws://127.0.0.1:${port}` };
}

function batch(size) {
  const quotes = [{ code: `T${Date.now()}`, price: '0', zdf: '0' }];
  for (let i = 1; i < size; i++)
    quotes.push({
      code: `SYM${i}USDT`,
      price: (1000 + Math.random() * 10).toFixed(2),
      zdf: (Math.random() / 10 - 0.05).toFixed(6),
    });
  return JSON.stringify(quotes);
}

const PARTS = (process.env.BENCH_PARTS ?? 'subscription,broadcast').split(',');

/** Payload bytes one client receives per second over `seconds`, after its first batch. */
function bytesPerSecond(url, subscription, seconds) {
  return new Promise((done, fail) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    let bytes = 0;
    let batches = 0;
    let start = 0;
    socket.on('open', () => {
      if (subscription) socket.send(JSON.stringify(subscription));
    });
    socket.on('message', (data) => {
      // The first batch may be sent before the subscription arrives: counting starts after it.
      if (start === 0) {
        start = performance.now();
        setTimeout(() => {
          socket.close();
          done({ perSecond: (bytes / (performance.now() - start)) * 1000, batches });
        }, seconds * 1000);
        return;
      }
      bytes += data.length;
      batches += 1;
    });
    socket.on('error', fail);
  });
}

if (PARTS.includes('subscription')) {
  // The real feed (every open instrument of the catalogue, one batch a second) on one node.
  const dataDir = mkdtempSync(join(tmpdir(), 'swx-bench-quotes-'));
  const port = 19_090;
  const child = spawn(process.execPath, [join(root, 'apps/server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JOBS: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitFor(child, 'Customer app');
  const url = `ws://127.0.0.1:${port}/message`;
  const seconds = Math.max(SECONDS, 10);
  const [whole, one, crypto] = await Promise.all([
    bytesPerSecond(url, null, seconds),
    bytesPerSecond(url, { codes: ['BTCUSDT'] }, seconds),
    bytesPerSecond(url, { types: [2] }, seconds),
  ]);
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  const kb = (figure) =>
    `${(figure.perSecond / 1024).toFixed(2).padStart(7)} KB/s (${figure.batches} batches)`;
  console.log(`/message, live feed, ${seconds} s, payload bytes received per client:`);
  console.log(`  whole list (says nothing)      ${kb(whole)}`);
  console.log(`  one instrument (BTCUSDT)       ${kb(one)}`);
  console.log(`  one class (crypto, type 2)     ${kb(crypto)}`);
  console.log(`  whole list / one instrument = ${(whole.perSecond / one.perSecond).toFixed(0)}x`);
}

const publisher = new Redis(REDIS_URL);
const rows = [];
let port = 19_100;
for (const scenario of PARTS.includes('broadcast') ? SCENARIOS : []) {
  for (const clients of CLIENTS) {
    for (const kind of ['platform', 'ws', 'socketio']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'swx-bench-quotes-'));
      const target = await startTarget(kind, port++, dataDir);
      // Wait until the fresh process's memory settles (start-up garbage collected) before the baseline.
      let baseRss = rssKb(target.child.pid);
      for (let i = 0; i < 40; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const now = rssKb(target.child.pid);
        const settled = Math.abs(now - baseRss) < 512;
        baseRss = now;
        if (settled && i >= 3) break;
      }
      // Clients in two processes from 2,000 up, so one client thread is not what is measured.
      const processes = clients >= 2000 ? 2 : 1;
      const kindOfClient = kind === 'socketio' ? 'socketio' : 'ws';
      const groups = Array.from({ length: processes }, () =>
        spawn(
          process.execPath,
          [join(root, 'bench/quotes-clients.mjs'), String(clients / processes), target.url, kindOfClient],
          {
            stdio: ['pipe', 'pipe', 'inherit'],
          },
        ),
      );
      for (const g of groups) await waitFor(g, 'ready');
      // Memory settles for a while after thousands of connections; take the median of a few readings.
      const readings = [];
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 400));
        readings.push(rssKb(target.child.pid));
      }
      const connectedRss = readings.sort((a, b) => a - b)[2];
      for (const g of groups) g.stdin.write('start\n');
      const cpu0 = cpuTicks(target.child.pid);
      const t0 = performance.now();
      const timer = setInterval(
        () => void publisher.publish('swx:market.quotes', batch(scenario.quotes)),
        1000 / scenario.rate,
      );
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 300));
      const cpu = (cpuTicks(target.child.pid) - cpu0) / 100 / ((performance.now() - t0) / 1000);
      for (const g of groups) g.stdin.write('stop\n');
      // Marginal memory: 1,000 more clients on the same warm process, so start-up garbage cancels out.
      const before = [];
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 500));
        before.push(rssKb(target.child.pid));
      }
      const extra = spawn(
        process.execPath,
        [join(root, 'bench/quotes-clients.mjs'), '1000', target.url, kindOfClient],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      await waitFor(extra, 'ready');
      const after = [];
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 500));
        after.push(rssKb(target.child.pid));
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const marginalKb = (median(after) - median(before)) / 1000;
      extra.kill('SIGKILL');
      const reports = groups.map((g) => waitFor(g, '{'));
      for (const g of groups) g.stdin.write('report\n');
      const parts = (await Promise.all(reports)).map((line) => JSON.parse(line));
      // Latency percentiles: the worse of the client processes (each saw half of the clients).
      const figures = {
        deliveries: parts.reduce((sum, p) => sum + p.deliveries, 0),
        perSecond: parts.reduce((sum, p) => sum + p.perSecond, 0),
        p50: Math.max(...parts.map((p) => p.p50 ?? 0)),
        p99: Math.max(...parts.map((p) => p.p99 ?? 0)),
      };
      target.child.kill('SIGTERM');
      await new Promise((r) => target.child.on('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
      const row = {
        scenario: scenario.name,
        clients,
        kind,
        ...figures,
        kbPerConnection: marginalKb,
        averageKb: (connectedRss - baseRss) / clients,
        cpu,
      };
      rows.push(row);
      console.log(
        `${scenario.name.padEnd(9)} ${scenario.rate}/s x ${scenario.quotes}  ${String(clients).padStart(5)} clients  ${kind.padEnd(9)} ${row.perSecond.toFixed(0).padStart(7)} deliveries/s  p50 ${String(row.p50).padStart(4)} ms  p99 ${String(row.p99).padStart(4)} ms  ${row.kbPerConnection.toFixed(1).padStart(5)} KB/conn  CPU ${(row.cpu * 100).toFixed(0).padStart(3)}%`,
      );
    }
    const by = (k) => rows.find((r) => r.scenario === scenario.name && r.clients === clients && r.kind === k);
    console.log(
      `      ratio at ${clients}: platform / bare ws = ${(by('platform').perSecond / by('ws').perSecond).toFixed(2)}, platform / socket.io = ${(by('platform').perSecond / by('socketio').perSecond).toFixed(2)}`,
    );
  }
}
publisher.disconnect();
if (rows.length > 0)
  console.log(
    `(${SECONDS} s per case; deliveries = batches received by all clients together; KB/conn = RSS added by 1,000 more clients on the warm server; CPU = server process)`,
  );
