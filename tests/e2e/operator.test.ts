import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANGUAGE_TAGS, LANGUAGES, type Language } from '@swx/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPHONE_UA, launchBrowser, watchErrors } from '../support/browser.ts';
import { HARBOUR_IDENTITY } from '../support/operator.ts';
import { api, ROOT, type RunningServer, startServer } from '../support/server.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';

/**
 * Who operates the platform, as a customer reads it (issue 11 item 4, DESIGN §2 rule 9): in the
 * sandbox default every content page in every language says so and shows no placeholder; once an
 * admin sets the identity through the staff call, the pages, footer and home page show it.
 */
const C = '/swx/customer';
const SHOTS = process.env.SCREENSHOT_DIR;

const seedStatement = (language: Language): string => {
  const seed = JSON.parse(
    readFileSync(
      join(ROOT, 'apps', 'server', 'src', 'modules', 'content', 'seed', `${language}.json`),
      'utf8',
    ),
  ) as { items: { body: string }[] };
  return seed.items[0]?.body.split('\n')[1] ?? '';
};
const footerStatement = (language: Language): string =>
  (
    JSON.parse(readFileSync(join(ROOT, 'apps', 'web', 'src', 'locales', `${language}.json`), 'utf8')) as {
      operator: { sandbox: string };
    }
  ).operator.sandbox;

const IDENTITY = {
  ...HARBOUR_IDENTITY,
  supportPhone: '+357 25 000 000',
  supportHours: { en: 'Mon–Fri 08:00–18:00 CET', ar: 'الاثنين–الجمعة 08:00–18:00' },
  leaders: [
    { name: 'Dana Whitfield', role: { en: 'Chief Executive Officer', ar: 'الرئيسة التنفيذية' } },
    { name: 'Omar Haddad', role: { en: 'Chief Risk Officer' } },
  ],
  partners: [{ name: 'Clearing Partner AG', url: 'https://clearing-partner.ch/' }],
  appStoreUrl: 'https://apps.apple.com/app/id000000001',
  social: [{ network: 'x', url: 'https://x.com/harbourmarkets' }],
};

let server: RunningServer;
let browser: Browser;
let dataDir: string;
let adminToken: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'swx-e2e-operator-'));
  const password = createStaffByCli(dataDir, 'admin@harbour-markets.com', 'admin');
  server = await startServer({}, { dataDir });
  adminToken = (await enrolStaffByApi(server.baseUrl, 'admin@harbour-markets.com', password)).token;
  browser = await launchBrowser();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function contextFor(language: Language, width: 1280 | 390): Promise<BrowserContext> {
  const context = await browser.newContext(
    width === 1280
      ? { baseURL: server.baseUrl, viewport: { width: 1280, height: 900 }, locale: LANGUAGE_TAGS[language] }
      : {
          baseURL: server.baseUrl,
          viewport: { width: 390, height: 844 },
          userAgent: IPHONE_UA,
          isMobile: true,
          hasTouch: true,
          locale: LANGUAGE_TAGS[language],
        },
  );
  await context.addInitScript((lang) => {
    sessionStorage.setItem('welcomeShown', '1');
    localStorage.setItem('language', lang);
  }, language);
  return context;
}

/** The footer list's pages (company, policy, other) in a language: every content page of the site. */
async function contentPages(language: Language): Promise<{ id: number; title: string }[]> {
  const list = await api(server.baseUrl, `${C}/index/listContents/4/2`, {
    headers: { 'accept-language': LANGUAGE_TAGS[language] },
  });
  return list.body.data as { id: number; title: string }[];
}

const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);

async function shoot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe('operator identity on the customer pages', () => {
  it.each(LANGUAGES)(
    '%s, sandbox default: every content page says so, with no placeholder and no .localhost address',
    async (language) => {
      const context = await contextFor(language, 1280);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const pages = await contentPages(language);
      expect(pages.length).toBe(9);
      for (const item of [...pages.map((p) => `/detail?id=${p.id}`), '/introduction']) {
        await page.goto(item);
        await expect.poll(() => page.locator('.prose').count(), { message: `${language} ${item}` }).toBe(1);
        await expect.poll(() => page.locator('[data-sandbox-notice]').count()).toBe(1);
        const text = await visibleText(page);
        expect(text, `${language} ${item}`).not.toContain('[');
        expect(text, `${language} ${item}`).not.toContain('.localhost');
        expect(await page.locator('.prose').innerText(), `${language} ${item}`).toContain(
          seedStatement(language),
        );
        expect(await page.locator('.site-footer').innerText()).toContain(footerStatement(language));
      }
      await page.goto('/');
      await expect.poll(() => page.locator('[data-stat="instruments"]').innerText()).not.toBe('—');
      const home = await visibleText(page);
      expect(home).not.toContain('[');
      expect(home).not.toContain('.localhost');
      // No invented people: no leaders section until the operator names some.
      expect(await page.locator('#leaders-title').count()).toBe(0);
      for (const invented of ['Amara Okafor', 'Lukas Brandt', 'Mei Lin Chen', 'Sofia Marino'])
        expect(home).not.toContain(invented);
      if (language === 'en' || language === 'ar') {
        await shoot(page, `sandbox-home-${language}-1280`);
        await page.goto(`/detail?id=${pages.find((p) => p.title)?.id}`);
        await expect.poll(() => page.locator('.prose').count()).toBe(1);
        await shoot(page, `sandbox-about-${language}-1280`);
        const phone = await (await contextFor(language, 390)).newPage();
        await phone.goto('/introduction');
        await expect.poll(() => phone.locator('.prose').count()).toBe(1);
        expect(await phone.locator('.prose').innerText()).toContain(seedStatement(language));
        expect(
          await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
        await shoot(phone, `sandbox-about-${language}-390`);
        await phone.goto('/');
        await expect.poll(() => phone.locator('[data-sandbox-notice]').count()).toBe(1);
        await shoot(phone, `sandbox-home-${language}-390`);
        await phone.context().close();
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('shows the home-page figures the server counted (DESIGN §2 rule 7)', async () => {
    const stats = (await api(server.baseUrl, `${C}/index/getPlatformStats`)).body.data as {
      registeredUsers: number;
      listedInstruments: number;
      listedCrypto: number;
    };
    const context = await contextFor('en', 1280);
    const page = await context.newPage();
    await page.goto('/');
    await expect
      .poll(() => page.locator('[data-stat="instruments"]').innerText())
      .toBe(new Intl.NumberFormat('en').format(stats.listedInstruments));
    const figure = (value: number) => new Intl.NumberFormat('en').format(value);
    expect(await page.locator('[data-stat="users"]').innerText()).toBe(figure(stats.registeredUsers));
    expect(await page.locator('[data-stat="crypto"]').innerText()).toBe(figure(stats.listedCrypto));
    await context.close();
  });

  it('renders the identity an admin sets through the staff call, in English and Arabic, at 1280 and 390 px', async () => {
    const saved = await api(server.baseUrl, '/swx/admin/settings/operator', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: adminToken },
      body: JSON.stringify(IDENTITY),
    });
    expect(saved.body.code).toBe(200);
    for (const language of ['en', 'ar'] as const) {
      const context = await contextFor(language, 1280);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto('/');
      await expect
        .poll(() => page.locator('.leader h3').allInnerTexts())
        .toEqual(['Dana Whitfield', 'Omar Haddad']);
      const roles = await page.locator('.leader p').allInnerTexts();
      expect(roles).toEqual(
        language === 'ar'
          ? ['الرئيسة التنفيذية', 'Chief Risk Officer']
          : ['Chief Executive Officer', 'Chief Risk Officer'],
      );
      expect(
        await page.locator('.partner-row a', { hasText: 'Clearing Partner AG' }).getAttribute('href'),
      ).toBe('https://clearing-partner.ch/');
      expect(await page.locator('.app-links a').getAttribute('href')).toBe(IDENTITY.appStoreUrl);
      const footer = page.locator('.site-footer');
      await expect.poll(() => footer.innerText()).toContain('Harbour Markets Ltd');
      const footerText = await footer.innerText();
      expect(footerText).toContain('Cyprus Securities and Exchange Commission');
      expect(footerText).toContain('388/20');
      // The risk figure as the browser formats 74.5 % in this language (its ICU, not Node's).
      const percent = await page.evaluate(
        (tag) =>
          new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 2 }).format(
            '74.5E-2' as unknown as number,
          ),
        LANGUAGE_TAGS[language],
      );
      expect(await page.locator('[data-risk-figure]').innerText()).toContain(percent);
      expect(await page.locator('[data-sandbox-notice]').count()).toBe(0);
      expect(await footer.locator('a[href="https://x.com/harbourmarkets"]').count()).toBe(1);
      await shoot(page, `operator-home-${language}-1280`);

      const [legal] = (await contentPages(language)).filter((_, index) => index === 2);
      await page.goto(`/detail?id=${legal?.id}`);
      await expect.poll(() => page.locator('.prose').innerText()).toContain('Harbour Markets Ltd');
      const prose = await page.locator('.prose').innerText();
      for (const value of [
        'HE 412233',
        '12 Quay Street, 3036 Limassol',
        '388/20',
        'help@harbour-markets.com',
      ])
        expect(prose).toContain(value);
      expect(prose).not.toContain(seedStatement(language));
      expect(await visibleText(page)).not.toContain('[');
      await shoot(page, `operator-legal-${language}-1280`);

      const phone = await (await contextFor(language, 390)).newPage();
      await phone.goto(`/detail?id=${legal?.id}`);
      await expect.poll(() => phone.locator('.prose').innerText()).toContain('Harbour Markets Ltd');
      expect(
        await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await shoot(phone, `operator-legal-${language}-390`);
      await phone.goto('/');
      await expect.poll(() => phone.locator('.feature-grid').count()).toBe(1);
      await expect.poll(() => phone.locator('.copyright').innerText()).toContain('Harbour Markets Ltd');
      expect(await phone.locator('[data-sandbox-notice]').count()).toBe(0);
      await shoot(phone, `operator-home-${language}-390`);
      await phone.context().close();
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
