import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page, type Request } from 'playwright-core';
import { expect } from 'vitest';
import { countContext, timed } from './profile.ts';
import { listedCryptoId } from './server.ts';

/** Debian's Chromium, launched with the flags this machine needs (no network beyond loopback). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      // The pages of one site in a context share a renderer process: a test's page opened beside
      // the pooled context's parked page (support/context-pool.ts) starts no process of its own.
      '--process-per-site',
      ...(process.env.CHROMIUM_EXTRA_FLAGS?.split(' ').filter(Boolean) ?? []),
    ],
  });
}

let shared: Promise<Browser> | null = null;

/**
 * One Chromium per test worker, shared by the files it runs one after another (each test opens
 * contexts of its own and closes them); launched again when it went away. Playwright closes it
 * when the worker exits.
 */
export async function workerBrowser(): Promise<Browser> {
  const running = await shared?.catch(() => null);
  if (running?.isConnected()) return running;
  shared = launchBrowser();
  return shared;
}

export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export type Layout = 'desktop' | 'mobile';

/**
 * A browser context at the desktop viewport (1366×900, or `width`) or an iPhone's 390×844, in the
 * browser locale `locale` (en-US by default); the app's service worker allowed unless `block`ed.
 */
export async function newContext(
  browser: Browser,
  layout: Layout,
  baseURL: string,
  options: { locale?: string; width?: number; serviceWorkers?: 'allow' | 'block' } = {},
): Promise<BrowserContext> {
  const locale = options.locale ?? 'en-US';
  const serviceWorkers = options.serviceWorkers ?? 'allow';
  const context = await (layout === 'desktop'
    ? browser.newContext({
        baseURL,
        viewport: { width: options.width ?? 1366, height: 900 },
        locale,
        serviceWorkers,
      })
    : browser.newContext({
        baseURL,
        viewport: { width: 390, height: 844 },
        userAgent: IPHONE_UA,
        isMobile: true,
        hasTouch: true,
        locale,
        serviceWorkers,
      }));
  context.on('page', watchInFlight);
  countContext();
  return context;
}

/** The requests each page has sent and not yet seen answered (a websocket is not one), with when each was sent. */
const inFlight = new WeakMap<Page, Map<Request, number>>();

function watchInFlight(page: Page): void {
  const pending = new Map<Request, number>();
  inFlight.set(page, pending);
  page.on('request', (request) => pending.set(request, Date.now()));
  // Answered once its response has come (an upload's or a stream's body may never be read).
  page.on('response', (response) => pending.delete(response.request()));
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  page.on('framenavigated', (frame) => {
    // A new document: what the old one had in flight is no longer awaited.
    if (frame === page.mainFrame())
      for (const request of pending.keys()) if (request.frame() !== frame) pending.delete(request);
  });
}

/** How long the page must have had nothing in flight to count as settled. */
const QUIET_MS = 250;
/** A request unanswered this long is held on purpose (a test holding an upload) or a stream: not awaited. */
const HELD_MS = 10_000;

/**
 * Waits until the page has settled: nothing in flight for QUIET_MS (every call the screen made has
 * been answered, but one held for HELD_MS), then two frames drawn. Playwright's `networkidle` asks
 * for 500 ms of silence after a navigation and answers at once after the first (the screens a test
 * opens by clicking were not awaited); this asks for what the screen needs, on every call.
 */
export function settled(page: Page): Promise<void> {
  return timed('settled', () => settledNow(page));
}

async function settledNow(page: Page): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) {
    await page.waitForLoadState('networkidle');
    return;
  }
  await page.waitForLoadState('load');
  const busy = () => {
    const now = Date.now();
    for (const sent of pending.values()) if (now - sent < HELD_MS) return true;
    return false;
  };
  let quietSince = busy() ? 0 : Date.now();
  while (!quietSince || Date.now() - quietSince < QUIET_MS) {
    await new Promise((done) => setTimeout(done, 25));
    if (busy()) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
  }
  await twoFrames(page);
}

/** Resolves once the page has drawn two more frames (what a customer sees after a layout change). */
export async function twoFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

/** The instrument page of BTCUSDT: crypto trades around the clock, so it is open whatever day a test runs. */
export async function btcPagePath(baseUrl: string): Promise<string> {
  return `/instrument?code=BTCUSDT&type=2&id=${await listedCryptoId(baseUrl, 'BTCUSDT')}`;
}

/** Collects uncaught page errors so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Collects the URLs of the page's requests whose URL contains `fragment`, from now on. */
export function watchRequests(page: Page, fragment: string): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(fragment)) urls.push(request.url());
  });
  return urls;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** Runs axe-core in the page (WCAG 2.x A and AA rules) and returns serious and critical violations. */
export function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return timed('axe', () => violationsNow(page));
}

async function violationsNow(page: Page): Promise<AxeViolation[]> {
  // Once per document: after a move inside the app the page still has it (about 0.2-0.4 s a parse).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // Every node of a violation, one of each other result (passes, incomplete): the same
      // violations, in about two thirds of axe's time (it names no passing node).
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** No serious accessibility violation and no sideways scrolling, once the page has settled. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await settled(page);
  expect(await seriousViolations(page), label).toEqual([]);
  // Against the viewport the test asked for, not innerWidth: a phone browser (isMobile) widens its
  // layout viewport with content that sticks out, so innerWidth would hide the overflow.
  const width = page.viewportSize()?.width ?? 0;
  expect(
    await page.evaluate(
      (asked) => document.documentElement.scrollWidth - (asked || window.innerWidth),
      width,
    ),
    label,
  ).toBeLessThanOrEqual(0);
}

/**
 * Runs a step of a test; when it fails, its error says what the page showed instead (its address
 * and its text, cut at 1,500 characters): a step that timed out in a full run names its cause.
 */
export async function explained<T>(
  page: Page,
  step: () => Promise<T>,
  also?: () => Promise<string>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    // One line each, so the run's closing summary keeps them.
    const line = (text: string) => text.replace(/\s*\n\s*/g, ' | ').slice(0, 1500);
    const unread = (reason: Error) => `(not read: ${reason.message})`;
    const shown = await page.locator('body').innerText({ timeout: 5_000 }).catch(unread);
    const more = also ? `\n${line(await also().catch(unread))}` : '';
    const failed = error as Error;
    const said = failed.message;
    failed.message = `${said}${more}\nthe page (${page.url()}) showed: ${line(shown)}`;
    // The report prints the stack, whose head may already hold the message as it was.
    if (failed.stack?.includes(said)) failed.stack = failed.stack.replace(said, failed.message);
    throw failed;
  }
}

/**
 * A screenshot to look at (the whole page, or only the viewport: `fullPage: false`), when
 * SCREENSHOT_DIR names a folder; nothing otherwise: the suite takes none.
 */
export async function screenshotTo(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const folder = process.env.SCREENSHOT_DIR;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: options.fullPage ?? true });
}
