import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, startServerWithInbox } from '../support/accounts.ts';
import { launchBrowser, newContext, seriousViolations, watchErrors } from '../support/browser.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

let server: RunningServer;
let inbox: Inbox;
let stop: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  ({ server, inbox, stop } = await startServerWithInbox());
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stop?.();
});

async function open(
  layout: 'desktop' | 'mobile',
  init?: (token: string) => void,
  token = '',
): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, layout, server.baseUrl);
  await context.addInitScript(() => sessionStorage.setItem('welcomeShown', '1'));
  if (init) await context.addInitScript(init, token);
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

describe('markets in the browser', () => {
  it('updates the home list live, with the change shown by sign and arrow', async () => {
    const { page, errors } = await open('desktop');
    await page.goto('/');
    const btc = page.locator('tr[data-code="BTCUSDT"] .price');
    await btc.waitFor();
    const first = await btc.getAttribute('data-price');
    await expect.poll(() => btc.getAttribute('data-price'), { timeout: 8000 }).not.toBe(first);
    const change = await page.locator('tr[data-code="BTCUSDT"] .change').innerText();
    expect(change).toMatch(/^([▲▼]\s*(Up|Down)\s*[+-]\d+\.\d{2}|0\.00)%$/);
    expect(await page.locator('tr[data-code="BTCUSDT"] svg.sparkline polyline').count()).toBe(1);
    // The figures are the server's counts: 350+ cryptocurrencies is true because they are listed.
    await expect
      .poll(async () => Number((await page.locator('[data-stat="crypto"]').innerText()).replace(/\D/g, '')))
      .toBeGreaterThanOrEqual(350);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('switches market tabs with mouse and keyboard, searches and sorts', async () => {
    const { page } = await open('desktop');
    await page.goto('/market');
    await page.locator('tr[data-code="BTCUSDT"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(350);
    await page.getByRole('tab', { name: 'Forex' }).click();
    await page.locator('tr[data-code="EURUSD"]').waitFor();
    await page.getByRole('tab', { name: 'Forex' }).press('ArrowRight');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Crypto' }).getAttribute('aria-selected'))
      .toBe('true');
    await page.getByRole('tab', { name: 'Metals' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(4);
    await page.getByRole('tab', { name: 'Stocks' }).click();
    await page.getByPlaceholder('Search by name or code').fill('apple');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').first().getAttribute('data-code')).toBe('AAPL');
    await page.getByPlaceholder('Search by name or code').fill('');
    await page.getByLabel('Sort by').selectOption('change');
    const changes = await page
      .locator('tbody tr')
      .evaluateAll((rows) => rows.slice(0, 10).map((r) => r.querySelector('.change')?.textContent ?? ''));
    const values = changes.map((c) => Number(c.replace(/[^\d.+-]/g, '')));
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('draws the candle chart on the instrument page and changes timeframe', async () => {
    const { page } = await open('desktop');
    await page.goto('/market');
    await page.locator('tr[data-code="ETHUSDT"] a').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/cruuency');
    expect(new URL(page.url()).searchParams.get('code')).toBe('ETHUSDT');
    const chart = page.locator('.candle-chart');
    await expect.poll(() => chart.getAttribute('data-candles'), { timeout: 15_000 }).toBe('300');
    await expect.poll(() => chart.locator('canvas').count()).toBeGreaterThan(0);
    // Chart periods are spoken in words ("1 day"), the abbreviation being decoration.
    await page.getByRole('button', { name: '1 day', exact: true }).click();
    await expect
      .poll(() => page.getByRole('button', { name: '1 day', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    await expect.poll(() => chart.getAttribute('data-candles')).toBe('300');
    expect(await page.getByText('24h high').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('keeps the watchlist across reloads (mobile)', async () => {
    const registered = { data: await registerByApi(server, inbox, 'stars@example.com') };
    const { page } = await open(
      'mobile',
      (session) => {
        const s = JSON.parse(session) as { token: string; userInfo: unknown };
        localStorage.setItem('token', s.token);
        localStorage.setItem('isLogin', 'true');
        localStorage.setItem('userInfo', JSON.stringify(s.userInfo));
      },
      JSON.stringify(registered.data),
    );
    await page.goto('/market?tab=crypto');
    await page.locator('dialog.notice-dialog[open]').getByRole('button', { name: 'Close' }).click();
    await page.locator('tr[data-code="BTCUSDT"]').waitFor();
    // The list fits the phone: name, price and change visible without sideways scrolling.
    expect(
      await page.locator('.table-scroll').evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBeLessThanOrEqual(0);
    // One label; the state is aria-pressed.
    const star = page.getByRole('button', { name: 'Solana in watchlist' });
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    await page.goto('/market?tab=watchlist');
    await page.locator('tr[data-code="SOLUSDT"]').waitFor();
    await page.reload();
    await page.locator('tr[data-code="SOLUSDT"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.context().close();
  });
});

type ListedItem = {
  id: number;
  code: string;
  open: boolean;
  zdf: string;
  price: string;
  bid: string;
  ask: string;
};
async function listed(type: number, code: string): Promise<ListedItem> {
  const list = (await (
    await fetch(`${server.baseUrl}/swx/customer/index/listMarketByType?type=${type}`)
  ).json()) as { data: ListedItem[] };
  const found = list.data.find((item) => item.code === code);
  if (!found) throw new Error(`${code} is not listed`);
  return found;
}

/** Everything the instrument page shows of its quote, read in one go (one rendered frame). */
function readQuote(page: Page) {
  return page.evaluate(() => {
    const value = (selector: string) => document.querySelector(selector)?.getAttribute('data-value') ?? null;
    const text = (selector: string) => document.querySelector(selector)?.textContent ?? null;
    return {
      headline: document.querySelector('[data-testid="live-price"]')?.getAttribute('data-price') ?? null,
      pageBid: value('[data-quote="bid"]'),
      pageAsk: value('[data-quote="ask"]'),
      pageBidText: text('[data-quote="bid"] dd'),
      pageAskText: text('[data-quote="ask"] dd'),
      ticketBid: value('.ticket-figures [data-figure="bid"]'),
      ticketAsk: value('.ticket-figures [data-figure="ask"]'),
      ticketBidText: text('.ticket-figures [data-figure="bid"] dd'),
      ticketAskText: text('.ticket-figures [data-figure="ask"] dd'),
    };
  });
}

describe('one quote per screen', () => {
  for (const [layout, language] of [
    ['desktop', 'en'],
    ['mobile', 'ar'],
  ] as const) {
    it(`shows the same bid and ask on the instrument page and in the ticket, the headline inside them (${layout}, ${language})`, async () => {
      const btc = await listed(2, 'BTCUSDT');
      const { page, errors } = await open(layout, (lang) => localStorage.setItem('language', lang), language);
      await page.goto(`/cruuency?code=BTCUSDT&type=2&id=${btc.id}`);
      await page.locator('.ticket-figures [data-figure="bid"]').waitFor();
      const seen = new Set<string>();
      // Several ticks: each frame shows one quote, wherever it is read.
      for (let i = 0; i < 12 && seen.size < 3; i++) {
        const q = await readQuote(page);
        expect(q.pageBid).not.toBeNull();
        expect(q.pageBid).toBe(q.ticketBid);
        expect(q.pageAsk).toBe(q.ticketAsk);
        expect(q.pageBidText).toBe(q.ticketBidText);
        expect(q.pageAskText).toBe(q.ticketAskText);
        expect(Number(q.headline)).toBeGreaterThanOrEqual(Number(q.pageBid));
        expect(Number(q.headline)).toBeLessThanOrEqual(Number(q.pageAsk));
        seen.add(`${q.pageBid}/${q.pageAsk}`);
        await page.waitForTimeout(700);
      }
      // The quote did move while we read it (the ticket follows the market each second).
      expect(seen.size).toBeGreaterThan(1);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('marks a closed market in words and shows one change on the list and the page', async () => {
    // Stocks trade in New York hours; whichever the time, the page and the list must agree with the feed.
    const aapl = await listed(3, 'AAPL');
    const { page } = await open('mobile');
    await page.goto('/market?tab=stocks');
    const row = page.locator('tr[data-code="AAPL"]');
    await row.waitFor();
    const rowBadge = row.locator('.badge');
    await page.goto(`/cruuency?code=AAPL&type=3&id=${aapl.id}`);
    await page.locator('[data-testid="live-price"]').waitFor();
    const q = await readQuote(page);
    expect(Number(q.headline)).toBeGreaterThanOrEqual(Number(q.pageBid));
    expect(Number(q.headline)).toBeLessThanOrEqual(Number(q.pageAsk));
    const now = await listed(3, 'AAPL');
    if (!now.open) {
      // Closed: the same mark in words on the page as on the list, and the same change: the last
      // trading day's, which does not move while the market is closed.
      await page.getByTestId('closed-mark').waitFor();
      expect(await page.getByTestId('closed-mark').innerText()).toBe('Closed');
      await page.getByText('The change is that of its last trading day, up to the last close.').waitFor();
      const pageChange = await page.locator('.currency-price .change').innerText();
      await page.goto('/market?tab=stocks');
      await row.waitFor();
      expect(await rowBadge.innerText()).toBe('Closed');
      expect(await row.locator('.change').innerText()).toBe(pageChange);
      expect(q.headline).toBe(now.price);
      expect(q.pageBid).toBe(now.bid);
      expect(q.pageAsk).toBe(now.ask);
      expect(Number(now.zdf)).not.toBe(0);
    } else {
      expect(await page.getByTestId('closed-mark').count()).toBe(0);
      await page.goto('/market?tab=stocks');
      await row.waitFor();
      expect(await rowBadge.count()).toBe(0);
    }
    await page.context().close();
  });
});
