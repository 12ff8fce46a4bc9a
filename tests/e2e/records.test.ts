import { mkdirSync, readFileSync } from 'node:fs';
import { CATALOGUE, Code, type TicketBody } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import type { Layout } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { BalancePage, TransactionsPage } from '../support/pages/index.ts';
import { listedCryptoId } from '../support/server.ts';

/**
 * The transaction record after real trades (opened and closed through the API against the live
 * feed and the real ledger): one card per event in the customer's words with the order number,
 * the postings one click away, no sideways scrolling at 390 px in English and Arabic, and the
 * demo reset refused with the right message while a position is open.
 */
const app = useApp();
let trader: Session;
let api: CustomerApi;
let btcId: number;
const shots = process.env.SHOTS_DIR;
const locale = (language: string) =>
  JSON.parse(
    readFileSync(new URL(`../../apps/web/src/locales/${language}.json`, import.meta.url), 'utf8'),
  ) as {
    balance: { reset: string; confirm: string };
  };
const LOCALES = { en: locale('en'), ar: locale('ar') };

const shift = (price: string, percent: bigint) => {
  const decimals = price.split('.')[1]?.length ?? 0;
  const digits = ((BigInt(price.replace('.', '')) * percent) / 100n).toString().padStart(decimals + 1, '0');
  return decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
};

/** Opens a long on BTCUSDT at a fresh quote (again when the quote went stale), stops 10 % away. */
async function openLong(): Promise<{ id: number; orderNo: string }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const base = {
      marketId: btcId,
      direction: 'long',
      lots: '0.05',
      leverage: 2,
      autoCloseAfter: null,
    } as const;
    const first = await api.ok('previewOptions', { ...base, stopLoss: '1.00', takeProfit: '1.00' });
    const ticket: TicketBody = {
      ...base,
      stopLoss: shift(first.bid, 90n),
      takeProfit: shift(first.bid, 110n),
    };
    const preview = await api.ok('previewOptions', ticket);
    const opened = await api.call('openPosition', {
      ...ticket,
      quoteId: preview.quoteId,
      requestId: crypto.randomUUID(),
    });
    if (opened.code === 200) return opened.data;
    if (opened.code !== Code.PRICE_CHANGED) throw new Error(`openPosition answered ${opened.code}`);
  }
  throw new Error('no order opened after five quotes');
}

let closedOrder: { id: number; orderNo: string };
let openOrder: { id: number; orderNo: string };

beforeAll(async () => {
  trader = await app.customer('ledger.reader@example.com');
  api = customerApi(app.server, trader);
  await readAllNotices(app.server, trader.token);
  btcId = await listedCryptoId(app.server.baseUrl, 'BTCUSDT');
  closedOrder = await openLong();
  openOrder = await openLong();
  const closed = await api.ok('closeOptions', { id: closedOrder.id });
  expect(closed.status).toBe('closed');
  if (shots) mkdirSync(shots, { recursive: true });
}, 120_000);

const open = (layout: Layout, language: string) => app.open(layout, { as: trader, language });

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
      const record = new TransactionsPage(page);
      await record.goto();
      const records = record.records;
      await expect.poll(() => records.count()).toBe(4); // funding, two opens, one close
      expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      const kinds = await records.evaluateAll((items) => items.map((i) => i.getAttribute('data-kind')));
      expect(kinds).toEqual(['trade_pnl', 'trade_margin', 'trade_margin', 'demo_funding']);

      const close = records.first();
      const closeText = await record.what(close).innerText();
      expect(closeText).toContain(closedOrder.orderNo);
      expect(closeText).toContain(words.closed);
      expect(closeText).toContain(words.result);
      const openText = await record.what(records.nth(1)).innerText();
      expect(openText).toContain(openOrder.orderNo);
      expect(openText).toContain(words.opened);
      // The fee exact on the wire; on screen at the asset's display precision (every digit of its
      // scale but trailing zeros, two decimals at least), never rounded away.
      const [fee] = (await api.ok('listTransactions')).items
        .filter((i) => i.fee !== null)
        .map((i) => i.fee as string);
      expect(fee).toMatch(/^\d+\.\d{6}$/);
      if (language === 'en') {
        expect(await records.last().innerText()).toMatch(
          /^Demo funds issued\s+In\s+\+100,000\.00 USDT\s+.+\s+Completed/,
        );
        const shown = await record.what(records.nth(1)).innerText();
        expect(shown).toMatch(/fee \u2066\d[\d,]*\.\d{2,6}\u2069$/);
      }

      // No sideways scrolling: the page is exactly as wide as the screen.
      const width = await record.width();
      expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);

      // The postings: one click on the close's disclosure shows the entry's accounts.
      const postings = record.postings(close);
      expect(await postings.isVisible()).toBe(false);
      await record.openPostings(close);
      await postings.waitFor();
      expect(await postings.innerText()).toContain(words.wallet);
      const opening = records.nth(1);
      expect(await (await record.openPostings(opening)).innerText()).toContain(words.fees);
      const after = await record.width();
      expect(after.scrollWidth).toBeLessThanOrEqual(after.clientWidth);
      if (shots) {
        await page.screenshot({ path: `${shots}/records-${layout}-${language}.png`, fullPage: true });
        if (layout === 'desktop') {
          await page.setViewportSize({ width: 1280, height: 900 });
          const at1280 = await record.width();
          expect(at1280.scrollWidth).toBeLessThanOrEqual(at1280.clientWidth);
          await page.screenshot({ path: `${shots}/records-1280-${language}.png`, fullPage: true });
        }
      }

      // A reset while a position is open says so, in the reader's language (not "insufficient").
      const balance = new BalancePage(page);
      await balance.goto();
      await balance.resetDemo(LOCALES[language].balance);
      await page.getByRole('status').filter({ hasText: CATALOGUE[language][Code.POSITIONS_OPEN] }).waitFor();
      if (shots) await page.screenshot({ path: `${shots}/reset-${layout}-${language}.png`, fullPage: false });
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('fits a 390 px phone in every other language too, postings open', { timeout: 120_000 }, async () => {
    for (const language of ['ja', 'ko', 'de', 'fr', 'it', 'es', 'hk', 'zh']) {
      const { page, errors } = await open('mobile', language);
      const record = new TransactionsPage(page);
      await record.goto();
      const records = record.records;
      await expect.poll(() => records.count()).toBe(4);
      expect(await record.what(records.first()).innerText()).toContain(closedOrder.orderNo);
      await record.openAllPostings();
      await page.locator('.record-postings table').first().waitFor();
      const width = await record.width();
      expect({ language, ...width }).toEqual({ language, ...width, scrollWidth: width.clientWidth });
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('resets once every position is closed', async () => {
    const closed = await api.call('closeOptions', { id: openOrder.id });
    expect(closed.data.status).toBe('closed');
    const reset = await api.call('resetDemo');
    expect(reset.code).toBe(200);
    const record = await api.call('listTransactions');
    expect(record.data.items[0]?.kind).toBe('demo_reset');
  });
});
