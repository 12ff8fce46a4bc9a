import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGE_TAGS, LANGUAGES, type Language } from '@swx/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { customerApi, staffApi } from '../support/api.ts';
import { screenshotTo, watchRequests } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { HARBOUR_IDENTITY } from '../support/operator.ts';
import { ContentPage } from '../support/pages/index.ts';
import { ROOT } from '../support/server.ts';

/**
 * Who operates the platform, as a customer reads it (issue 11 item 4, DESIGN §2 rule 9): in the
 * sandbox default every content page in every language says so and shows no placeholder; once an
 * admin sets the identity through the staff call, the pages, footer and home page show it.
 */

const seedStatement = (language: Language): string => {
  const seed = JSON.parse(
    readFileSync(
      join(ROOT, 'apps', 'server', 'src', 'modules', 'content', 'seed', `${language}.json`),
      'utf8',
    ),
  ) as { items: { body: string }[] };
  return seed.items[0]?.body.split('\n')[2] ?? '';
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
  social: [{ network: 'x' as const, url: 'https://x.com/harbourmarkets' }],
};

const app = useApp({ staff: { email: 'admin@harbour-markets.com', role: 'admin' } });

/** A page read as a reader of `language` reads it: at 1280 px, or at a phone's 390 px. */
async function pageFor(language: Language, width: 1280 | 390): Promise<Page> {
  const { page } = await app.open(width === 1280 ? 'desktop' : 'mobile', {
    language,
    locale: LANGUAGE_TAGS[language],
    width: 1280,
  });
  return page;
}

/** The footer list's pages (company, policy, other) in a language: every content page of the site. */
function contentPages(language: Language): Promise<{ id: number; title: string }[]> {
  return customerApi(app.server, null, { language: LANGUAGE_TAGS[language] }).ok('listContentsByList', {
    type: 4,
    x: 2,
  });
}

const visibleText = (page: Page) => new ContentPage(page).visibleText();

describe('operator identity on the customer pages', () => {
  it.each(LANGUAGES)(
    '%s, sandbox default: every content page says so, with no placeholder and no .localhost address',
    async (language) => {
      const { page, errors, context } = await app.open('desktop', {
        language,
        locale: LANGUAGE_TAGS[language],
        width: 1280,
      });
      const content = new ContentPage(page);
      const pages = await contentPages(language);
      expect(pages.length).toBe(9);
      for (const item of [...pages.map((p) => `/detail?id=${p.id}`), '/introduction']) {
        await content.goto(item);
        await expect.poll(() => content.prose.count(), { message: `${language} ${item}` }).toBe(1);
        await expect.poll(() => content.sandboxNotice.count()).toBe(1);
        const text = await content.visibleText();
        expect(text, `${language} ${item}`).not.toContain('[');
        expect(text, `${language} ${item}`).not.toContain('.localhost');
        expect(await content.prose.innerText(), `${language} ${item}`).toContain(seedStatement(language));
        expect(await content.footer.innerText()).toContain(footerStatement(language));
      }
      await content.goto('/');
      await expect.poll(() => content.stat('instruments').innerText()).not.toBe('—');
      const home = await visibleText(page);
      expect(home).not.toContain('[');
      expect(home).not.toContain('.localhost');
      // No invented people: no leaders section until the operator names some.
      expect(await page.locator('#leaders-title').count()).toBe(0);
      for (const invented of ['Amara Okafor', 'Lukas Brandt', 'Mei Lin Chen', 'Sofia Marino'])
        expect(home).not.toContain(invented);
      if (language === 'en' || language === 'ar') {
        await screenshotTo(page, `sandbox-home-${language}-1280`);
        // The article is asked for with the app's first requests (routes.ts firstCall) and the
        // screen takes that answer, in the reader's language: one request.
        const asked = watchRequests(page, '/index/getContentsById/');
        await content.goto(`/detail?id=${pages.find((p) => p.title)?.id}`);
        await expect.poll(() => content.prose.count()).toBe(1);
        expect(asked).toHaveLength(1);
        await screenshotTo(page, `sandbox-about-${language}-1280`);
        const phone = new ContentPage(await pageFor(language, 390));
        await phone.goto('/introduction');
        await expect.poll(() => phone.prose.count()).toBe(1);
        expect(await phone.prose.innerText()).toContain(seedStatement(language));
        expect(await phone.overflow()).toBeLessThanOrEqual(0);
        await screenshotTo(phone.page, `sandbox-about-${language}-390`);
        await phone.goto('/');
        await expect.poll(() => phone.sandboxNotice.count()).toBe(1);
        await screenshotTo(phone.page, `sandbox-home-${language}-390`);
        await phone.close();
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('shows the home-page figures the server counted (DESIGN §2 rule 7)', async () => {
    const stats = await customerApi(app.server).ok('getPlatformStats');
    const home = new ContentPage(await pageFor('en', 1280));
    await home.goto('/');
    await expect
      .poll(() => home.stat('instruments').innerText())
      .toBe(new Intl.NumberFormat('en').format(stats.listedInstruments));
    const figure = (value: number) => new Intl.NumberFormat('en').format(value);
    expect(await home.stat('users').innerText()).toBe(figure(stats.registeredUsers));
    expect(await home.stat('crypto').innerText()).toBe(figure(stats.listedCrypto));
    await home.close();
  });

  it('renders the identity an admin sets through the staff call, in English and Arabic, at 1280 and 390 px', async () => {
    const saved = await staffApi(app.server, await app.staff.session()).call('setOperatorSettings', IDENTITY);
    expect(saved.code).toBe(200);
    for (const language of ['en', 'ar'] as const) {
      const { page, errors, context } = await app.open('desktop', {
        language,
        locale: LANGUAGE_TAGS[language],
        width: 1280,
      });
      const content = new ContentPage(page);
      await content.goto('/');
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
      const footer = content.footer;
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
      expect(await content.sandboxNotice.count()).toBe(0);
      expect(await footer.locator('a[href="https://x.com/harbourmarkets"]').count()).toBe(1);
      await screenshotTo(page, `operator-home-${language}-1280`);

      const [legal] = (await contentPages(language)).filter((_, index) => index === 2);
      await content.goto(`/detail?id=${legal?.id}`);
      await expect.poll(() => content.prose.innerText()).toContain('Harbour Markets Ltd');
      const prose = await content.prose.innerText();
      for (const value of [
        'HE 412233',
        '12 Quay Street, 3036 Limassol',
        '388/20',
        'help@harbour-markets.com',
      ])
        expect(prose).toContain(value);
      expect(prose).not.toContain(seedStatement(language));
      expect(await visibleText(page)).not.toContain('[');
      await screenshotTo(page, `operator-legal-${language}-1280`);

      const phone = new ContentPage(await pageFor(language, 390));
      await phone.goto(`/detail?id=${legal?.id}`);
      await expect.poll(() => phone.prose.innerText()).toContain('Harbour Markets Ltd');
      expect(await phone.overflow()).toBeLessThanOrEqual(0);
      await screenshotTo(phone.page, `operator-legal-${language}-390`);
      await phone.goto('/');
      await expect.poll(() => phone.page.locator('.feature-grid').count()).toBe(1);
      await expect.poll(() => phone.page.locator('.copyright').innerText()).toContain('Harbour Markets Ltd');
      expect(await phone.sandboxNotice.count()).toBe(0);
      await screenshotTo(phone.page, `operator-home-${language}-390`);
      await phone.close();
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
