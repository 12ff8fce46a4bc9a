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
    await page.getByRole('button', { name: '1d', exact: true }).click();
    await expect
      .poll(() => page.getByRole('button', { name: '1d', exact: true }).getAttribute('aria-pressed'))
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
    await page.getByRole('button', { name: 'Add Solana to watchlist' }).click();
    await page.getByRole('button', { name: 'Remove Solana from watchlist' }).waitFor();
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
