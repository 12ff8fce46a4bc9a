import { type Book, QUOTE_VALID_SECONDS } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { AuditService } from '../../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../../apps/server/src/modules/ledger/ledger.service.ts';
import { deposit } from '../../apps/server/src/test/context.ts';
import { readAllNotices, registerByApi, startServerWithInbox } from '../support/accounts.ts';
import { btcPagePath, seriousViolations } from '../support/browser.ts';
import { openTestDatabase } from '../support/db.ts';
import { useApp } from '../support/e2e.ts';
import {
  BalancePage,
  badgeOf,
  ConfirmDialog,
  DEMO_NAME,
  InstrumentPage,
  LIVE_NAME,
  OrderDetailPage,
  type Reading,
} from '../support/pages/index.ts';

const app = useApp();

/**
 * The marks of a renewal against the figures before it: a figure is marked, with its old value,
 * exactly when what the reader sees of it changed.
 */
function expectMarked(before: Reading, after: Reading): void {
  expect(after.quoteTime).not.toBe(before.quoteTime);
  const anyChanged = Object.entries(after.rows).some(([key, row]) => row.shown !== before.rows[key]?.shown);
  expect(after.state).toBe(anyChanged ? 'changed' : 'same');
  for (const [key, row] of Object.entries(after.rows)) {
    const old = before.rows[key]?.shown ?? '';
    const changed = row.shown !== old;
    expect(row.changed, key).toBe(changed);
    if (changed) {
      expect(row.text, key).toContain('Updated');
      expect(row.was, key).toMatch(/^was /);
      expect(old, key).toContain(row.was.replace(/^was /, ''));
    } else expect(row.text, key).not.toContain('Updated');
  }
}

/** After a confirm, the order detail shows exactly the figures that were on screen when it was sent. */
async function expectOpenedAt(
  instrument: InstrumentPage,
  shown: Reading,
  book: Book = 'demo',
): Promise<void> {
  await instrument.waitForPath(/^\/profile\/orders\/\d+$/, 30_000);
  const detail = new OrderDetailPage(instrument.page);
  await detail.root.waitFor({ timeout: 60_000 });
  expect(await detail.value('openPrice')).toBe(shown.rows.price?.value);
  expect(await detail.value('margin')).toBe(shown.rows.margin?.value);
  expect(await detail.value('fee')).toBe(shown.rows.fee?.value);
  expect(await badgeOf(detail.root)).toMatchObject({ book, name: book === 'demo' ? DEMO_NAME : LIVE_NAME });
}

describe('which book', () => {
  it('the ticket, the confirm dialog and every money screen say Demo or Live, in words, in both books', async () => {
    const { page, errors } = await app.signedIn('desktop', 'books@example.com');
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    const ticket = instrument.ticket.root;
    await ticket.waitFor({ timeout: 60_000 });
    expect(await badgeOf(ticket)).toEqual({
      book: 'demo',
      name: DEMO_NAME,
      text: expect.stringMatching(/Demo account[\s\S]*Virtual money/),
    });
    expect(await page.getByRole('img', { name: DEMO_NAME }).isVisible()).toBe(true);
    const dialog = (await instrument.ticket.review({ timeout: 90_000 })).root;
    expect(await badgeOf(dialog)).toMatchObject({ book: 'demo', name: DEMO_NAME });
    expect(await seriousViolations(page), 'confirm').toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);

    const screens = ['/profile/balance', '/profile/transactions', '/profile/orders'];
    for (const path of screens) {
      await page.goto(path);
      expect(await badgeOf(page.locator('.page-head')), path).toMatchObject({
        book: 'demo',
        name: DEMO_NAME,
      });
    }
    expect(await seriousViolations(page), 'orders').toEqual([]);

    // Switch to the live book: every screen says so.
    const balance = new BalancePage(page);
    await balance.goto();
    await balance.useLive();
    await expect
      .poll(async () => (await badgeOf(page.locator('.page-head'))).book, { timeout: 30_000 })
      .toBe('live');
    expect(await badgeOf(page.locator('.page-head'))).toMatchObject({ name: LIVE_NAME });
    expect(await page.getByRole('img', { name: LIVE_NAME }).isVisible()).toBe(true);
    expect(await seriousViolations(page), 'balance live').toEqual([]);
    for (const path of screens) {
      await page.goto(path);
      expect(await badgeOf(page.locator('.page-head')), path).toMatchObject({
        book: 'live',
        name: LIVE_NAME,
      });
    }
    await instrument.goto(await app.btcPage());
    await ticket.waitFor({ timeout: 60_000 });
    expect(await badgeOf(ticket)).toMatchObject({ book: 'live', name: LIVE_NAME });
    expect(errors).toEqual([]);
    await instrument.close();
  }, 300_000);

  it('a quote that ages out in the confirm dialog is renewed in place with the changes marked, and opens at the shown figures', async () => {
    const { page, errors } = await app.signedIn('desktop', 'renewal@example.com');
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    const dialog = await instrument.ticket.review({ timeout: 90_000 });
    // (The ticket's figures may already be old when the dialog opens; then it renews them at once.)
    const first = await dialog.settled();

    // Nobody clicks: before the quote runs out the dialog fetches the current one and marks changes.
    const renewed = await dialog.renewedFrom(first);
    expectMarked(first, renewed);
    expect(await dialog.requote.innerText()).toMatch(/^New quote from /);
    expect(await seriousViolations(page), 'renewed').toEqual([]);

    // Confirming now opens the position at exactly what is on screen.
    await expectOpenedAt(instrument, await dialog.confirmUntilOpened());
    expect(errors).toEqual([]);
    await instrument.close();
  }, 300_000);

  it('a confirm that arrives after the quote lifetime (10032) is renewed in place, and the renewed figures open', async () => {
    const { page, errors, session } = await app.signedIn('desktop', 'late@example.com');
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    const dialog = await instrument.ticket.review({ timeout: 90_000 });

    // The network holds the confirm until the server's clock is past the quote's lifetime. (The
    // held request is the browser's own: its body is sent on as it was, not typed.)
    const serverSecond = async (body: unknown) => {
      const response = await fetch(`${app.server.baseUrl}/swx/customer/order/previewOptions`, {
        method: 'POST',
        headers: { authorization: session.token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return ((await response.json()) as { data: { quoteTime: number } }).data.quoteTime;
    };
    let held = 0;
    await page.route('**/swx/customer/order/buyOptions', async (route) => {
      held++;
      const sent = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
      const { quoteId: _q, requestId: _r, ...ticket } = sent;
      // The quote sent is at most this second's: past this second + its lifetime, it has expired.
      const now = await serverSecond(ticket);
      await expect
        .poll(() => serverSecond(ticket), { timeout: 20_000, interval: 250 })
        .toBeGreaterThan(now + QUOTE_VALID_SECONDS);
      await route.continue();
    });
    const sent = await dialog.confirmShown();
    const renewed = await dialog.renewedFrom(sent, 30_000);
    expect(held).toBe(1);
    expectMarked(sent, renewed);
    expect(await page.getByTestId('requote-announcer').innerText()).toMatch(/^New quote from /);
    // Nothing opened: the dialog is still asking, on the same page.
    expect(instrument.pathname()).toBe('/instrument');
    await page.unroute('**/swx/customer/order/buyOptions');

    await expectOpenedAt(instrument, await dialog.confirmUntilOpened());
    expect(errors).toEqual([]);
    await instrument.close();
  }, 300_000);

  it('on a 390 px phone in Arabic the confirm buttons stay in view while the figures scroll', async () => {
    const { page, errors } = await app.signedIn('mobile', 'phone-books@example.com', { language: 'ar' });
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    await expect.poll(() => instrument.dir(), { timeout: 60_000 }).toBe('rtl');
    const ticket = instrument.ticket.root;
    await ticket.waitFor({ timeout: 60_000 });
    expect(await badgeOf(ticket)).toMatchObject({ book: 'demo', name: 'حساب تجريبي: أموال افتراضية' });
    await instrument.ticket.liveFigures(90_000);
    await expect.poll(() => page.getByRole('alert').count(), { timeout: 30_000 }).toBe(0);
    // (The review button, named in Arabic here, by its place in the ticket.)
    await page.locator('.ticket-figures button[type="submit"]').click();
    const confirm = new ConfirmDialog(page);
    const dialog = confirm.root;
    await dialog.waitFor({ timeout: 60_000 });
    expect(await badgeOf(dialog)).toMatchObject({ book: 'demo' });

    const buttons = confirm.buttons;
    expect(await buttons.count()).toBe(2);
    for (const button of await buttons.all()) expect(await confirm.inView(button)).toBe(true);
    // The figures scroll between the fixed title and buttons; scrolled to the end, the buttons stay.
    const scroller = confirm.scroller;
    expect(await scroller.evaluate((e) => getComputedStyle(e).overflowY)).toBe('auto');
    await scroller.evaluate((e) => e.scrollTo(0, e.scrollHeight));
    for (const button of await buttons.all()) expect(await confirm.inView(button)).toBe(true);
    expect(await confirm.inView(dialog.getByTestId('book-badge'))).toBe(true);
    expect(await instrument.overflow()).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), 'confirm ar').toEqual([]);

    // Money screens on the phone say the book too.
    await page.keyboard.press('Escape');
    for (const path of ['/profile/balance', '/profile/transactions', '/profile/orders']) {
      await page.goto(path);
      expect(await badgeOf(page.locator('.page-head')), path).toMatchObject({ book: 'demo' });
    }
    expect(errors).toEqual([]);
    await instrument.close();
  }, 300_000);
});

describe('which book, with live money', () => {
  it('the ticket, the confirm dialog and the order say Live when the order opens in the live book', async () => {
    // Its own server on PostgreSQL, so the test can credit the live book through the ledger (the only
    // writer of balances) from a second process, as another node would; there is no deposit screen yet.
    const database = await openTestDatabase({ kind: 'postgres', migrated: false });
    const live = await startServerWithInbox({ DATABASE_URL: database.url ?? '' });
    try {
      const session = await registerByApi(live.server, live.inbox, 'live-trader@example.com');
      await readAllNotices(live.server.baseUrl, session.token);
      // 10,000 USDT into the live book, through the ledger (as the deposit flow books it).
      await deposit(
        new LedgerService(database.db, new AuditService(database.db)),
        session.userInfo.id,
        10_000_000_000n,
      );
      const liveBtcPage = await btcPagePath(live.server.baseUrl);
      const { page, errors, context } = await app.open('desktop', {
        as: session,
        baseUrl: live.server.baseUrl,
      });
      await context.addInitScript(() => localStorage.setItem('virtual', '0'));
      const instrument = new InstrumentPage(page);
      await instrument.goto(liveBtcPage);
      const ticket = instrument.ticket.root;
      await ticket.waitFor({ timeout: 60_000 });
      expect(await badgeOf(ticket)).toMatchObject({ book: 'live', name: LIVE_NAME });
      await expect
        .poll(() => ticket.locator('[data-figure="available"]').first().innerText(), { timeout: 30_000 })
        .toContain('10,000.00 USDT');
      const confirm = await instrument.ticket.review({ timeout: 90_000 });
      const dialog = confirm.root;
      expect(await badgeOf(dialog)).toEqual({
        book: 'live',
        name: LIVE_NAME,
        text: expect.stringMatching(/Live account[\s\S]*Real money/),
      });
      expect(await seriousViolations(page), 'confirm live').toEqual([]);
      await expectOpenedAt(instrument, await confirm.confirmUntilOpened(), 'live');
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await live.stop();
      await database.close();
    }
  }, 300_000);
});
