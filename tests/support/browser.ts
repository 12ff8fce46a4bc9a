import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

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
    ],
  });
}

export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export type Layout = 'desktop' | 'mobile';

export async function newContext(browser: Browser, layout: Layout, baseURL: string): Promise<BrowserContext> {
  return layout === 'desktop'
    ? browser.newContext({ baseURL, viewport: { width: 1366, height: 900 }, locale: 'en-US' })
    : browser.newContext({
        baseURL,
        viewport: { width: 390, height: 844 },
        userAgent: IPHONE_UA,
        isMobile: true,
        hasTouch: true,
        locale: 'en-US',
      });
}

export type BrowserSession = { token: string; userInfo: unknown };

/**
 * The context's pages start as after a login with this session (and with the welcome board seen).
 * Seeded once per context, so a logout or a 401 in the test sticks.
 */
export async function holdSession(context: BrowserContext, session: BrowserSession): Promise<void> {
  await context.addInitScript((s) => {
    sessionStorage.setItem('welcomeShown', '1');
    if (localStorage.getItem('seeded')) return;
    localStorage.setItem('seeded', '1');
    localStorage.setItem('token', s.token);
    localStorage.setItem('isLogin', 'true');
    localStorage.setItem('userInfo', JSON.stringify(s.userInfo));
  }, session);
}

/** Collects uncaught page errors so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** Runs axe-core in the page (WCAG 2.x A and AA rules) and returns serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
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
