import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, settled } from '../support/browser.ts';
import { type OpenOptions, useApp } from '../support/e2e.ts';
import { MobileShell, Shell } from '../support/pages/index.ts';

/** Every route of spec §2's table with its English title. */
const ROUTES: readonly [string, string][] = [
  ['/', 'Home'],
  ['/market', 'Markets'],
  ['/trading', 'Smart trading'],
  ['/trading/plans', 'My smart plans'],
  ['/trading/plans/1', 'Smart plan detail'],
  ['/trading/1', 'Smart plan'],
  ['/loan', 'Loans'],
  ['/nfts', 'NFT charity market'],
  ['/profile', 'My account'],
  ['/profile/balance', 'Balance'],
  ['/profile/invite', 'Invite friends'],
  ['/profile/notification', 'Notifications'],
  ['/profile/transactions', 'Transaction record'],
  ['/cruuency?code=BTCUSDT&type=2&id=1', 'Instrument detail'],
  ['/help', 'Help centre'],
  ['/help/faq', 'Frequently asked questions'],
  ['/help/notice', 'Announcements'],
  ['/pass/register', 'Create your account'],
  ['/pass/login', 'Log in'],
  ['/pass/reset', 'Reset your password'],
  ['/detail?id=1&title=About%20us', 'Information'],
  ['/introduction', 'About us'],
  ['/financial/vipInvest', 'VIP finance'],
  ['/financial/vipInvestDetail/1', 'VIP finance detail'],
  ['/financial/cryptoInvest', 'Crypto funds'],
  ['/financial/cryptoInvestDetail', 'Crypto fund detail'],
  ['/financial/myInvest/fund', 'My investments'],
  ['/swap', 'Swap'],
  ['/api/loginCallback/google', 'Signing you in'],
];

// The README's quick start: the server on its data folder's PGlite (the other files' servers run on
// PostgreSQL databases copied from the migrated template).
const app = useApp({ database: 'pglite' });

/** The table in parts of eight routes, each a test with its own time budget (a full load per route). */
const PARTS = Array.from({ length: Math.ceil(ROUTES.length / 8) }, (_, i) => ({
  part: `${i * 8 + 1}-${Math.min(ROUTES.length, i * 8 + 8)}`,
  routes: ROUTES.slice(i * 8, i * 8 + 8),
}));

describe.each(['desktop', 'mobile'] as const)('%s shell', (layout) => {
  it.each(PARTS)('renders routes $part of the table with their localized titles', async ({ routes }) => {
    const { page, errors } = await app.open(layout);
    const shell = new Shell(page);
    const failed: string[] = [];
    for (const [path, title] of routes) {
      await page.goto(path);
      await expect.poll(() => page.title(), { message: path }).toBe(`${title} · SWX`);
      await expect.poll(() => shell.main.innerText(), { message: path }).not.toBe('');
      // Nothing sticks out sideways: no horizontal scrolling at this viewport.
      expect(await shell.overflow(), path).toBeLessThanOrEqual(0);
      failed.push(...errors.splice(0).map((error) => `${path}: ${error}`));
    }
    expect(failed).toEqual([]);
    await shell.close();
  });

  it('sends unknown paths to / and /financial to /financial/cryptoInvest', async () => {
    const { page } = await app.open(layout);
    const shell = new Shell(page);
    await page.goto('/no/such/page?x=1');
    await shell.waitForPath('/');
    await page.goto('/financial');
    await shell.waitForPath('/financial/cryptoInvest');
    await shell.close();
  });

  it('switches to Arabic, flips to right-to-left, reloads content, and keeps it after a reload', async () => {
    const { page } = await app.open(layout);
    const shell = layout === 'desktop' ? new Shell(page) : new MobileShell(page);
    await page.goto('/introduction');
    await expect.poll(() => shell.title.innerText()).toBe('About us');
    await shell.chooseLanguage('ar');
    await expect.poll(() => shell.dir()).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await expect.poll(() => shell.title.innerText()).toBe('من نحن');
    await page.reload();
    await expect.poll(() => shell.dir()).toBe('rtl');
    await expect.poll(() => shell.title.innerText()).toBe('من نحن');
    expect(await shell.stored('language')).toBe('ar');
    await shell.close();
  });

  it('logs the user out on a 401 from the API and lands on /pass/login', async () => {
    // A session the server does not know: a token of the right shape that no login made.
    const { page } = await app.open(layout, {
      as: { token: 'Z'.repeat(43), userInfo: { id: 7, userName: 'ana' } },
    });
    const shell = new Shell(page);
    await page.goto('/market');
    await shell.waitForPath('/pass/login');
    const stored = { token: await shell.stored('token'), isLogin: await shell.stored('isLogin') };
    expect(stored).toEqual({ token: null, isLogin: null });
    await shell.close();
  });

  it('has no serious or critical accessibility violations on the shell', async () => {
    const { page } = await app.open(layout);
    for (const path of ['/', '/market', '/pass/login', '/detail?id=2&title=Licence']) {
      await page.goto(path);
      await settled(page);
      const violations = await seriousViolations(page);
      expect(violations, `${path}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
    }
    await page.context().close();
  });
});

describe('desktop shell', () => {
  it('shows the top bar and footer, hides them on pass pages and the social callback', async () => {
    const { page } = await app.open('desktop');
    const shell = new Shell(page);
    await page.goto('/');
    await shell.footer.locator('a[href^="/detail"]').first().waitFor();
    expect(await shell.chrome()).toMatchObject({ topBar: true, footer: true });
    expect(await shell.tabs()).toEqual(['Home', 'Markets', 'Smart trading', 'Loans', 'NFTs', 'Account']);
    expect(await page.getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Sign up' }).isVisible()).toBe(true);
    expect(await shell.footer.innerText()).toContain(`© ${new Date().getFullYear()} SWX`);
    for (const path of ['/pass/login', '/pass/register', '/pass/reset', '/api/loginCallback/google']) {
      await page.goto(path);
      await shell.main.waitFor();
      expect(await shell.chrome(), path).toMatchObject({ topBar: false, footer: false });
    }
    await shell.close();
  });

  it('opens a footer content link on /detail with its id and title', async () => {
    const { page } = await app.open('desktop');
    const shell = new Shell(page);
    await page.goto('/');
    await shell.footer.getByRole('link', { name: 'Risk warning' }).click();
    await expect.poll(() => page.url()).toMatch(/\/detail\?id=\d+&title=Risk\+warning/);
    await expect.poll(() => page.locator('article h1').innerText()).toBe('Risk warning');
    expect((await page.locator('.prose').innerText()).length).toBeGreaterThan(200);
    await shell.close();
  });

  it('opens customer service in a new window with language and clientId', async () => {
    const { page } = await app.open('desktop', { language: 'hk' });
    await page.goto('/');
    const link = new Shell(page).serviceLink();
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).toBe('/service.html?language=zh');
    const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await popup.waitForLoadState();
    expect(await popup.locator('h1').innerText()).toBe('在线客服');
    await page.context().close();
  });

  it('moves through the top bar with the keyboard, and the language menu closes on Escape', async () => {
    const { page } = await app.open('desktop');
    const shell = new Shell(page);
    await page.goto('/');
    await shell.topBar.locator('.brand').waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(async () => (await shell.focused()).text).toBe('Skip to main content');
    await page.keyboard.press('Tab');
    expect((await shell.focused()).href).toBe('/');
    const language = page.getByRole('button', { name: /Change language/ });
    await language.focus();
    await page.keyboard.press('Enter');
    expect(await language.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await language.getAttribute('aria-expanded')).toBe('false');
    await page.context().close();
  });

  it('keeps the page where its first paint put it while its data arrives (layout shift ≤ 0.05)', async () => {
    const { page } = await app.open('desktop');
    // Every layout shift of the page's life not caused by input, summed: at least Lighthouse's CLS
    // (its worst window of shifts). The footer stood in the first paint of a short screen, then was
    // pushed down as the list or the pairs arrived.
    await page.addInitScript(() => {
      const total = { value: 0 };
      Object.assign(window, { layoutShift: total });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!entry.hadRecentInput) total.value += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of ['/market', '/swap']) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await settled(page);
      const shift = await page.evaluate(
        () => (window as unknown as { layoutShift: { value: number } }).layoutShift.value,
      );
      expect(shift, path).toBeLessThanOrEqual(0.05);
    }
    await page.context().close();
  });
});

describe('mobile shell', () => {
  it('shows the welcome board once per browser session; Continue goes to registration when logged out', async () => {
    const { page } = await app.open('mobile', { welcome: true });
    const shell = new MobileShell(page);
    await page.goto('/');
    const board = shell.welcomeBoard;
    await board.waitFor();
    expect(await board.getByRole('heading').innerText()).toBe('Welcome to SWX');
    await board.getByRole('button', { name: 'Continue' }).click();
    await shell.waitForPath('/pass/register');
    await page.goto('/');
    await shell.main.waitFor();
    expect(await shell.welcomeBoard.count()).toBe(0);
    await shell.close();
  });

  it('Skip goes home, and the board has a language button of its own', async () => {
    const { page } = await app.open('mobile', { welcome: true });
    const shell = new MobileShell(page);
    await page.goto('/market');
    const board = shell.welcomeBoard;
    await board.getByRole('button', { name: 'Language' }).click();
    await board.locator('dialog.language-modal button[data-language="de"]').click();
    await expect.poll(() => board.getByRole('heading', { level: 1 }).innerText()).toBe('Willkommen bei SWX');
    await board.getByRole('button', { name: 'Überspringen' }).click();
    await shell.waitForPath('/');
    expect(await page.evaluate(() => sessionStorage.getItem('welcomeShown'))).toBe('1');
    await shell.close();
  });

  it('has a top bar with title, language, service and Login, a six-icon tab bar, and back away from tab roots', async () => {
    const { page } = await app.open('mobile');
    const shell = new MobileShell(page);
    await page.goto('/');
    await shell.tabBar.waitFor();
    expect(await shell.tabBar.locator('a').count()).toBe(6);
    expect(await shell.mobileTitle.innerText()).toBe('Home');
    expect(await shell.barLink('Log in').isVisible()).toBe(true);
    expect(await shell.barLink('Notifications').count()).toBe(0);
    expect(await shell.back().count()).toBe(0);
    await shell.tabBar.getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => shell.mobileTitle.innerText()).toBe('My account');
    await page.goto('/profile/balance');
    await shell.back().waitFor();
    // Mobile home: feature cards and the footer link lists.
    await page.goto('/');
    await page.locator('.footer-column a[href^="/detail"]').first().waitFor();
    expect(await page.locator('.feature').count()).toBe(6);
    await shell.close();
  });

  it('hides the bars on pass pages and the tab bar on the social callback', async () => {
    const { page } = await app.open('mobile');
    const shell = new MobileShell(page);
    for (const path of ['/pass/login', '/pass/register', '/pass/reset']) {
      await page.goto(path);
      await shell.main.waitFor();
      expect(await shell.chrome(), path).toMatchObject({ mobileBar: false, tabBar: false });
    }
    await page.goto('/api/loginCallback/google');
    await shell.main.waitFor();
    expect(await shell.chrome()).toMatchObject({ mobileBar: true, tabBar: false });
    await shell.close();
  });
});

describe('installable, and offline', () => {
  it('opens offline on the cached shell with the offline message in the reader’s language; API answers are never cached', async () => {
    const { page, context } = await app.open('mobile', { language: 'ar', serviceWorker: true });
    await page.goto('/market');
    await page.locator('h1').first().waitFor();
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    await page.evaluate(() => navigator.serviceWorker.ready);
    const cached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const key of await caches.keys())
        for (const request of await (await caches.open(key)).keys())
          paths.push(new URL(request.url).pathname);
      return paths;
    });
    expect(cached).toContain('/offline.html');
    expect(cached.filter((path) => path.startsWith('/swx/') || path === '/message')).toEqual([]);
    await context.setOffline(true);
    await page.goto('/profile/balance');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.locator('h1:visible').innerText()).toBe('أنت غير متصل بالإنترنت');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('first screens drawn at build time (scripts/prerender.mjs)', () => {
  /** A page for `path` as an Arabic reader's phone opens it, with or without the app's scripts. */
  async function opened(path: string, scripts: boolean, as?: OpenOptions['as']) {
    const { page, context, errors } = await app.open('mobile', { language: 'ar', ...(as ? { as } : {}) });
    await context.addCookies([{ name: 'swx_lang', value: 'ar', url: app.server.baseUrl }]);
    if (!scripts) await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
    // Every layout shift from the first paint on.
    await context.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
          shifts.push(entry.value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The heading as the page arrived, before any script of the app ran.
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        Object.assign(window, { arrivedHeading: document.querySelector('#root h1.page-title') });
      });
    });
    // Without the app, the page as loaded (no app will draw it again: see awaitTheApp).
    if (scripts) await page.goto(path);
    else await page.goto(path, { waitUntil: 'load' });
    return { page, context, errors };
  }
  const headingBox = (page: Page) => page.locator('h1.page-title').first().boundingBox();

  it("shows a signed-out phone visitor the screen itself before the app's script, in Arabic, and the app takes it over in place", async () => {
    const before = await opened('/market', false);
    const root = before.page.locator('#root');
    // The app's own markup of the screen, right to left, inert until the app takes it over.
    await expect
      .poll(() => before.page.evaluate(() => document.documentElement.className))
      .toContain('first-screen');
    expect(await before.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await root.getAttribute('inert')).toBe('');
    expect(await root.locator('.shell.mobile h1.page-title').innerText()).toBe('الأسواق');
    expect(await before.page.locator('.boot-plain').isVisible()).toBe(false);
    expect(await before.page.getByPlaceholder('ابحث بالاسم أو الرمز').isVisible()).toBe(true);
    const drawn = await headingBox(before.page);
    if (process.env.SCREENSHOT_DIR)
      await before.page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/first-screen-market-ar-390.png` });
    await before.context.close();

    const after = await opened('/market', true);
    // The app's screen: its rows, the same heading in the same place, nothing moved.
    await after.page.locator('tr[data-code]').first().waitFor();
    expect(await after.page.locator('#root').getAttribute('inert')).toBeNull();
    expect(await after.page.evaluate(() => document.documentElement.hasAttribute('data-first-screen'))).toBe(
      false,
    );
    expect(await headingBox(after.page)).toEqual(drawn);
    // Taken over as it is (hydrated): the very heading that arrived is the app's.
    expect(
      await after.page.evaluate(
        () => (window as { arrivedHeading?: Element | null }).arrivedHeading?.isConnected === true,
      ),
    ).toBe(true);
    const shifts = await after.page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.01);
    expect(await seriousViolations(after.page)).toEqual([]);
    expect(after.errors).toEqual([]);
    await after.context.close();
  });

  it('keeps it from a signed-in visitor, who sees the plain first paint and then the app', async () => {
    const session = await app.customer('first-screen@example.com');
    const before = await opened('/market', false, session);
    await before.page.locator('.boot-plain').waitFor();
    expect(await before.page.locator('.boot-plain').innerText()).toContain('جارٍ التحميل…');
    expect(await before.page.locator('#root').isVisible()).toBe(false);
    await before.context.close();
    const after = await opened('/market', true, session);
    await after.page.getByRole('heading', { name: 'الأسواق', level: 1 }).first().waitFor();
    expect(await after.page.locator('#root').isVisible()).toBe(true);
    await after.context.close();
  });
});
