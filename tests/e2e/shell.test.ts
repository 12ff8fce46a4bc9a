import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Layout,
  launchBrowser,
  newContext,
  seriousViolations,
  watchErrors,
} from '../support/browser.ts';
import { type RunningServer, startServer } from '../support/server.ts';

/** Every route of spec §2's table with its English title. */
const ROUTES: readonly [string, string][] = [
  ['/', 'Home'],
  ['/market', 'Markets'],
  ['/trading', 'Smart trading'],
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
  ['/financial/myInvest/1', 'My investments'],
  ['/swap', 'Swap'],
  ['/api/loginCallback/google', 'Signing you in'],
];

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page in a fresh context; mobile pages start with the welcome board already seen unless asked. */
async function open(
  layout: Layout,
  options: { welcome?: boolean; init?: () => void } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, layout, server.baseUrl);
  if (!options.welcome) await context.addInitScript(() => sessionStorage.setItem('welcomeShown', '1'));
  if (options.init) await context.addInitScript(options.init);
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

const chrome = (page: Page) =>
  page.evaluate(() => ({
    topBar: document.querySelector('.top-bar') !== null,
    footer: document.querySelector('.site-footer') !== null,
    mobileBar: document.querySelector('.mobile-bar') !== null,
    tabBar: document.querySelector('.tab-bar') !== null,
  }));

describe.each(['desktop', 'mobile'] as const)('%s shell', (layout) => {
  it('renders every route of the table with its localized title', async () => {
    const { page, errors } = await open(layout);
    for (const [path, title] of ROUTES) {
      await page.goto(path);
      await expect.poll(() => page.title(), { message: path }).toBe(`${title} · SWX`);
      await expect.poll(() => page.locator('main#main').innerText(), { message: path }).not.toBe('');
      // Nothing sticks out sideways: no horizontal scrolling at this viewport.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        path,
      ).toBeLessThanOrEqual(0);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('sends unknown paths to / and /financial to /financial/cryptoInvest', async () => {
    const { page } = await open(layout);
    await page.goto('/no/such/page?x=1');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await page.goto('/financial');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/financial/cryptoInvest');
    await page.context().close();
  });

  it('switches to Arabic, flips to right-to-left, reloads content, and keeps it after a reload', async () => {
    const { page } = await open(layout);
    await page.goto('/introduction');
    await expect.poll(() => page.locator('h1.page-title').innerText()).toBe('About us');
    if (layout === 'desktop') {
      await page
        .getByRole('button', { name: /Change language/ })
        .first()
        .click();
    } else {
      await page
        .locator('.mobile-bar')
        .getByRole('button', { name: /Change language/ })
        .click();
    }
    await page.locator('button[data-language="ar"]').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await expect.poll(() => page.locator('h1.page-title').innerText()).toBe('من نحن');
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => page.locator('h1.page-title').innerText()).toBe('من نحن');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('ar');
    await page.context().close();
  });

  it('logs the user out on a 401 from the API and lands on /pass/login', async () => {
    const { page } = await open(layout, {
      init: () => {
        if (!sessionStorage.getItem('seeded')) {
          sessionStorage.setItem('seeded', '1');
          localStorage.setItem('token', 'Z'.repeat(43));
          localStorage.setItem('isLogin', 'true');
          localStorage.setItem('userInfo', JSON.stringify({ id: 7, userName: 'ana' }));
        }
      },
    });
    await page.goto('/market');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/pass/login');
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      isLogin: localStorage.getItem('isLogin'),
    }));
    expect(stored).toEqual({ token: null, isLogin: null });
    await page.context().close();
  });

  it('has no serious or critical accessibility violations on the shell', async () => {
    const { page } = await open(layout);
    for (const path of ['/', '/market', '/pass/login', '/detail?id=2&title=Licence']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const violations = await seriousViolations(page);
      expect(violations, `${path}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
    }
    await page.context().close();
  });
});

describe('desktop shell', () => {
  it('shows the top bar and footer, hides them on pass pages and the social callback', async () => {
    const { page } = await open('desktop');
    await page.goto('/');
    await page.locator('.site-footer a[href^="/detail"]').first().waitFor();
    expect(await chrome(page)).toMatchObject({ topBar: true, footer: true });
    const tabs = await page.locator('nav.tabs a').allInnerTexts();
    expect(tabs).toEqual(['Home', 'Markets', 'Smart trading', 'Loans', 'NFTs', 'Account']);
    expect(await page.getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Sign up' }).isVisible()).toBe(true);
    expect(await page.locator('.site-footer').innerText()).toContain(`© ${new Date().getFullYear()} SWX`);
    for (const path of ['/pass/login', '/pass/register', '/pass/reset', '/api/loginCallback/google']) {
      await page.goto(path);
      await page.locator('main#main').waitFor();
      expect(await chrome(page), path).toMatchObject({ topBar: false, footer: false });
    }
    await page.context().close();
  });

  it('opens a footer content link on /detail with its id and title', async () => {
    const { page } = await open('desktop');
    await page.goto('/');
    await page.locator('.site-footer').getByRole('link', { name: 'Risk warning' }).click();
    await expect.poll(() => page.url()).toMatch(/\/detail\?id=\d+&title=Risk\+warning/);
    await expect.poll(() => page.locator('article h1').innerText()).toBe('Risk warning');
    expect((await page.locator('.prose').innerText()).length).toBeGreaterThan(200);
    await page.context().close();
  });

  it('opens customer service in a new window with language and clientId', async () => {
    const { page } = await open('desktop', {
      init: () => {
        localStorage.setItem('language', 'hk');
      },
    });
    await page.goto('/');
    const link = page.locator('.top-bar a[href^="/service.html"]');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).toBe('/service.html?language=zh');
    const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await popup.waitForLoadState();
    expect(await popup.locator('h1').innerText()).toBe('在线客服');
    await page.context().close();
  });

  it('moves through the top bar with the keyboard, and the language menu closes on Escape', async () => {
    const { page } = await open('desktop');
    await page.goto('/');
    await page.locator('.top-bar .brand').waitFor();
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Skip to main content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('/');
    const language = page.getByRole('button', { name: /Change language/ });
    await language.focus();
    await page.keyboard.press('Enter');
    expect(await language.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await language.getAttribute('aria-expanded')).toBe('false');
    await page.context().close();
  });
});

describe('mobile shell', () => {
  it('shows the welcome board once per browser session; Continue goes to registration when logged out', async () => {
    const { page } = await open('mobile', { welcome: true });
    await page.goto('/');
    const board = page.locator('dialog.welcome-board');
    await board.waitFor();
    expect(await board.getByRole('heading').innerText()).toBe('Welcome to SWX');
    await board.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/pass/register');
    await page.goto('/');
    await page.locator('main#main').waitFor();
    expect(await page.locator('dialog.welcome-board').count()).toBe(0);
    await page.context().close();
  });

  it('Skip goes home, and the board has a language button of its own', async () => {
    const { page } = await open('mobile', { welcome: true });
    await page.goto('/market');
    const board = page.locator('dialog.welcome-board');
    await board.getByRole('button', { name: 'Language' }).click();
    await board.locator('dialog.language-modal button[data-language="de"]').click();
    await expect.poll(() => board.getByRole('heading', { level: 1 }).innerText()).toBe('Willkommen bei SWX');
    await board.getByRole('button', { name: 'Überspringen' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => sessionStorage.getItem('welcomeShown'))).toBe('1');
    await page.context().close();
  });

  it('has a top bar with title, language, service and Login, a six-icon tab bar, and back away from tab roots', async () => {
    const { page } = await open('mobile');
    await page.goto('/');
    await page.locator('.tab-bar').waitFor();
    expect(await page.locator('.tab-bar a').count()).toBe(6);
    expect(await page.locator('.mobile-title').innerText()).toBe('Home');
    expect(await page.locator('.mobile-bar').getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
    expect(await page.locator('.mobile-bar').getByRole('link', { name: 'Notifications' }).count()).toBe(0);
    expect(await page.locator('.mobile-bar').getByRole('button', { name: 'Back' }).count()).toBe(0);
    await page.locator('.tab-bar').getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => page.locator('.mobile-title').innerText()).toBe('My account');
    await page.goto('/profile/balance');
    await page.locator('.mobile-bar').getByRole('button', { name: 'Back' }).waitFor();
    // Mobile home: feature cards and the footer link lists.
    await page.goto('/');
    await page.locator('.footer-column a[href^="/detail"]').first().waitFor();
    expect(await page.locator('.feature').count()).toBe(6);
    await page.context().close();
  });

  it('hides the bars on pass pages and the tab bar on the social callback', async () => {
    const { page } = await open('mobile');
    for (const path of ['/pass/login', '/pass/register', '/pass/reset']) {
      await page.goto(path);
      await page.locator('main#main').waitFor();
      expect(await chrome(page), path).toMatchObject({ mobileBar: false, tabBar: false });
    }
    await page.goto('/api/loginCallback/google');
    await page.locator('main#main').waitFor();
    expect(await chrome(page)).toMatchObject({ mobileBar: true, tabBar: false });
    await page.context().close();
  });
});
