// Lighthouse (mobile form factor, its default simulated throttling) with Debian's Chromium on the
// customer app's routes, served by a real server process with the apps as built now. Prints per
// route performance, accessibility and best practices scores, LCP, TBT, CLS and bytes transferred,
// beside a floor: a bare static page (one heading) served by node:http, measured in the same run,
// which shows what this machine's Chromium scores when the page costs nothing.
// Usage: node bench/lighthouse.mjs [route ...]   (CHROME_PATH picks the browser; default
// /usr/bin/chromium; the routes are visited signed out; LIGHTHOUSE_REPORTS=<folder> also writes
// each route's full report there as JSON, its trace's long tasks and LCP element included;
// LIGHTHOUSE_BUILT=1 measures the apps as last built instead of building them first;
// LIGHTHOUSE_THROTTLING=devtools applies the throttling for real instead of simulating it).
// Each route is measured three times: as a phone's first page of a browser session, which opens
// on the welcome board (the page under it is prepared hidden); and as the same tab's next load of
// the page once the board has been seen (its session storage kept), which draws the page itself:
// with nothing cached (the HTTP cache, the service worker and its caches cleared), and as a reload
// (with what the tab's first visit cached).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { navigation } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { buildApps, root } from '../scripts/lib.mjs';

const ROUTES =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['/', '/market', '/instrument?code=EURUSD&type=1&id=1', '/profile/balance', '/pass/login'];
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PORT = 19_300;
const REPORTS = process.env.LIGHTHOUSE_REPORTS;
if (REPORTS) mkdirSync(REPORTS, { recursive: true });

function started(child, word) {
  return new Promise((done, fail) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => line.includes(word) && done());
    child.on('exit', (code) => fail(new Error(`server exited ${code}`)));
  });
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average before: ${load()}`);
if (!process.env.LIGHTHOUSE_BUILT) buildApps();
const dataDir = mkdtempSync(join(tmpdir(), 'swx-bench-lighthouse-'));
const server = spawn(process.execPath, [join(root, 'apps/server/src/main.ts')], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JOBS: 'off',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Stopped however this script ends (a browser that cannot start, too).
process.on('exit', () => server.kill('SIGTERM'));
await started(server, 'Customer app');

const floor = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="floor"><title>floor</title></head><body><main><h1>A bare page</h1></main></body></html>',
  );
});
await new Promise((done) => floor.listen(0, '127.0.0.1', done));

const chrome = await chromeLauncher.launch({
  chromePath: CHROME,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const FLAGS = {
  output: 'json',
  logLevel: 'error',
  onlyCategories: ['performance', 'accessibility', 'best-practices'],
  // LIGHTHOUSE_THROTTLING=devtools: the page loaded under the same phone's network and CPU applied
  // for real (DevTools throttling), figures observed rather than simulated from an unthrottled load.
  ...(process.env.LIGHTHOUSE_THROTTLING ? { throttlingMethod: process.env.LIGHTHOUSE_THROTTLING } : {}),
};

/**
 * The page after the welcome board: the same tab, the board seen this session; nothing cached
 * (`cold`: the HTTP cache, the service worker and its caches cleared), or what the tab's first
 * visit of the page cached (a reload).
 */
async function afterBoard(url, cold) {
  // A connection of its own each time: one kept across Lighthouse's own runs, which open and close
  // targets on the same browser, at times finds its session gone ("Session with given id not found").
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const page = await browser.newPage();
  try {
    const { origin } = new URL(url);
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'service_workers,cache_storage' });
    if (cold) await page.goto(`${origin}/robots.txt`);
    else await page.goto(url, { waitUntil: 'networkidle0' });
    await page.evaluate(() => sessionStorage.setItem('welcomeShown', '1'));
    return await navigation(page, url, { flags: { ...FLAGS, disableStorageReset: true } });
  } finally {
    await page.close();
    await browser.disconnect();
  }
}

/** `path`: 'board' (a phone's first page of a session), 'cold' or 'reload' (the page after it). */
async function measure(url, path = 'board') {
  const board = path === 'board';
  // Lighthouse now and then loses the trace's navigation start (NO_NAVSTART): measured again, at
  // most twice, and a third failure is printed as it is.
  let result;
  for (let attempt = 0; attempt < 3; attempt++) {
    result = board
      ? await lighthouse(url, { port: chrome.port, ...FLAGS })
      : await afterBoard(url, path === 'cold');
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    if (!result.lhr.runtimeError) break;
    console.log(`  (${url}: ${result.lhr.runtimeError.code}; measured again)`);
  }
  if (REPORTS) {
    const name = `${new URL(url).pathname.replace(/\W+/g, '_') || '_'}${board ? '' : `.after-board-${path}`}`;
    writeFileSync(join(REPORTS, `${name}.json`), JSON.stringify(result.lhr, null, 1));
    const trace = result.artifacts?.Trace ?? result.artifacts?.traces?.defaultPass;
    if (trace) writeFileSync(join(REPORTS, `${name}.trace.json`), JSON.stringify(trace));
  }
  const { categories, audits } = result.lhr;
  const score = (key) => Math.round((categories[key]?.score ?? 0) * 100);
  const value = (key) => audits[key]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    bytes: value('total-byte-weight'),
  };
}

const row = (name, m) =>
  `${name.padEnd(40)} ${String(m.performance).padStart(4)} ${String(m.accessibility).padStart(5)} ${String(m.bestPractices).padStart(5)} ${(m.fcp / 1000).toFixed(2).padStart(6)} s ${(m.lcp / 1000).toFixed(2).padStart(6)} s ${m.tbt.toFixed(0).padStart(6)} ms ${m.cls.toFixed(3).padStart(6)} ${(m.bytes / 1024).toFixed(0).padStart(6)} KB`;
console.log(
  `${'route (mobile, simulated throttling)'.padEnd(40)} perf  a11y    bp      FCP        LCP       TBT     CLS    bytes`,
);
try {
  const { port } = floor.address();
  console.log(row('floor: a bare static page', await measure(`http://127.0.0.1:${port}/`)));
  for (const route of ROUTES) {
    const url = `http://127.0.0.1:${PORT}${route}`;
    console.log(row(route, await measure(url)));
    console.log(row(`  after the board, nothing cached`, await measure(url, 'cold')));
    console.log(row(`  after the board, a reload`, await measure(url, 'reload')));
  }
} finally {
  await chrome.kill();
  floor.close();
  server.kill('SIGTERM');
  await new Promise((done) => server.on('exit', done));
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `load average after: ${load()} (2 shared cores: Lighthouse's simulated throttling scales what it observes)`,
);
