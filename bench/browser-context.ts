// What a browser test's page costs Chromium: CPU seconds (all of Chromium's processes, those that
// exited included) and wall seconds per page of /market at the phone viewport, drawn and left 300 ms,
// four ways, N times each (default 8), against one real server:
// - a fresh context and its first page, then closed (what every test did before the pool);
// - a pooled context: a new page beside the parked page, then the context made fresh
//   (support/context-pool.ts: cookies, storage and HTTP cache cleared);
// - a new page in a kept context with no parked page (a renderer process of its own);
// - the same page navigated again (the floor: no page made at all).
// Usage: node bench/browser-context.ts [pages per way, default 8]
import type { Page } from 'playwright-core';
import { launchBrowser, newContext } from '../tests/support/browser.ts';
import { ContextPool } from '../tests/support/context-pool.ts';
import { processes, TICK } from '../tests/support/profile.ts';
import { startServer } from '../tests/support/server.ts';

const N = Number(process.argv[2] ?? 8);

/** CPU seconds of every Chromium process, with what the exited ones left in their parents' counts. */
function chromiumSeconds(): number {
  let ticks = 0;
  for (const p of processes().values()) if (p.command.includes('chrom')) ticks += p.ticks;
  return ticks / TICK;
}

const server = await startServer({});
const browser = await launchBrowser();
const drawn = (page: Page) =>
  page.waitForFunction(() => !document.documentElement.hasAttribute('data-first-screen'));
const show = async (page: Page) => {
  await page.goto('/market');
  await drawn(page);
  await page.waitForTimeout(300);
};

async function measure(name: string, once: () => Promise<void>): Promise<void> {
  await once();
  const cpu0 = chromiumSeconds();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await once();
  const cpu = (chromiumSeconds() - cpu0) / N;
  const wall = (performance.now() - t0) / N / 1000;
  console.log(`${name.padEnd(58)} ${cpu.toFixed(2)} s CPU  ${wall.toFixed(2)} s wall`);
}

try {
  console.log(`/market at 390 px, ${N} pages each way, Chromium's CPU per page:`);
  await measure('fresh context and page (before the pool)', async () => {
    const context = await newContext(browser, 'mobile', server.baseUrl, { serviceWorkers: 'block' });
    await show(await context.newPage());
    await context.close();
  });
  const pool = new ContextPool(() => browser);
  const kind = { layout: 'mobile', baseURL: server.baseUrl, locale: 'en-US', quiet: false } as const;
  await measure('pooled context: page beside the parked one, then reset', async () => {
    const context = await pool.take(kind, 'block');
    await show(await context.newPage());
    await context.close();
  });
  await pool.closeAll();
  const kept = await newContext(browser, 'mobile', server.baseUrl, { serviceWorkers: 'block' });
  await measure('kept context, no parked page: a new page', async () => {
    const page = await kept.newPage();
    await show(page);
    await page.close();
  });
  const page = await kept.newPage();
  await measure('floor: the same page navigated again', () => show(page));
} finally {
  await browser.close();
  await server.stop();
}
