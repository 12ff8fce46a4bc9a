import { describe, expect, it } from 'vitest';
import { customerApi } from '../support/api.ts';
import { seriousViolations, watchRequests } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { InstrumentPage, MarketPage, NoticeDialog } from '../support/pages/index.ts';

const app = useApp();

describe('markets in the browser', () => {
  it('updates the home list live, with the change shown by sign and arrow', async () => {
    const { page, errors } = await app.open('desktop');
    const home = new MarketPage(page);
    await page.goto('/');
    const btc = home.row('BTCUSDT').locator('.price');
    await btc.waitFor();
    const first = await btc.getAttribute('data-price');
    await expect.poll(() => btc.getAttribute('data-price'), { timeout: 8000 }).not.toBe(first);
    const change = await home.row('BTCUSDT').locator('.change').innerText();
    expect(change).toMatch(/^([▲▼]\s*(Up|Down)\s*[+-]\d+\.\d{2}|0\.00)%$/);
    expect(await home.row('BTCUSDT').locator('svg.sparkline polyline').count()).toBe(1);
    // The figures are the server's counts: 350+ cryptocurrencies is true because they are listed.
    await expect
      .poll(async () => Number((await page.locator('[data-stat="crypto"]').innerText()).replace(/\D/g, '')))
      .toBeGreaterThanOrEqual(350);
    expect(errors).toEqual([]);
    await home.close();
  });

  it('switches market tabs with mouse and keyboard, searches and sorts', async () => {
    const { page } = await app.open('desktop');
    const market = new MarketPage(page);
    await market.goto();
    await market.rows.first().waitFor();
    // A long list renders the rows in view; the table still states every row and each row's place.
    expect(await market.listed()).toBeGreaterThanOrEqual(350);
    expect(await market.rows.count()).toBeLessThan(100);
    expect((await market.rowIndexes()).slice(0, 3)).toEqual([2, 3, 4]);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(async () => (await market.rowIndexes()).at(-1)).toBe((await market.listed()) + 1);
    await market.show('BTCUSDT');
    await market.tab('Forex').click();
    await market.show('EURUSD');
    await market.tab('Forex').press('ArrowRight');
    await expect.poll(() => market.tab('Crypto').getAttribute('aria-selected')).toBe('true');
    await market.tab('Metals').click();
    await expect.poll(() => market.rows.count()).toBe(4);
    await market.tab('Stocks').click();
    await market.search.fill('apple');
    await expect.poll(() => market.rows.count()).toBe(1);
    expect(await market.rows.first().getAttribute('data-code')).toBe('AAPL');
    await market.search.fill('');
    await market.sortBy('change');
    const values = await market.changes(10);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    expect(await seriousViolations(page)).toEqual([]);
    await market.close();
  });

  it('draws the candle chart on the instrument page and changes timeframe', async () => {
    const { page } = await app.open('desktop');
    const market = new MarketPage(page);
    await market.goto();
    await (await market.show('ETHUSDT')).locator('a').click();
    const instrument = new InstrumentPage(page);
    await instrument.waitForPath('/instrument');
    expect(new URL(page.url()).searchParams.get('code')).toBe('ETHUSDT');
    const chart = instrument.chart;
    // Drawn once in view.
    await instrument.chartSlot.scrollIntoViewIfNeeded();
    await expect.poll(() => chart.getAttribute('data-candles'), { timeout: 15_000 }).toBe('300');
    await expect.poll(() => chart.locator('canvas').count()).toBeGreaterThan(0);
    // Chart periods are spoken in words ("1 day"), the abbreviation being decoration.
    await instrument.timeframe('1 day').click();
    await expect.poll(() => instrument.timeframe('1 day').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => chart.getAttribute('data-candles')).toBe('300');
    expect(await page.getByText('24h high').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await instrument.close();
  });

  it('draws the chart on a phone once it is scrolled to, in the room kept for it, not with the page', async () => {
    const { page, errors } = await app.open('mobile');
    const charting = watchRequests(page, 'lightweight-charts');
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    await instrument.livePrice.waitFor();
    await page.getByText('24h high').waitFor();
    // Below the fold (behind the tab bar): its room is kept, nothing drawn or loaded yet.
    const room = await instrument.chartSlot.boundingBox();
    expect(await instrument.chart.count()).toBe(0);
    expect(charting).toEqual([]);
    await instrument.chartSlot.scrollIntoViewIfNeeded();
    await expect.poll(() => instrument.chart.getAttribute('data-candles'), { timeout: 15_000 }).toBe('300');
    expect(charting).toHaveLength(1);
    expect((await instrument.chart.boundingBox())?.height).toBe(room?.height);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps the watchlist across reloads (mobile)', async () => {
    const { page } = await app.open('mobile', { as: await app.customer('stars@example.com') });
    const market = new MarketPage(page);
    await market.goto('crypto');
    await new NoticeDialog(page).close();
    await market.show('SOLUSDT');
    // The list fits the phone: name, price and change visible without sideways scrolling.
    expect(await market.listOverflow()).toBeLessThanOrEqual(0);
    // One label; the state is aria-pressed.
    expect(await market.star('Solana').getAttribute('aria-pressed')).toBe('false');
    await market.watch('Solana');
    await market.goto('watchlist');
    await market.row('SOLUSDT').waitFor();
    await page.reload();
    await market.row('SOLUSDT').waitFor();
    expect(await market.rows.count()).toBe(1);
    expect(await market.overflow()).toBeLessThanOrEqual(0);
    await market.close();
  });
});

/** An instrument as the server lists it (through the typed client). */
async function listed(type: number, code: string) {
  const found = (await customerApi(app.server).ok('listMarketByType', { type })).find(
    (item) => item.code === code,
  );
  if (!found) throw new Error(`${code} is not listed`);
  return found;
}

describe('one quote per screen', () => {
  for (const [layout, language] of [
    ['desktop', 'en'],
    ['mobile', 'ar'],
  ] as const) {
    it(`shows the same bid and ask on the instrument page and in the ticket, the headline inside them (${layout}, ${language})`, async () => {
      const btc = await listed(2, 'BTCUSDT');
      const { page, errors } = await app.open(layout, { language });
      const instrument = new InstrumentPage(page);
      // The title as the page arrived, before any script of the app ran.
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          Object.assign(window, { arrivedTitle: document.querySelector('#root .page-title') });
        });
      });
      const asked = watchRequests(page, '/index/getMarketInfo/');
      await instrument.goto({ code: 'BTCUSDT', type: 2, id: btc.id });
      await instrument.livePrice.waitFor();
      const arrived = await page.evaluate(() => {
        const title = (window as { arrivedTitle?: Element | null }).arrivedTitle;
        return { text: title?.textContent ?? null, kept: title?.isConnected === true };
      });
      if (language === 'en') {
        // The server drew the screen with its data, in the reader's language and layout: the app
        // takes it over as it is (the very elements that arrived) and asks for nothing.
        expect(arrived).toEqual({ text: btc.appName, kept: true });
        expect(asked).toEqual([]);
      } else {
        // The page was drawn in English (no language cookie yet): not this reader's, so hidden,
        // and the data asked for with the app's first requests (boot.js sends the screen's first
        // call with the app's chunks), which the screen takes rather than asking again.
        expect(arrived.kept).toBe(false);
        expect(asked).toEqual([expect.stringMatching(new RegExp(`/index/getMarketInfo/${btc.id}$`))]);
      }
      // The price, for screen readers, at once and then at most every 30 s; paused, it is silent,
      // and what it said is not said again when it resumes.
      const announcer = page.getByTestId('price-announcer');
      const name = await page.locator('.currency-head h1').innerText();
      await expect.poll(() => announcer.textContent()).toContain(name);
      const speak = page.locator('.speak-price');
      await speak.click();
      expect(await speak.getAttribute('aria-pressed')).toBe('false');
      expect(await announcer.textContent()).toBe('');
      await speak.click();
      expect(await speak.getAttribute('aria-pressed')).toBe('true');
      expect(await announcer.textContent()).toBe('');
      await page.locator('.ticket-figures [data-figure="bid"]').waitFor();
      const seen = new Set<string>();
      // Several ticks: each frame shows one quote, wherever it is read.
      for (let i = 0; i < 12 && seen.size < 3; i++) {
        const q = await instrument.readQuote();
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
    const { page } = await app.open('mobile');
    const market = new MarketPage(page);
    await market.goto('stocks');
    const row = await market.show('AAPL');
    const rowBadge = row.locator('.badge');
    const instrument = new InstrumentPage(page);
    await instrument.goto({ code: 'AAPL', type: 3, id: aapl.id });
    await instrument.livePrice.waitFor();
    const q = await instrument.readQuote();
    expect(Number(q.headline)).toBeGreaterThanOrEqual(Number(q.pageBid));
    expect(Number(q.headline)).toBeLessThanOrEqual(Number(q.pageAsk));
    const now = await listed(3, 'AAPL');
    if (!now.open) {
      // Closed: the same mark in words on the page as on the list, and the same change: the last
      // trading day's, which does not move while the market is closed.
      await instrument.closedMark.waitFor();
      expect(await instrument.closedMark.innerText()).toBe('Closed');
      await page.getByText('The change is that of its last trading day, up to the last close.').waitFor();
      const pageChange = await instrument.change().innerText();
      await market.goto('stocks');
      await market.show('AAPL');
      expect(await rowBadge.innerText()).toBe('Closed');
      expect(await row.locator('.change').innerText()).toBe(pageChange);
      expect(q.headline).toBe(now.price);
      expect(q.pageBid).toBe(now.bid);
      expect(q.pageAsk).toBe(now.ask);
      expect(Number(now.zdf)).not.toBe(0);
    } else {
      expect(await instrument.closedMark.count()).toBe(0);
      await market.goto('stocks');
      await market.show('AAPL');
      expect(await rowBadge.count()).toBe(0);
    }
    await page.context().close();
  });
});
