import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readAllNotices } from '../support/accounts.ts';
import { btcPagePath, type Layout, screenshotTo, settled, watchErrors } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { SwapPage } from '../support/pages/index.ts';
import {
  type FocusState,
  KeyboardUser,
  PassPagesByKeyboard,
  TradingByKeyboard,
} from '../support/pages/keyboard.ts';
import { ShellReads } from '../support/pages/shell-reads.ts';

/**
 * Keyboard and screen-reader customers (issue 20, WCAG 2.2 AA): each journey is driven by keys
 * alone, and after each step the test asserts where focus is, that its ring is drawn and nothing
 * covers it, and what the app's live region says.
 */
const WEB = join(import.meta.dirname, '..', '..', 'apps', 'web', 'src');
const ar = JSON.parse(readFileSync(join(WEB, 'locales', 'ar.json'), 'utf8')) as {
  a11y: { changeLanguage: string };
  nav: { home: string };
  home: { heroTitle: string };
  title: { home: string };
};
/**
 * Every path of the one route list: app/routes.ts and each feature's routes.ts, from which it is
 * built (read as text: they load the screens' modules).
 */
const ROUTE_FILES = [
  join(WEB, 'app', 'routes.ts'),
  ...readdirSync(join(WEB, 'features'))
    .map((feature) => join(WEB, 'features', feature, 'routes.ts'))
    .filter((file) => existsSync(file)),
];
const ROUTE_PATHS = ROUTE_FILES.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/\{\s*path: '([^']+)'/g)].map((m) => m[1] ?? ''),
);

const app = useApp();

async function freshPage(layout: Layout, viewport?: { width: number; height: number }): Promise<Page> {
  const { page } = await app.open(layout);
  if (viewport) await page.setViewportSize(viewport);
  return page;
}

async function loggedInPage(layout: Layout, email: string, viewport?: { width: number; height: number }) {
  const { page, errors } = await app.signedIn(layout, email);
  if (viewport) await page.setViewportSize(viewport);
  return { page, errors };
}

const path = (page: Page) => new URL(page.url()).pathname;

describe('by keyboard alone', () => {
  it('registers (focus on the first invalid field, then beside a disabled Send code), logs out and logs in', async () => {
    const page = await freshPage('desktop');
    const errors = watchErrors(page);
    const user = new PassPagesByKeyboard(page);
    const email = 'keys@example.com';
    const password = 'typed on keys only';
    await page.goto('/pass/register');
    // The register page keeps its landmarks: a banner with a navigation, and the main region.
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('banner').getByRole('navigation').count()).toBe(1);
    expect(await page.getByRole('main').count()).toBe(1);

    // Submitting from a later field with nothing typed: focus goes to the first invalid field.
    await user.tabTo('Password');
    await user.press('Enter');
    await user.expectFocusOn('Username or email', 'INPUT');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    await user.type(email);

    // Send code: the button is disabled while it counts down; focus moves to the code beside it.
    await user.tabTo('Send code');
    await user.press('Enter');
    await user.expectFocusOn('Verification code', 'INPUT');
    await page.getByRole('status').filter({ hasText: email }).waitFor();
    await user.type(await app.inbox.codeFor(email));
    await user.fill('Password', password);
    await user.fill('Repeat password', password);
    await user.press('Enter');

    // Signed in on My account; the welcome notice opens as a modal dialog and holds focus.
    await expect.poll(() => path(page)).toBe('/profile');
    await page.locator('dialog.notice-dialog[open]').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('dialog.notice-dialog[open]') !== null))
      .toBe(true);
    await user.tabTo('Close');
    await user.press('Enter');
    // The dialog's opener is gone: focus goes to the page's heading, not the body.
    await user.expectFocusOn('My account', 'H1');
    await user.expectAnnounced('My account');

    // Log out: the button leaves with the page; focus lands on the login page's heading.
    await user.tabTo('Log out');
    await user.press('Enter');
    await expect.poll(() => path(page)).toBe('/pass/login');
    await user.expectFocusOn('Log in', 'H1');
    await user.expectAnnounced('Log in');
    expect(await page.getByRole('banner').getByRole('navigation').count()).toBe(1);

    await user.fill('Username or email', email);
    await user.fill('Password', password);
    await user.press('Enter');
    await expect.poll(() => path(page)).toBe('/profile');
    await user.expectFocusOn('My account', 'H1');
    await user.expectAnnounced('My account');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a form being sent says "Sending…" politely (issue 41 #30)', async () => {
    const page = await freshPage('desktop');
    const user = new PassPagesByKeyboard(page);
    // The login is held on its way until the live region has been read, then sent on.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/login/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/pass/login');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await user.fill('Username or email', 'nobody-sending@example.com');
    await user.fill('Password', 'not the password at all');
    await user.press('Enter');
    await user.expectAnnounced('Sending…');
    release();
    await page.locator('.form-error[role="alert"]').waitFor();
    await page.context().close();
  });

  it('opens and closes a position, each outcome announced, focus never on the body', async () => {
    const { page, errors } = await loggedInPage('desktop', 'keys-trade@example.com');
    const user = new TradingByKeyboard(page);
    await page.goto(await btcPagePath(app.server.baseUrl));
    // The ticket is a lazy chunk: tabbing starts once its lots field is on the page.
    await page.getByLabel('Lots', { exact: true }).waitFor();
    await user.tabTo('Lots');
    await user.expectSeen();
    await user.press('ControlOrMeta+A');
    await user.type('0.05');
    await page.locator('.ticket-figures .figures.live').waitFor();
    await user.tabTo('Review order');
    await user.expectSeen();
    await user.press('Enter');
    await page.getByTestId('order-confirm').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[data-testid="order-confirm"]') !== null),
      )
      .toBe(true);
    await user.confirmOrder();
    // The order page: focus on its heading, the outcome and the page announced together.
    await user.expectFocusOn('Order detail', 'H1');
    await user.expectAnnounced('BTCUSDT position opened. Order detail');

    await user.tabTo(/^Close /);
    await user.expectSeen();
    await user.press('Enter');
    const dialog = page.getByTestId('close-dialog').filter({ visible: true });
    await dialog.waitFor();
    // The dialog is outside the table or card it was opened from, in the top layer.
    expect(await dialog.evaluate((element) => element.parentElement === document.body)).toBe(true);
    await user.tabTo('Close now');
    await user.expectSeen();
    await user.press('Enter');
    await user.expectAnnounced(/BTCUSDT closed at .+ Realised profit/);
    // The Close button went with the open position: focus moved on, visibly, not to the body.
    await expect.poll(async () => (await user.focus()).tag).not.toBe('BODY');
    await expect.poll(() => page.locator('button', { hasText: /^Close / }).count()).toBe(0);
    await user.expectSeen();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('switches to Arabic; the language menu closes when focus leaves it; pages announce in Arabic', async () => {
    const page = await freshPage('desktop');
    const user = new KeyboardUser(page);
    await page.goto('/market');
    await page.locator('h1').waitFor();
    const menu = page.locator('.language-menu');
    await user.tabTo(/^Change language/);
    await user.press('Enter');
    await expect.poll(() => menu.isVisible()).toBe(true);
    // Focus leaves the menu backwards: it closes.
    await user.press('Shift+Tab');
    await expect.poll(() => menu.isVisible()).toBe(false);
    await user.tabTo(/^Change language/);
    await user.press('Enter');
    await user.tabTo('العربية');
    await user.expectSeen();
    await user.press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // The chosen option hid with the menu: focus is back on the language button, visibly.
    await user.expectFocusOn(ar.a11y.changeLanguage.replace('{{language}}', 'العربية'), 'BUTTON');
    await expect.poll(() => menu.isVisible()).toBe(false);

    // An in-app navigation in Arabic: focus on the new page's heading, the title announced.
    await user.tabTo(ar.nav.home, { back: true });
    await user.press('Enter');
    await expect.poll(() => path(page)).toBe('/');
    await user.expectFocusOn(ar.home.heroTitle, 'H1');
    await user.expectAnnounced(ar.title.home);
    await page.context().close();
  });

  it('switches to Arabic on the phone through the language dialog, then moves by the tab bar', async () => {
    const page = await freshPage('mobile');
    const user = new KeyboardUser(page);
    // A short page ("opening soon"), so the tab bar is a few Tabs away.
    await page.goto('/nfts');
    await page.locator('main h1').waitFor();
    // The shell's chrome (and its focus handling) arrive as their own chunks: tab once they are here.
    await page.getByRole('button', { name: /^Change language/ }).waitFor();
    await page.locator('nav.tab-bar').waitFor();
    await user.tabTo(/^Change language/);
    await user.press('Enter');
    await page.locator('dialog.language-modal[open]').waitFor();
    await user.tabTo('العربية');
    await user.expectSeen();
    await user.press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // The dialog closed: focus is back on the button that opened it, in view and uncovered.
    await user.expectFocusOn(ar.a11y.changeLanguage.replace('{{language}}', 'العربية'), 'BUTTON');
    await user.tabTo(ar.nav.home);
    await user.expectSeen();
    await user.press('Enter');
    await expect.poll(() => path(page)).toBe('/');
    // The phone's home page has its heading in the top bar: focus goes there.
    await user.expectFocusOn(ar.title.home, 'H1');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('mobile-title'))).toBe(true);
    await user.expectAnnounced(ar.title.home);
    await page.context().close();
  });

  it('a chart period and the watchlist star say what they are, in words and by state', async () => {
    const { page } = await loggedInPage('desktop', 'keys-names@example.com');
    const user = new KeyboardUser(page);
    await page.goto(await btcPagePath(app.server.baseUrl));
    const star = page.getByRole('button', { name: 'Bitcoin in watchlist' });
    await star.waitFor();
    await user.tabTo('Bitcoin in watchlist');
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await user.press('Space');
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    await user.expectFocusOn('Bitcoin in watchlist', 'BUTTON');
    await user.tabTo('1 day');
    await user.press('Enter');
    await expect
      .poll(() => page.getByRole('button', { name: '1 day', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    await page.context().close();
  });

  it("Tab reaches an amount's Max button, named without bidi controls, in English and Arabic (issue 41 #17)", async () => {
    const customer = await app.customer('keys-max@example.com');
    await readAllNotices(app.server, customer.token);
    for (const [language, max] of [
      ['en', /^Max \(pay /],
      ['ar', /^الحد الأقصى \(ادفع /],
    ] as const) {
      const { page, context } = await app.open('desktop', { as: customer, language, quiet: true });
      const swap = new SwapPage(page);
      await swap.goto();
      await swap.choose('USDT', 'BTC');
      await swap.max.waitFor();
      await swap.amount.focus();
      await new KeyboardUser(page).tabTo(max, { max: 4 });
      // The name as Playwright and as Chromium's accessibility tree give it: the amount, no U+2066–2069.
      const name = await swap.max.ariaSnapshot();
      expect(name, language).toMatch(/USDT\)"$/);
      expect(name, language).not.toMatch(/[\u2066-\u2069]/);
      const named = await new ShellReads(page).namesWithIsolates();
      expect(
        named.filter((n) => n.startsWith('button: ')),
        language,
      ).toEqual([]);
      await screenshotTo(page, `swap-max-1366-${language}`);
      await context.close();
    }
  });
});

/** The layouts at 100% and at 200% zoom (half the CSS pixels, the same screen). */
const ZOOMS: { layout: Layout; viewport: { width: number; height: number }; label: string }[] = [
  { layout: 'desktop', viewport: { width: 1366, height: 900 }, label: 'desktop 100%' },
  { layout: 'desktop', viewport: { width: 683, height: 450 }, label: 'desktop 200%' },
  { layout: 'mobile', viewport: { width: 390, height: 844 }, label: 'mobile 100%' },
  { layout: 'mobile', viewport: { width: 195, height: 422 }, label: 'mobile 200%' },
];

describe('focus not hidden (WCAG 2.4.11)', () => {
  it.each(ZOOMS)(
    'no focused control is under the top bar or the tab bar: $label',
    async ({ layout, viewport }) => {
      const { page } = await loggedInPage(layout, `keys-zoom-${viewport.width}@example.com`, viewport);
      const user = new KeyboardUser(page);
      const hidden: string[] = [];
      for (const start of ['/', await btcPagePath(app.server.baseUrl)]) {
        await page.goto(start);
        await settled(page);
        // Forward through the page, then back up, where the sticky bar is above.
        for (const key of ['Tab', 'Shift+Tab']) {
          for (let i = 0; i < 70; i++) {
            await user.press(key);
            const now = await user.focus();
            if (now.tag === 'BODY') continue;
            if (!now.inView || !now.uncovered) {
              // Said with where it was, and where it is two frames later (still hidden, or moved).
              const later = await user.focusAfterFrames();
              const state = (f: FocusState) =>
                f.inView ? (f.uncovered ? 'seen' : 'covered') : 'out of view';
              hidden.push(
                `${start} ${key} #${i}: ${now.tag} "${now.name}" ${state(now)} (${now.where}); two frames later ${state(later)} (${later.where})`,
              );
            }
          }
        }
      }
      expect(hidden).toEqual([]);
      await page.context().close();
    },
  );
});

describe('focus not hidden: a control Tabbed onto from right behind a bar is scrolled clear of it', () => {
  const CASES: { label: string; layout: Layout; zoom: number; page: string; selector: string }[] = [
    { label: 'the watchlist star', layout: 'desktop', zoom: 1, page: '/market', selector: '.star' },
    {
      label: 'the ticket lots field',
      layout: 'desktop',
      zoom: 1,
      page: 'btc',
      selector: 'input[name="lots"]',
    },
    { label: 'a footer link', layout: 'desktop', zoom: 1, page: '/', selector: '.site-footer a' },
    { label: 'the watchlist star', layout: 'mobile', zoom: 1, page: '/market', selector: '.star' },
    {
      label: 'the ticket lots field',
      layout: 'mobile',
      zoom: 2,
      page: 'btc',
      selector: 'input[name="lots"]',
    },
  ];
  it.each(CASES)('$label, $layout at $zoom×', async ({ layout, zoom, page: at, selector }) => {
    const viewport =
      layout === 'desktop'
        ? { width: 1366 / zoom, height: 900 / zoom }
        : { width: 390 / zoom, height: 844 / zoom };
    const { page } = await loggedInPage(
      layout,
      `keys-bar-${layout}-${zoom}-${selector.length}@example.com`,
      viewport,
    );
    const user = new KeyboardUser(page);
    await page.goto(at === 'btc' ? await btcPagePath(app.server.baseUrl) : at);
    await page.locator(selector).first().waitFor();
    await settled(page);
    const bars = layout === 'desktop' ? (['top'] as const) : (['top', 'bottom'] as const);
    for (const bar of bars) {
      for (const back of [false, true]) {
        const now = await user.tabOntoBehindBar(selector, bar, back);
        expect(now.tag, `${bar} ${back}`).not.toBe('BODY');
        expect(now.inView && now.uncovered, `${bar} bar, ${back ? 'Shift+Tab' : 'Tab'}: ${now.name}`).toBe(
          true,
        );
      }
    }
    await page.context().close();
  });
});

/** A concrete path for each route of the one route list. */
function concrete(route: string): string {
  return route
    .replace(':id', '1')
    .replace(':info', '1')
    .replace(':productId', '1')
    .replace(':type', 'current')
    .replace(':provider', 'google')
    .replace('*', 'somewhere');
}

describe('reflow at 320 CSS px (WCAG 1.4.10)', () => {
  it.each([
    { layout: 'desktop', language: 'en' },
    { layout: 'mobile', language: 'en' },
    { layout: 'mobile', language: 'ar' },
  ] as const)(
    '$layout, $language: no route of app/routes.ts scrolls sideways',
    async ({ layout, language }) => {
      const { page, errors } = await loggedInPage(layout, `keys-reflow-${layout}-${language}@example.com`, {
        width: 320,
        height: 640,
      });
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
      const instrument = await btcPagePath(app.server.baseUrl);
      const wide: string[] = [];
      expect(ROUTE_PATHS.length).toBeGreaterThan(30);
      // One load, then every route by the app's own navigation (as a customer moves): each page
      // drawn at 320 px without a cold start per route.
      await page.goto('/');
      await settled(page);
      for (const route of ROUTE_PATHS) {
        // The instrument page with a listed instrument: its longest labels and the order ticket.
        const at = route === '/cruuency' || route === '/instrument' ? instrument : concrete(route);
        await page.evaluate((path) => {
          history.pushState(null, '', path);
          dispatchEvent(new PopStateEvent('popstate'));
        }, at);
        await settled(page);
        await page
          .locator('main#main')
          .waitFor({ timeout: 10_000 })
          .catch(() => wide.push(`${at}: no main drawn`));
        // Against the 320 px asked for, not innerWidth: a phone browser widens its layout viewport
        // to content that sticks out, and innerWidth with it.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - 320);
        if (overflow > 0) wide.push(`${at}: ${overflow} px`);
      }
      expect(wide).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    // Every route of the table (over 50 pages, each loaded and settled): a budget for the whole
    // walk on a busy two-core machine, not a speed asserted.
    300_000,
  );
});
