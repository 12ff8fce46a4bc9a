import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { customerApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { openInLiveBook, useApp } from '../support/e2e.ts';
import { fundLive } from '../support/funding.ts';

/**
 * Papers in the browser (issue 37, part 2): a customer with live USDT and a swap downloads this
 * month's statement from the transaction record (the PDF is a PDF; the CSV's closing line states
 * the ledger's balance), then on /profile/papers makes a private calendar link, fetches the feed
 * from it, revokes it, and the link answers 404. Both screens pass axe at 1366 and 390 px, in
 * English and Arabic.
 */
const app = useApp({ staff: { email: 'papers.admin@swx.test', role: 'admin' } });

let customer: Session;
const thisMonth = () => new Date().toISOString().slice(0, 7);

beforeAll(async () => {
  customer = await app.customer('papers.customer@swx.test');
  await fundLive(app.server, customer, (await app.staff.session()).token, '1000', 'a7');
  const live = customerApi(app.server, customer, { book: 'live' });
  const quote = await live.ok('swapQuote', { from: 'USDT', to: 'BTC', amount: '400' });
  await live.ok('instantExchange', { quoteId: quote.quoteId, requestId: 'papers-e2e-swap' });
  await readAllNotices(app.server, customer.token);
}, 180_000);

describe('papers', () => {
  it('downloads this month’s statement from the transaction record, as PDF and as CSV', async () => {
    const { page, errors } = await openInLiveBook(app, 'desktop', customer);
    await page.goto('/profile/transactions');
    const form = page.getByTestId('statement-download');
    await form.locator('summary').click();
    await form.locator('input[name="month"]').fill(thisMonth());
    await expectAccessible(page, 'transaction record with the statement form open, 1366 px');
    const download = async (format: 'pdf' | 'csv') => {
      await form.locator('select[name="format"]').selectOption(format);
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        form.getByRole('button', { name: 'Download statement' }).click(),
      ]);
      expect(file.suggestedFilename()).toMatch(
        new RegExp(`^statement-live-USDT-${thisMonth()}-01-.*\\.${format}$`),
      );
      return readFileSync(await file.path());
    };
    const pdf = await download('pdf');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const csv = (await download('csv'))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('date,entry,kind,description,amount,fee,balance');
    expect(csv[1]).toMatch(/^\d{4}-\d{2}-01,,opening,Opening balance,,,0\.000000$/);
    // The closing line: the fees in USDT (the swap's fee is in BTC) and the ledger's balance.
    const balances = await customerApi(app.server, customer, { book: 'live' }).ok('getBalances');
    const usdt = balances.balances.find((b) => b.asset === 'USDT');
    expect(usdt?.balance).toBe('600.000000');
    const closing = csv.find((row) => row.includes(',closing,'));
    expect(closing).toMatch(
      new RegExp(`^${thisMonth()}-\\d{2},,closing,Closing balance,,0\\.000000,600\\.000000$`),
    );
    // The events in between: the deposit and the swap, the balance running to the closing one.
    expect(csv.filter((row) => /,(deposit|swap),/.test(row)).map((row) => row.split(',')[2])).toEqual([
      'deposit',
      'swap',
    ]);
    expect(errors).toEqual([]);
  });

  it('makes a private calendar link on /profile/papers, fetches the feed, revokes it: the link answers 404', async () => {
    const { page, errors } = await openInLiveBook(app, 'desktop', customer);
    await page.goto('/profile/papers');
    const calendar = page.getByTestId('calendar-section');
    await calendar.getByRole('button', { name: 'Make a private link' }).click();
    const address = calendar.locator('#papers-feed');
    await address.waitFor();
    const url = await address.inputValue();
    expect(url).toMatch(/\/papers\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await expectAccessible(page, 'papers page with a fresh calendar link, 1366 px');
    await screenshotTo(page, 'papers-desktop-en');
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await feed.text();
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
    await calendar.getByRole('button', { name: 'Revoke link' }).click();
    await calendar.getByText('The link is revoked').waitFor();
    expect((await fetch(url)).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('reads at 1366 and 390 px, in English and Arabic', async () => {
    for (const [layout, language] of [
      ['desktop', 'ar'],
      ['mobile', 'en'],
      ['mobile', 'ar'],
    ] as const) {
      const { page, errors } = await openInLiveBook(app, layout, customer, language);
      await page.goto('/profile/papers');
      await page.getByTestId('calendar-section').getByRole('button').first().waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      await expectAccessible(page, `papers page, ${layout}, ${language}`);
      await screenshotTo(page, `papers-${layout}-${language}`);
      await page.goto('/profile/transactions');
      const form = page.getByTestId('statement-download');
      await form.locator('summary').click();
      await form.locator('input[name="month"]').waitFor();
      await expectAccessible(page, `transaction record with the statement form, ${layout}, ${language}`);
      await screenshotTo(page, `papers-transactions-${layout}-${language}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
