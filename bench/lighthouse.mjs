// Lighthouse with Debian's Chromium on every route of the customer app's route table
// (apps/web/src/app/routes.ts, built from each feature's routes.ts: every path but the redirects,
// a parameter filled with a sample value), in both form factors: mobile (Lighthouse's default: a
// phone's screen, simulated slow 4G and a 4x slower CPU) and desktop (Lighthouse's desktop config:
// desktop screen and user agent, its desktop throttling). Served by a real server process with the
// apps as built now, visited signed out with a fresh profile. Prints per route performance,
// accessibility and best practices scores, FCP, LCP, TBT, CLS and bytes transferred, then per form
// factor the worst route of each figure; beside a floor: a bare static page (one heading) served by
// node:http, measured in the same run in each form factor, which shows what this machine's
// Chromium scores when the page costs nothing, and the same page formatting one number with
// Intl.NumberFormat, which every route showing a figure pays once.
// Usage: node bench/lighthouse.mjs [--mobile | --desktop] [--after-board] [route ...]
//   route: a path as the browser asks for it ('/market', '/trading/1'); default every route.
//   --mobile / --desktop: one form factor only (default both).
//   --after-board: on mobile, each route also as the same tab's next load once the welcome board
//   has been seen (its session storage kept), which draws the page itself: with nothing cached
//   (the HTTP cache, the service worker and its caches cleared), and as a reload (with what the
//   tab's first visit cached). Without it a route is measured once per form factor, as a fresh
//   profile's first page: on mobile that page opens on the welcome board (the page under it is
//   prepared hidden). One pass each keeps the default run (about 55 routes x 2) near 20 minutes on
//   two shared cores; Lighthouse's figures of one pass are noisy on a loaded machine (the load
//   average is printed before and after), its CLS much less so.
// TBT(cpu) counts the same blocking on each task's thread time instead of its wall-clock time
// (cpuBlocking): the page's own work, which other processes on a shared machine do not lengthen.
// Environment: CHROME_PATH picks the browser (default /usr/bin/chromium);
// LIGHTHOUSE_REPORTS=<folder> also writes each run's full report there as JSON and its trace (the
// layout-shift elements, long tasks and LCP element are in the report); LIGHTHOUSE_PORT the app's
// port (default 19300: another run beside it needs its own); LIGHTHOUSE_BUILT=1
// measures the apps as last built instead of building them first; LIGHTHOUSE_THROTTLING=devtools
// applies the throttling for real instead of simulating it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { navigation } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { buildApps, root } from '../scripts/lib.mjs';

/** A sample value for a path parameter, by its name (any other: 1, an id the seed data holds). */
const SAMPLE_PARAMS = { provider: 'google', type: 'fund' };
/** The query a route's screen reads beyond its first call's (routes.ts firstCall `?name`). */
const SAMPLE_QUERY = {
  '/instrument': 'code=EURUSD&type=1&id=1',
  '/cruuency': 'code=BTCUSDT&type=2&id=1',
  '/detail': 'id=1&title=About%20us',
  '/financial/cryptoInvestDetail': 'id=1',
};

/** Every path of the customer app's route table a visitor can open (not a redirect), with samples. */
async function tableRoutes() {
  const { ROUTES } = await import('../apps/web/src/app/routes.ts');
  return ROUTES.flatMap((route) => {
    if (typeof route.view === 'object' && 'redirect' in route.view) return [];
    const path = route.path.replace(/:(\w+)/g, (_, name) => SAMPLE_PARAMS[name] ?? '1');
    const fromCall = Object.values(route.firstCall?.params ?? {})
      .filter((source) => source.startsWith('?'))
      .map((source) => `${source.slice(1)}=1`)
      .join('&');
    const query = SAMPLE_QUERY[route.path] ?? fromCall;
    return [query ? `${path}?${query}` : path];
  });
}

const args = process.argv.slice(2);
const options = new Set(args.filter((arg) => arg.startsWith('--')));
for (const option of options)
  if (!['--mobile', '--desktop', '--after-board'].includes(option))
    throw new Error(`unknown option ${option}`);
const FORM_FACTORS = ['mobile', 'desktop'].filter(
  (formFactor) => options.has(`--${formFactor}`) || !(options.has('--mobile') || options.has('--desktop')),
);
const AFTER_BOARD = options.has('--after-board');
const given = args.filter((arg) => !arg.startsWith('--'));
const ROUTES = given.length ? given : await tableRoutes();
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 19_300);
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

// `/intl`: the same page showing one number formatted by Intl.NumberFormat after its first paint, as
// every route showing a figure does: a renderer's first Intl.NumberFormat works out the locales it
// has (6 ms of CPU on this page with Debian's Chromium, 20-30 ms inside the app's start: one task
// that no page code can slice).
const floor = createServer((request, response) => {
  const intl = request.url === '/intl';
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="floor"><title>floor</title></head><body><main><h1>A bare page</h1>${intl ? '<p id="n"></p><script>addEventListener("load", () => setTimeout(() => { document.getElementById("n").textContent = new Intl.NumberFormat("en").format(1234.5); }, 300));</script>' : ''}</main></body></html>`,
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

/** Lighthouse's configuration of a form factor: its default (mobile), or its desktop config. */
const configOf = (formFactor) => (formFactor === 'desktop' ? desktopConfig : undefined);

/**
 * The page after the welcome board (mobile): the same tab, the board seen this session; nothing
 * cached (`cold`: the HTTP cache, the service worker and its caches cleared), or what the tab's
 * first visit of the page cached (a reload).
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

/**
 * `path`: 'first' (a fresh profile's first page; on a phone the welcome board), 'cold' or
 * 'reload' (mobile: the page after the board).
 */
async function measure(url, formFactor, path = 'first') {
  const first = path === 'first';
  // Lighthouse now and then loses the trace's navigation start (NO_NAVSTART): measured again, at
  // most twice, and a third failure is printed as it is.
  let result;
  for (let attempt = 0; attempt < 3; attempt++) {
    result = first
      ? await lighthouse(url, { port: chrome.port, ...FLAGS }, configOf(formFactor))
      : await afterBoard(url, path === 'cold');
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    if (!result.lhr.runtimeError) break;
    console.log(`  (${url}: ${result.lhr.runtimeError.code}; measured again)`);
  }
  const trace = result.artifacts?.Trace ?? result.artifacts?.traces?.defaultPass;
  if (REPORTS) {
    const { pathname, port } = new URL(url);
    const base =
      port === String(PORT)
        ? pathname.replace(/\W+/g, '_') || '_'
        : `floor${pathname.replace(/\W+/g, '_').replace(/_$/, '')}`;
    const name = `${base}.${formFactor}${first ? '' : `.after-board-${path}`}`;
    writeFileSync(join(REPORTS, `${name}.json`), JSON.stringify(result.lhr, null, 1));
    if (trace) writeFileSync(join(REPORTS, `${name}.trace.json`), JSON.stringify(trace));
  }
  const { categories, audits, configSettings } = result.lhr;
  // The CPU slowdown Lighthouse simulates (4 on mobile, 1 on the desktop; 1 when applied for real).
  const slowdown =
    configSettings.throttlingMethod === 'simulate' ? configSettings.throttling.cpuSlowdownMultiplier : 1;
  const score = (key) => Math.round((categories[key]?.score ?? 0) * 100);
  const value = (key) => audits[key]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cpuTbt: trace ? cpuBlocking(trace, slowdown) : Number.NaN,
    cls: value('cumulative-layout-shift'),
    bytes: value('total-byte-weight'),
  };
}

/**
 * TBT counted on the main thread's CPU time: each task after the first contentful paint blocks for
 * what its thread time, times the form factor's CPU slowdown (Lighthouse's simulated 4x on mobile),
 * exceeds 50 ms. Lighthouse times tasks by the wall clock, which other processes on a shared machine
 * lengthen (a loaded two-core machine multiplies the same page's TBT by ten); the thread time is the
 * page's own work. An estimate beside Lighthouse's figure (it counts to the trace's end, where
 * Lighthouse stops at Time to Interactive), not a replacement.
 */
function cpuBlocking(trace, slowdown) {
  const events = trace.traceEvents ?? trace;
  const fcp = events.find((event) => event.name === 'firstContentfulPaint');
  if (!fcp) return Number.NaN;
  let blocking = 0;
  for (const event of events)
    if (
      event.ph === 'X' &&
      event.name === 'RunTask' &&
      event.pid === fcp.pid &&
      event.tid === fcp.tid &&
      event.ts >= fcp.ts &&
      event.tdur !== undefined
    )
      blocking += Math.max(0, (event.tdur / 1000) * slowdown - 50);
  return blocking;
}

/** When the built web app was written: another build of the shared dist during a run changes it. */
const builtAt = () => {
  try {
    return statSync(join(root, 'apps/web/dist/index.html')).mtimeMs;
  } catch {
    return 0;
  }
};
let built = builtAt();

const NAME = 48;
const row = (name, m) =>
  `${name.padEnd(NAME)} ${String(m.performance).padStart(4)} ${String(m.accessibility).padStart(5)} ${String(m.bestPractices).padStart(5)} ${(m.fcp / 1000).toFixed(2).padStart(6)} s ${(m.lcp / 1000).toFixed(2).padStart(6)} s ${m.tbt.toFixed(0).padStart(6)} ms ${m.cpuTbt.toFixed(0).padStart(6)} ms ${m.cls.toFixed(3).padStart(6)} ${(m.bytes / 1024).toFixed(0).padStart(6)} KB`;
const heading = (title) =>
  `${title.padEnd(NAME)} perf  a11y    bp      FCP        LCP       TBT   TBT(cpu)   CLS    bytes`;
/** Each figure's worst route: the lowest score, the highest time, shift or weight. */
const WORST = [
  ['performance', 'lowest performance', -1],
  ['accessibility', 'lowest accessibility', -1],
  ['bestPractices', 'lowest best practices', -1],
  ['fcp', 'slowest FCP', 1],
  ['lcp', 'slowest LCP', 1],
  ['tbt', 'longest TBT', 1],
  ['cpuTbt', 'longest TBT on CPU time', 1],
  ['cls', 'largest CLS', 1],
  ['bytes', 'most bytes', 1],
];
console.log(
  `${ROUTES.length} routes, ${FORM_FACTORS.join(' and ')}${AFTER_BOARD ? ', mobile after the board too' : ''}`,
);
try {
  const { port } = floor.address();
  for (const formFactor of FORM_FACTORS) {
    const throttling = process.env.LIGHTHOUSE_THROTTLING ?? 'simulated';
    console.log(`\n${heading(`route (${formFactor}, ${throttling} throttling)`)}`);
    console.log(row('floor: a bare static page', await measure(`http://127.0.0.1:${port}/`, formFactor)));
    console.log(
      row('floor + one Intl.NumberFormat', await measure(`http://127.0.0.1:${port}/intl`, formFactor)),
    );
    const rows = [];
    for (const route of ROUTES) {
      const url = `http://127.0.0.1:${PORT}${route}`;
      const measured = await measure(url, formFactor);
      rows.push([route, measured]);
      console.log(row(route, measured));
      const now = builtAt();
      if (now !== built) {
        console.log(
          `  (the web app was rebuilt ${now ? 'meanwhile' : 'and is missing'}: rows from here on measure another build)`,
        );
        built = now;
      }
      if (AFTER_BOARD && formFactor === 'mobile') {
        console.log(row('  after the board, nothing cached', await measure(url, formFactor, 'cold')));
        console.log(row('  after the board, a reload', await measure(url, formFactor, 'reload')));
      }
    }
    console.log(`\n${heading(`worst (${formFactor})`)}`);
    for (const [key, label, sign] of WORST) {
      const known = rows.filter(([, m]) => Number.isFinite(m[key]));
      if (!known.length) continue;
      const [route, m] = known.reduce((worst, next) =>
        sign * (next[1][key] - worst[1][key]) > 0 ? next : worst,
      );
      console.log(row(`${label}: ${route}`.slice(0, NAME), m));
    }
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
