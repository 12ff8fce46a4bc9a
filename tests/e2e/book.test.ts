import { type Book, QUOTE_VALID_SECONDS } from '@swx/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditService } from '../../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../../apps/server/src/modules/ledger/ledger.service.ts';
import { readAllNotices, registerByApi, type Session, startServerWithInbox } from '../support/accounts.ts';
import {
  btcPagePath,
  holdSession,
  type Layout,
  newContext,
  seriousViolations,
  sessionPage,
  startServerAndBrowser,
  watchErrors,
} from '../support/browser.ts';
import { openTestDatabase } from '../support/db.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

let server: RunningServer;
let inbox: Inbox;
let stop: () => Promise<void>;
let browser: Browser;
/** Crypto trades around the clock, so BTCUSDT is open whatever day the test runs. */
let btcPage: string;

beforeAll(async () => {
  ({ server, inbox, browser, stop } = await startServerAndBrowser());
  btcPage = await btcPagePath(server.baseUrl);
});
afterAll(async () => {
  await stop?.();
});

/** A logged-in page with every notice read, so no notice dialog covers what the test reads. */
async function open(
  layout: Layout,
  email: string,
): Promise<{ page: Page; errors: string[]; session: Session }> {
  const session = await registerByApi(server, inbox, email);
  return { ...(await sessionPage(browser, server.baseUrl, layout, session)), session };
}

const DEMO_NAME = 'Demo account: Virtual money';
const LIVE_NAME = 'Live account: Real money';

/** The book badge inside `scope`: which book it names, and its accessible name. */
async function badgeOf(scope: Locator): Promise<{ book: string | null; name: string | null; text: string }> {
  const badge = scope.getByTestId('book-badge');
  await badge.waitFor({ timeout: 60_000 });
  expect(await badge.count()).toBe(1);
  return {
    book: await badge.getAttribute('data-book'),
    name: await badge.getAttribute('aria-label'),
    text: await badge.innerText(),
  };
}

async function liveFigures(page: Page): Promise<void> {
  await page.locator('.ticket-figures .figures.live').waitFor({ timeout: 90_000 });
}

/** The confirm dialog's figures as one consistent reading: the quote, and each row's value and mark. */
type Reading = {
  quoteTime: string;
  rows: Record<string, { value: string; shown: string; changed: boolean; text: string; was: string }>;
  state: string | null;
};

async function readAnd(dialog: Locator, thenConfirm: boolean): Promise<Reading | null> {
  // Read and click in one task of the page, so no renewal can land between what is read and sent.
  return dialog.evaluate((element, confirm) => {
    const rows: Reading['rows'] = {};
    for (const row of element.querySelectorAll<HTMLElement>('.confirm-figures [data-figure]')) {
      rows[row.dataset.figure ?? ''] = {
        value: row.dataset.value ?? '',
        shown: row.querySelector<HTMLElement>('.figure-shown')?.innerText ?? '',
        was: row.querySelector<HTMLElement>('.changed-was')?.innerText ?? '',
        changed: row.dataset.changed === 'true',
        text: row.innerText,
      };
    }
    const reading = {
      quoteTime:
        element.querySelector<HTMLElement>('[data-testid="confirm-quote-time"]')?.dataset.value ?? '',
      rows,
      state: element.querySelector<HTMLElement>('[data-testid="requote"]')?.dataset.state ?? null,
    };
    if (confirm) {
      const button = element.querySelector<HTMLButtonElement>('.confirm-actions .button.primary');
      if (!button || button.disabled) return null;
      button.click();
    }
    return reading;
  }, thenConfirm);
}

async function read(dialog: Locator): Promise<Reading> {
  const reading = await readAnd(dialog, false);
  if (!reading) throw new Error('no reading');
  return reading;
}

/** Confirms what is on screen (once the button is enabled) and returns what that was. */
async function confirmShown(dialog: Locator): Promise<Reading> {
  let shown: Reading | null = null;
  await expect
    .poll(
      async () => {
        shown = await readAnd(dialog, true);
        return shown !== null;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
  return shown as unknown as Reading;
}

/**
 * Confirms and waits for the order. A machine under load may deliver a confirm after the quote's
 * lifetime; then the dialog renews in place (as tested below) and the test confirms the new
 * figures. Returns the figures of the confirm that opened the position.
 */
async function confirmUntilOpened(page: Page, dialog: Locator): Promise<Reading> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const shown = await confirmShown(dialog);
    let outcome = '';
    await expect
      .poll(
        async () => {
          if (/^\/profile\/orders\/\d+$/.test(new URL(page.url()).pathname)) outcome = 'opened';
          else if ((await dialog.count()) === 0) outcome = '';
          else if (await dialog.locator('.form-error').count()) outcome = 'refused';
          else {
            const now = await readAnd(dialog, false);
            if (now?.state === 'failed') outcome = 'failed';
            else
              outcome =
                now && now.quoteTime !== shown.quoteTime && now.state !== 'refreshing' ? 'renewed' : '';
          }
          return outcome;
        },
        { timeout: 30_000, interval: 100 },
      )
      .not.toBe('');
    if (outcome === 'opened') return shown;
    if (outcome === 'refused') throw new Error(await dialog.locator('.form-error').first().innerText());
    if (outcome === 'failed')
      throw new Error(`renewal failed: ${await dialog.locator('[data-testid="requote"]').innerText()}`);
  }
  throw new Error('the order did not open after five renewals');
}

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

async function reviewOrder(page: Page): Promise<Locator> {
  await liveFigures(page);
  await expect.poll(() => page.getByRole('alert').count(), { timeout: 30_000 }).toBe(0);
  await page.getByRole('button', { name: 'Review order' }).click();
  const dialog = page.getByTestId('order-confirm');
  await dialog.waitFor({ timeout: 60_000 });
  return dialog;
}

/** After a confirm, the order detail shows exactly the figures that were on screen when it was sent. */
async function expectOpenedAt(page: Page, shown: Reading, book: Book = 'demo'): Promise<void> {
  await expect
    .poll(() => new URL(page.url()).pathname, { timeout: 30_000 })
    .toMatch(/^\/profile\/orders\/\d+$/);
  const detail = page.locator('.order-detail');
  await detail.waitFor({ timeout: 60_000 });
  const value = (key: string) => detail.locator(`[data-figure="${key}"]`).first().getAttribute('data-value');
  expect(await value('openPrice')).toBe(shown.rows.price?.value);
  expect(await value('margin')).toBe(shown.rows.margin?.value);
  expect(await value('fee')).toBe(shown.rows.fee?.value);
  expect(await badgeOf(detail)).toMatchObject({ book, name: book === 'demo' ? DEMO_NAME : LIVE_NAME });
}

describe('which book', () => {
  it('the ticket, the confirm dialog and every money screen say Demo or Live, in words, in both books', async () => {
    const { page, errors } = await open('desktop', 'books@example.com');
    await page.goto(btcPage);
    const ticket = page.locator('.ticket');
    await ticket.waitFor({ timeout: 60_000 });
    expect(await badgeOf(ticket)).toEqual({
      book: 'demo',
      name: DEMO_NAME,
      text: expect.stringMatching(/Demo account[\s\S]*Virtual money/),
    });
    expect(await page.getByRole('img', { name: DEMO_NAME }).isVisible()).toBe(true);
    const dialog = await reviewOrder(page);
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
    await page.goto('/profile/balance');
    await page.getByRole('button', { name: 'Live account' }).click();
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
    await page.goto(btcPage);
    await ticket.waitFor({ timeout: 60_000 });
    expect(await badgeOf(ticket)).toMatchObject({ book: 'live', name: LIVE_NAME });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('a quote that ages out in the confirm dialog is renewed in place with the changes marked, and opens at the shown figures', async () => {
    const { page, errors } = await open('desktop', 'renewal@example.com');
    await page.goto(btcPage);
    const dialog = await reviewOrder(page);
    // (The ticket's figures may already be old when the dialog opens; then it renews them at once.)
    let first = await read(dialog);
    await expect
      .poll(
        async () => {
          first = await read(dialog);
          return first.state !== 'refreshing';
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(true);

    // Nobody clicks: before the quote runs out the dialog fetches the current one and marks changes.
    let renewed = first;
    await expect
      .poll(
        async () => {
          renewed = await read(dialog);
          return renewed.quoteTime !== first.quoteTime && renewed.state !== 'refreshing';
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);
    expectMarked(first, renewed);
    expect(await dialog.getByTestId('requote').innerText()).toMatch(/^New quote from /);
    expect(await seriousViolations(page), 'renewed').toEqual([]);

    // Confirming now opens the position at exactly what is on screen.
    await expectOpenedAt(page, await confirmUntilOpened(page, dialog));
    expect(errors).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('a confirm that arrives after the quote lifetime (10032) is renewed in place, and the renewed figures open', async () => {
    const { page, errors, session } = await open('desktop', 'late@example.com');
    await page.goto(btcPage);
    const dialog = await reviewOrder(page);

    // The network holds the confirm until the server's clock is past the quote's lifetime.
    const serverSecond = async (body: unknown) => {
      const response = await fetch(`${server.baseUrl}/swx/customer/order/previewOptions`, {
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
    const sent = await confirmShown(dialog);
    let renewed = sent;
    await expect
      .poll(
        async () => {
          renewed = await read(dialog);
          return renewed.quoteTime !== sent.quoteTime && renewed.state !== 'refreshing';
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(true);
    expect(held).toBe(1);
    expectMarked(sent, renewed);
    expect(await page.getByTestId('requote-announcer').innerText()).toMatch(/^New quote from /);
    // Nothing opened: the dialog is still asking, on the same page.
    expect(new URL(page.url()).pathname).toBe('/cruuency');
    await page.unroute('**/swx/customer/order/buyOptions');

    await expectOpenedAt(page, await confirmUntilOpened(page, dialog));
    expect(errors).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('on a 390 px phone in Arabic the confirm buttons stay in view while the figures scroll', async () => {
    const { page, errors } = await open('mobile', 'phone-books@example.com');
    await page.addInitScript(() => localStorage.setItem('language', 'ar'));
    await page.goto(btcPage);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dir), { timeout: 60_000 })
      .toBe('rtl');
    const ticket = page.locator('.ticket');
    await ticket.waitFor({ timeout: 60_000 });
    expect(await badgeOf(ticket)).toMatchObject({ book: 'demo', name: 'حساب تجريبي: أموال افتراضية' });
    await liveFigures(page);
    await expect.poll(() => page.getByRole('alert').count(), { timeout: 30_000 }).toBe(0);
    await page.locator('.ticket-figures button[type="submit"]').click();
    const dialog = page.getByTestId('order-confirm');
    await dialog.waitFor({ timeout: 60_000 });
    expect(await badgeOf(dialog)).toMatchObject({ book: 'demo' });

    const viewport = page.viewportSize() ?? { width: 390, height: 844 };
    const inView = async (locator: Locator) => {
      const box = await locator.boundingBox();
      return (
        box !== null &&
        box.x >= 0 &&
        box.y >= 0 &&
        box.x + box.width <= viewport.width &&
        box.y + box.height <= viewport.height
      );
    };
    const buttons = dialog.locator('.confirm-actions button');
    expect(await buttons.count()).toBe(2);
    for (const button of await buttons.all()) expect(await inView(button)).toBe(true);
    // The figures scroll between the fixed title and buttons; scrolled to the end, the buttons stay.
    const scroller = dialog.locator('.confirm-scroll');
    expect(await scroller.evaluate((e) => getComputedStyle(e).overflowY)).toBe('auto');
    await scroller.evaluate((e) => e.scrollTo(0, e.scrollHeight));
    for (const button of await buttons.all()) expect(await inView(button)).toBe(true);
    expect(await inView(dialog.getByTestId('book-badge'))).toBe(true);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), 'confirm ar').toEqual([]);

    // Money screens on the phone say the book too.
    await page.keyboard.press('Escape');
    for (const path of ['/profile/balance', '/profile/transactions', '/profile/orders']) {
      await page.goto(path);
      expect(await badgeOf(page.locator('.page-head')), path).toMatchObject({ book: 'demo' });
    }
    expect(errors).toEqual([]);
    await page.context().close();
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
      const ledger = new LedgerService(database.db, new AuditService(database.db));
      const amount = 10_000_000_000n; // 10,000 USDT
      await ledger.transfer({
        book: 'live',
        kind: 'deposit',
        idempotencyKey: `e2e-live-deposit-${session.userInfo.id}`,
        actor: 'test',
        reason: 'live funds for the book badge test',
        postings: [
          { accountId: await ledger.systemAccount('live', 'USDT', 'external_clearing'), amount: -amount },
          { accountId: await ledger.walletAccount('live', session.userInfo.id, 'USDT'), amount },
        ],
      });
      const liveBtcPage = await btcPagePath(live.server.baseUrl);
      const context = await newContext(browser, 'desktop', live.server.baseUrl);
      await holdSession(context, session);
      await context.addInitScript(() => localStorage.setItem('virtual', '0'));
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(liveBtcPage);
      const ticket = page.locator('.ticket');
      await ticket.waitFor({ timeout: 60_000 });
      expect(await badgeOf(ticket)).toMatchObject({ book: 'live', name: LIVE_NAME });
      await expect
        .poll(() => ticket.locator('[data-figure="available"]').first().innerText(), { timeout: 30_000 })
        .toContain('10,000.00 USDT');
      const dialog = await reviewOrder(page);
      expect(await badgeOf(dialog)).toEqual({
        book: 'live',
        name: LIVE_NAME,
        text: expect.stringMatching(/Live account[\s\S]*Real money/),
      });
      expect(await seriousViolations(page), 'confirm live').toEqual([]);
      await expectOpenedAt(page, await confirmUntilOpened(page, dialog), 'live');
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await live.stop();
      await database.close();
    }
  }, 300_000);
});
