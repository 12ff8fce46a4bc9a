import { mkdirSync, readFileSync } from 'node:fs';
import { CATALOGUE, Code } from '@swx/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, registerByApi, type Session } from '../support/accounts.ts';
import {
  holdSession,
  type Layout,
  newContext,
  startServerAndBrowser,
  watchErrors,
} from '../support/browser.ts';
import { listedCryptoId, type RunningServer } from '../support/server.ts';

/**
 * The transaction record after real trades (opened and closed through the API against the live
 * feed and the real ledger): one card per event in the customer's words with the order number,
 * the postings one click away, no sideways scrolling at 390 px in English and Arabic, and the
 * demo reset refused with the right message while a position is open.
 */
let server: RunningServer;
let stop: () => Promise<void>;
let browser: Browser;
let trader: Session;
let btcId: number;
const shots = process.env.SHOTS_DIR;
const locale = (language: string) =>
  JSON.parse(
    readFileSync(new URL(`../../apps/web/src/locales/${language}.json`, import.meta.url), 'utf8'),
  ) as {
    balance: { reset: string; confirm: string };
  };
const LOCALES = { en: locale('en'), ar: locale('ar') };

type Envelope<T> = { code: number; msg: string; data: T };

async function call<T>(path: string, body?: unknown): Promise<Envelope<T>> {
  const response = await fetch(`${server.baseUrl}/swx/customer${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: trader.token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Envelope<T>;
}

const shift = (price: string, percent: bigint) => {
  const decimals = price.split('.')[1]?.length ?? 0;
  const digits = ((BigInt(price.replace('.', '')) * percent) / 100n).toString().padStart(decimals + 1, '0');
  return decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
};

/** Opens a long on BTCUSDT at a fresh quote (again when the quote went stale), stops 10 % away. */
async function openLong(): Promise<{ id: number; orderNo: string }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const base = { marketId: btcId, direction: 'long', lots: '0.05', leverage: 2, autoCloseAfter: null };
    const first = await call<{ bid: string }>('/order/previewOptions', {
      ...base,
      stopLoss: '1.00',
      takeProfit: '1.00',
    });
    const ticket = { ...base, stopLoss: shift(first.data.bid, 90n), takeProfit: shift(first.data.bid, 110n) };
    const preview = await call<{ quoteId: string }>('/order/previewOptions', ticket);
    const opened = await call<{ id: number; orderNo: string }>('/order/buyOptions', {
      ...ticket,
      quoteId: preview.data.quoteId,
      requestId: crypto.randomUUID(),
    });
    if (opened.code === 200) return opened.data;
    if (opened.code !== Code.PRICE_CHANGED) throw new Error(`buyOptions answered ${opened.code}`);
  }
  throw new Error('no order opened after five quotes');
}

let closedOrder: { id: number; orderNo: string };
let openOrder: { id: number; orderNo: string };

beforeAll(async () => {
  let inbox: Parameters<typeof registerByApi>[1];
  ({ server, inbox, browser, stop } = await startServerAndBrowser());
  trader = await registerByApi(server, inbox, 'ledger.reader@example.com');
  await readAllNotices(server.baseUrl, trader.token);
  btcId = await listedCryptoId(server.baseUrl, 'BTCUSDT');
  closedOrder = await openLong();
  openOrder = await openLong();
  const closed = await call<{ status: string }>('/order/closeOptions', { id: closedOrder.id });
  expect(closed.data.status).toBe('closed');
  if (shots) mkdirSync(shots, { recursive: true });
}, 120_000);
afterAll(async () => {
  await stop?.();
});

async function open(layout: Layout, language: string): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, layout, server.baseUrl);
  await holdSession(context, trader);
  await context.addInitScript((lang) => localStorage.setItem('language', lang), language);
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement as Element;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });

const WORDS = {
  en: { opened: 'Opened', closed: 'Closed', result: 'result', wallet: 'Your wallet', fees: 'Platform fees' },
  ar: { opened: 'فتح', closed: 'إغلاق', result: 'النتيجة', wallet: 'محفظتك', fees: 'رسوم المنصة' },
} as const;

describe('the transaction record', () => {
  for (const [layout, language] of [
    ['mobile', 'en'],
    ['mobile', 'ar'],
    ['desktop', 'en'],
    ['desktop', 'ar'],
  ] as const) {
    it(`shows one event per entry in words, fits the screen, and opens the postings in one click (${layout}, ${language})`, {
      timeout: 60_000,
    }, async () => {
      const { page, errors } = await open(layout, language);
      const words = WORDS[language];
      await page.goto('/profile/transactions');
      const records = page.locator('ol.records > li.record');
      await expect.poll(() => records.count()).toBe(4); // funding, two opens, one close
      expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      const kinds = await records.evaluateAll((items) => items.map((i) => i.getAttribute('data-kind')));
      expect(kinds).toEqual(['trade_pnl', 'trade_margin', 'trade_margin', 'demo_funding']);

      const close = records.first();
      const closeText = await close.locator('.record-what').innerText();
      expect(closeText).toContain(closedOrder.orderNo);
      expect(closeText).toContain(words.closed);
      expect(closeText).toContain(words.result);
      const openText = await records.nth(1).locator('.record-what').innerText();
      expect(openText).toContain(openOrder.orderNo);
      expect(openText).toContain(words.opened);
      // The fee at the asset's display precision: two decimals of USDT, never six.
      const [fee] = (await call<{ items: { fee: string | null }[] }>('/user/listTransactions')).data.items
        .filter((i) => i.fee !== null)
        .map((i) => i.fee as string);
      expect(fee).toMatch(/^\d+\.\d{6}$/);
      if (language === 'en') {
        expect(await records.last().innerText()).toMatch(
          /^Demo funds issued\s+In\s+\+100,000\.00 USDT\s+.+\s+Completed/,
        );
        const shown = await records.nth(1).locator('.record-what').innerText();
        expect(shown).toMatch(/fee \u2066\d[\d,]*\.\d{2}\u2069$/);
      }

      // No sideways scrolling: the page is exactly as wide as the screen.
      const width = await overflow(page);
      expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);

      // The postings: one click on the close's disclosure shows the entry's accounts.
      const postings = close.locator('.record-postings table');
      expect(await postings.isVisible()).toBe(false);
      await close.locator('.record-postings summary').click();
      await postings.waitFor();
      expect(await postings.innerText()).toContain(words.wallet);
      const opening = records.nth(1);
      await opening.locator('.record-postings summary').click();
      expect(await opening.locator('.record-postings table').innerText()).toContain(words.fees);
      const after = await overflow(page);
      expect(after.scrollWidth).toBeLessThanOrEqual(after.clientWidth);
      if (shots) {
        await page.screenshot({ path: `${shots}/records-${layout}-${language}.png`, fullPage: true });
        if (layout === 'desktop') {
          await page.setViewportSize({ width: 1280, height: 900 });
          const at1280 = await overflow(page);
          expect(at1280.scrollWidth).toBeLessThanOrEqual(at1280.clientWidth);
          await page.screenshot({ path: `${shots}/records-1280-${language}.png`, fullPage: true });
        }
      }

      // A reset while a position is open says so, in the reader's language (not "insufficient").
      await page.goto('/profile/balance');
      const balance = LOCALES[language].balance;
      await page.getByRole('button', { name: balance.reset }).click();
      await page
        .locator('dialog.modal[open]')
        .getByRole('button', { name: balance.confirm, exact: true })
        .click();
      await page.getByRole('status').filter({ hasText: CATALOGUE[language][Code.POSITIONS_OPEN] }).waitFor();
      if (shots) await page.screenshot({ path: `${shots}/reset-${layout}-${language}.png`, fullPage: false });
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('fits a 390 px phone in every other language too, postings open', { timeout: 120_000 }, async () => {
    for (const language of ['ja', 'ko', 'de', 'fr', 'it', 'es', 'hk', 'zh']) {
      const { page, errors } = await open('mobile', language);
      await page.goto('/profile/transactions');
      const records = page.locator('ol.records > li.record');
      await expect.poll(() => records.count()).toBe(4);
      expect(await records.first().locator('.record-what').innerText()).toContain(closedOrder.orderNo);
      for (const summary of await page.locator('.record-postings summary').all()) await summary.click();
      await page.locator('.record-postings table').first().waitFor();
      const width = await overflow(page);
      expect({ language, ...width }).toEqual({ language, ...width, scrollWidth: width.clientWidth });
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('resets once every position is closed', async () => {
    const closed = await call<{ status: string }>('/order/closeOptions', { id: openOrder.id });
    expect(closed.data.status).toBe('closed');
    const reset = await call('/user/resetDemo', {});
    expect(reset.code).toBe(200);
    const record = await call<{ items: { kind: string; changes: { asset: string }[] }[] }>(
      '/user/listTransactions',
    );
    expect(record.data.items[0]?.kind).toBe('demo_reset');
  });
});
