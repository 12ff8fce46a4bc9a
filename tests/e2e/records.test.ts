import { mkdirSync, readFileSync } from 'node:fs';
import { CATALOGUE, Code, type TicketBody } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { type Layout, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { BalancePage, NoticeDialog, TransactionsPage } from '../support/pages/index.ts';
import { advanceClock, listedCryptoId } from '../support/server.ts';

/**
 * The transaction record after real trades (opened and closed through the API against the live
 * feed and the real ledger): one card per event in the customer's words with the order number,
 * the postings one click away, no sideways scrolling at 390 px in English and Arabic, and the
 * demo reset refused with the right message while a position is open. Last, a trade that closes
 * by itself while the customer is away (the movable clock, SWX_CLOCK=movable): its notice waits in
 * the list, no dialog.
 */
const app = useApp({ env: { SWX_CLOCK: 'movable' } });
let trader: Session;
let api: CustomerApi;
let btcId: number;
const shots = process.env.SCREENSHOT_DIR;
const locale = (language: string) =>
  JSON.parse(
    readFileSync(new URL(`../../apps/web/src/locales/${language}.json`, import.meta.url), 'utf8'),
  ) as {
    balance: { reset: string; confirm: string };
  };
const LOCALES = { en: locale('en'), ar: locale('ar') };
/** The balance page's words for what holds money (the ledger feature's own texts). */
const heldWords = (language: string) =>
  (
    JSON.parse(
      readFileSync(
        new URL(`../../apps/web/src/features/ledger/locales/${language}.json`, import.meta.url),
        'utf8',
      ),
    ) as { held: { reason: Record<string, string> } }
  ).held.reason;

const shift = (price: string, percent: bigint) => {
  const decimals = price.split('.')[1]?.length ?? 0;
  const digits = ((BigInt(price.replace('.', '')) * percent) / 100n).toString().padStart(decimals + 1, '0');
  return decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
};

/** Opens a long on BTCUSDT at a fresh quote (again when the quote went stale), stops 10 % away. */
async function openLong(
  autoCloseAfter: number | null = null,
  as: CustomerApi = api,
): Promise<{ id: number; orderNo: string }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const base = {
      marketId: btcId,
      direction: 'long',
      lots: '0.05',
      leverage: 2,
      autoCloseAfter,
    } as const;
    const first = await as.ok('previewOptions', { ...base, stopLoss: '1.00', takeProfit: '1.00' });
    const ticket: TicketBody = {
      ...base,
      stopLoss: shift(first.bid, 90n),
      takeProfit: shift(first.bid, 110n),
    };
    const preview = await as.ok('previewOptions', ticket);
    const opened = await as.call('openPosition', {
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
      // What holds the money, by reason: here all of it is the open position's margin, said so
      // (not "for example margin"), the parts adding up to the held figure on the wire.
      const usdt = (await api.ok('getBalances')).balances.find((b) => b.asset === 'USDT');
      expect(usdt?.heldBy).toEqual([{ reason: 'margin', amount: usdt?.held }]);
      const margin = page.getByTestId('held-by').locator('[data-asset="USDT"] [data-reason="margin"]');
      await margin.waitFor();
      expect(await margin.getAttribute('data-amount')).toBe(usdt?.held);
      expect(await margin.locator('dt').innerText()).toBe(heldWords(language).margin);
      expect(await page.getByTestId('held-by').locator('[data-reason]').count()).toBe(1);
      await screenshotTo(page, `balance-held-${layout}-${language}`);
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

describe('notices of activity', () => {
  it('a trade that closed by itself waits, unread, in the list: only the notice one must read opens a dialog', {
    timeout: 90_000,
  }, async () => {
    // Registered, the welcome unread (a must-read notice); a position that closes itself in an hour.
    const away = await app.customer('away.trader@example.com');
    const awayApi = customerApi(app.server, away);
    const expiring = await openLong(3600, awayApi);
    await advanceClock(app.server, '2h');
    const unread = async () =>
      (await awayApi.ok('getNoticeList', { readState: '0' })).map((n) => n.noticeContent);
    await expect
      .poll(unread, { timeout: 30_000 })
      .toContainEqual(
        expect.stringContaining(`Position ${expiring.orderNo} (BTCUSDT) reached the auto-close time`),
      );

    const { page, errors } = await app.open('mobile', { as: away, language: 'en' });
    await page.goto('/profile');
    const dialog = new NoticeDialog(page);
    await dialog.dialog.waitFor({ timeout: 15_000 });
    expect(await dialog.text()).toContain('Welcome to SWX');
    await dialog.close();
    // The bar's bell says how many wait unread (the trade's among them), in its name and its badge.
    const bell = page.locator('.mobile-bar-end a[href="/profile/notification"]');
    await expect.poll(() => bell.getAttribute('aria-label')).toMatch(/^Notifications: [1-9]\d* unread$/);
    // Name and badge say the same count (read together: a new notice may arrive between two reads).
    await expect
      .poll(() =>
        bell.evaluate((link) => [
          link.getAttribute('aria-label')?.match(/\d+/)?.[0],
          link.querySelector('[data-testid="notice-bell-count"]')?.textContent,
        ]),
      )
      .toSatisfy(([named, badge]) => named !== undefined && named === badge);
    if (shots) await page.locator('.mobile-bar').screenshot({ path: `${shots}/notice-bell-390-en.png` });
    // The notification list: the unread notices are fetched as the page opens, the trade's among
    // them; it is listed unread, and no dialog opens for it.
    const unreadFetched = page.waitForResponse((r) => r.url().includes('/getNoticeList?readState=0'));
    await page.goto('/profile/notification');
    await unreadFetched;
    const told = page.locator('.notice-list li.unread').filter({ hasText: expiring.orderNo });
    await told.waitFor();
    expect(await told.innerText()).toContain('Unread');
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    expect(await dialog.dialog.count()).toBe(0);
    if (shots) await page.screenshot({ path: `${shots}/notices-routine-390-en.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('wide tables on a phone', () => {
  it('the balance is a card per asset at 390 and 320 px, each figure beside its column, none off the screen', {
    timeout: 60_000,
  }, async () => {
    for (const language of ['en', 'ar'] as const) {
      const { page, errors } = await open('mobile', language);
      const balance = new BalancePage(page);
      await balance.goto();
      await balance.asset('USDT').waitFor();
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        const rows = await balance.asset('USDT').evaluate((row: HTMLTableRowElement) => {
          const table = row.closest('table');
          const columns = [...(table?.tHead?.rows[0]?.cells ?? [])].map((th) => th.textContent?.trim());
          return [...row.cells].map((cell, index) => {
            const box = cell.getBoundingClientRect();
            const label = cell.tagName === 'TD' ? cell.getAttribute('data-label') : columns[index];
            return { column: columns[index], label, left: box.left, right: box.right, width: innerWidth };
          });
        });
        expect(rows).toHaveLength(5);
        for (const cell of rows) {
          // On the screen, not scrolled off its side; named by its column.
          expect(cell.left, `${language} ${width} ${cell.column}`).toBeGreaterThanOrEqual(0);
          expect(cell.right, `${language} ${width} ${cell.column}`).toBeLessThanOrEqual(cell.width);
          expect(cell, `${language} ${width}`).toMatchObject({ label: cell.column });
        }
        if (shots)
          await page.screenshot({ path: `${shots}/balance-${width}-${language}.png`, fullPage: true });
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
