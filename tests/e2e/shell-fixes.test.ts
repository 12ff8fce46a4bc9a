import { describe, expect, it } from 'vitest';
import { DESKTOP_MIN_WIDTH } from '../../apps/web/src/app/layout.ts';
import { readAllNotices } from '../support/accounts.ts';
import { expectAccessible, screenshotTo, seriousViolations, settled } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { CustodyPage } from '../support/pages/custody-page.ts';
import { KeyboardUser } from '../support/pages/keyboard.ts';
import { MarketPage } from '../support/pages/market-page.ts';
import { MobileShell } from '../support/pages/mobile-shell.ts';
import { ShellReads } from '../support/pages/shell-reads.ts';
import { SwapPage } from '../support/pages/swap-page.ts';

/**
 * The shell's defects of issue 41: a phone's deep link kept past the welcome board (#21), the
 * layout chosen by width as well as by device (#22), the page announced by its own title (#29),
 * and the mobile skip link, the footer's focus ring, whole tab-bar labels, the recovery words'
 * positions and accessible names without bidi controls (#31).
 */
const app = useApp();

const LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'ar', 'ja', 'ko', 'hk', 'zh'] as const;

describe('a phone deep link in a new session (issue 41 #21)', () => {
  it('leaves the welcome board for the linked page: Skip and a signed-in Continue stay on it', async () => {
    const { page } = await app.signedIn('mobile', 'deep-link@example.com', { welcome: true });
    const shell = new MobileShell(page);
    for (const button of ['Skip', 'Continue']) {
      await page.goto('/profile/deposit');
      await shell.welcomeBoard.waitFor();
      await shell.welcomeBoard.getByRole('button', { name: button }).click();
      await expect.poll(() => shell.welcomeBoard.count(), { message: button }).toBe(0);
      expect(shell.pathname(), button).toBe('/profile/deposit');
      await expect.poll(() => shell.mobileTitle.innerText(), { message: button }).toBe('Deposit');
      // The page beneath is shown, and focus is on its heading, not left on the body.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.tagName), { message: button })
        .toBe('H1');
      // A new session for the second button.
      await page.evaluate(() => sessionStorage.removeItem('welcomeShown'));
    }
    await shell.close();
  });

  it("sends a visitor's Continue to registration, which returns to the linked page", async () => {
    const { page } = await app.open('mobile', { welcome: true });
    const shell = new MobileShell(page);
    await page.goto('/profile/deposit');
    await shell.welcomeBoard.getByRole('button', { name: 'Continue' }).click();
    await shell.waitForPath('/pass/register');
    expect(new URL(page.url()).searchParams.get('return')).toBe('/profile/deposit');
    await shell.close();
  });
});

describe('the layout by width as well as by device (issue 41 #22)', () => {
  it('gives a 390 px desktop window the mobile shell, and switches as the window crosses the desktop width', async () => {
    const { page, errors } = await app.open('desktop', { width: 390 });
    const reads = new ShellReads(page);
    await page.goto('/market');
    await page.locator('.tab-bar').waitFor();
    expect(await reads.drawn()).toEqual({ layout: 'mobile', shell: 'mobile', topBar: false, tabBar: true });
    // A desktop browser never gets the phone's welcome board.
    expect(await reads.welcomeBoard.count()).toBe(0);
    await expectAccessible(page, 'desktop browser at 390 px');
    await screenshotTo(page, 'layout-desktop-ua-390-en', { fullPage: false });

    await page.setViewportSize({ width: 1366, height: 900 });
    await page.locator('.top-bar').waitFor();
    expect(await reads.drawn()).toEqual({ layout: 'desktop', shell: 'desktop', topBar: true, tabBar: false });
    expect(await reads.tabRows()).toBe(1);
    await page.setViewportSize({ width: 390, height: 900 });
    await page.locator('.tab-bar').waitFor();
    expect((await reads.drawn()).shell).toBe('mobile');
    expect(errors).toEqual([]);
    await reads.close();
  });

  it('fits the desktop top bar at the desktop width, in every language: the tabs on one row, nothing out of the window', async () => {
    const { page } = await app.open('desktop', { width: DESKTOP_MIN_WIDTH });
    const reads = new ShellReads(page);
    await page.goto('/');
    const wrong: string[] = [];
    for (const language of LANGUAGES) {
      await reads.setLanguage(language);
      await page.reload();
      await page.locator('nav.tabs li').first().waitFor();
      await settled(page);
      if ((await reads.drawn()).shell !== 'desktop') wrong.push(`${language}: not the desktop shell`);
      else if ((await reads.tabRows()) !== 1)
        wrong.push(`${language}: tabs on ${await reads.tabRows()} rows`);
      if ((await reads.overflow()) > 0) wrong.push(`${language}: ${await reads.overflow()} px sideways`);
      if (language === 'es' || language === 'ar')
        await screenshotTo(page, `layout-desktop-${DESKTOP_MIN_WIDTH}-${language}`, { fullPage: false });
    }
    expect(wrong).toEqual([]);
    await reads.close();
  });

  it("does not show a narrow desktop window the desktop screen the build drew: its first paint is the app's layout", async () => {
    const { page, context } = await app.open('desktop', { width: 390 });
    // Without the app's scripts: the page as it arrives.
    await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto('/market', { waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.dataset.firstScreen)).toBe('en desktop');
    expect(await page.evaluate(() => document.documentElement.dataset.layout)).toBe('mobile');
    expect(await page.locator('#root').isVisible()).toBe(false);
    expect(await page.locator('.boot-plain').isVisible()).toBe(true);
    await context.close();

    // At the desktop width the drawn screen is the app's, and shows.
    const wide = await app.open('desktop');
    await wide.context.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await wide.page.goto('/market', { waitUntil: 'load' });
    expect(await wide.page.locator('#root .shell.desktop').isVisible()).toBe(true);
    await wide.context.close();
  });
});

describe('the page announced by its own title (issue 41 #29)', () => {
  it("names an instrument opened from a search by its name, without the search's count", async () => {
    const { page } = await app.open('desktop', { quiet: true });
    const market = new MarketPage(page);
    const reads = new ShellReads(page);
    await market.goto();
    await market.rows.first().waitFor();
    await market.search.fill('0x Protocol');
    await expect.poll(() => reads.announced()).toBe('1 instrument');
    await market.row('ZRXUSDT').locator('a').click();
    await page.locator('.currency-head h1').waitFor();
    await expect.poll(() => reads.announced()).toBe('0x Protocol');
    await reads.close();
  });

  it('names a footer page by its heading, not the route\'s "Information"', async () => {
    const { page } = await app.open('desktop');
    const reads = new ShellReads(page);
    await page.goto('/');
    await page.locator('.site-footer').getByRole('link', { name: 'Terms of service' }).click();
    await page.locator('article h1').waitFor();
    await expect.poll(() => reads.announced()).toBe('Terms of service');
    await reads.close();
  });

  it('still names the page after the outcome that led there', async () => {
    const { page } = await app.signedIn('desktop', 'announce-outcome@example.com');
    const custody = new CustodyPage(page);
    const reads = new ShellReads(page);
    const words = await custody.generate();
    await custody.written();
    await custody.passCheck(words);
    await custody.choosePassphrase('a long custody passphrase');
    await custody.waitForPath('/profile/wallet');
    await expect
      .poll(() => reads.announced())
      .toBe('Your wallet is saved on this device. My self-custody wallet');
    await reads.close();
  });
});

describe('the mobile shell, the footer and the names (issue 41 #31)', () => {
  it('has a skip link on the phone, the first stop of Tab, which moves focus to the main region', async () => {
    const { page } = await app.open('mobile');
    const user = new KeyboardUser(page);
    await page.goto('/market');
    await page.locator('nav.tab-bar').waitFor();
    await page.locator('main h1').waitFor();
    await user.press('Tab');
    await user.expectFocusOn('Skip to main content', 'A');
    await screenshotTo(page, 'skip-link-390-en', { fullPage: false });
    await user.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.close();
  });

  it('draws the focus ring on the dark footer 3:1 against it, by its outer ring', async () => {
    const { page } = await app.open('desktop');
    const reads = new ShellReads(page);
    const user = new KeyboardUser(page);
    await page.goto('/');
    const link = page.locator('.site-footer a').first();
    await link.waitFor();
    await settled(page);
    // Reached by keyboard: the link before it focused, then Tab.
    await link.evaluate((element) => {
      const links = [...document.querySelectorAll<HTMLElement>('a[href], button')];
      links[links.indexOf(element as HTMLElement) - 1]?.focus();
    });
    await user.press('Tab');
    const ring = await reads.focusRing();
    expect(ring.visible).toBe(true);
    expect(ring.contrast, `${ring.ring} on ${ring.surface}`).toBeGreaterThanOrEqual(3);
    // Scrolled to as it took focus.
    await expect.poll(async () => (await user.focus()).inView).toBe(true);
    await user.expectSeen();
    await screenshotTo(page, 'footer-focus-1366-en', { fullPage: false });
    await reads.close();
  });

  it('shows every tab-bar label whole, in every language, at 390 and 320 px', async () => {
    const { page } = await app.open('mobile');
    const reads = new ShellReads(page);
    await page.goto('/nfts');
    const cut: string[] = [];
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      for (const language of LANGUAGES) {
        await reads.setLanguage(language);
        await page.reload();
        await reads.tabLabels.first().waitFor();
        await settled(page);
        cut.push(...(await reads.cutLabels()).map((label) => `${width} ${language}: ${label}`));
        if (width === 390 && (language === 'en' || language === 'ar'))
          await screenshotTo(page, `tab-bar-390-${language}`, { fullPage: false });
      }
    }
    expect(cut).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await reads.close();
  });

  it("gives the recovery words' list its role, and each word its position, to screen readers", async () => {
    const { page } = await app.signedIn('mobile', 'words-list@example.com');
    const custody = new CustodyPage(page);
    const words = await custody.generate();
    expect(await custody.wordList.getAttribute('role')).toBe('list');
    const snapshot = await custody.wordList.ariaSnapshot();
    expect(snapshot).toContain('- list "Your 12 words, in order"');
    for (const [i, word] of words.entries()) expect(snapshot).toContain(`- listitem: ${i + 1} ${word}`);
    await expectAccessible(page, 'the recovery words');
    await custody.close();
  });

  it("names the swap's confirm button without bidi controls, in English and Arabic", async () => {
    const customer = await app.customer('bidi-names@example.com');
    await readAllNotices(app.server, customer.token);
    for (const language of ['en', 'ar']) {
      const { page } = await app.open('desktop', { as: customer, quiet: true, language });
      const swap = new SwapPage(page);
      const reads = new ShellReads(page);
      await swap.goto();
      await swap.choose('USDT', 'BTC');
      await swap.enter('1000');
      await swap.openConfirm();
      const name = await reads.snapshot(swap.confirmButton);
      expect(name, language).toMatch(language === 'en' ? /^- button "Swap 1,000\.00 USDT for / : /USDT/);
      expect(name, language).not.toMatch(/[\u2066-\u2069]/);
      // As Chromium gives it to a screen reader, too.
      expect(
        (await reads.namesWithIsolates()).filter((named) => named.startsWith('button: ')),
        language,
      ).toEqual([]);
      await screenshotTo(page, `swap-confirm-1366-${language}`, { fullPage: false });
      await reads.close();
    }
  });
});
