import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, registerByApi } from '../support/accounts.ts';
import {
  btcPagePath,
  holdSession,
  newContext,
  seriousViolations,
  startServerAndBrowser,
  watchErrors,
} from '../support/browser.ts';
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

async function open(layout: 'desktop' | 'mobile', email?: string): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, layout, server.baseUrl);
  await context.addInitScript(() => sessionStorage.setItem('welcomeShown', '1'));
  if (email) {
    await holdSession(context, await registerByApi(server, inbox, email));
  }
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

/** The welcome notice arrives in a blocking dialog; closing it marks it read. */
async function closeNotice(page: Page): Promise<void> {
  await page.locator('dialog.notice-dialog[open]').getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => page.locator('dialog.notice-dialog[open]').count()).toBe(0);
}

const figure = (scope: Locator, key: string) => scope.locator(`[data-figure="${key}"]`).first();
const figureValue = (scope: Locator, key: string) => figure(scope, key).getAttribute('data-value');

/** Waits until the ticket shows figures priced for exactly what is typed. */
async function liveFigures(page: Page): Promise<Locator> {
  const figures = page.locator('.ticket-figures .figures.live');
  await figures.waitFor();
  return figures;
}

type Shown = { quoteTime: string; price: string; margin: string; fee: string; marginText: string };

/**
 * Confirms the order on the confirm screen. The dialog renews a quote in place before it runs out
 * (and when the server says it has), so the figures are read and the button clicked in one task of
 * the page: what is returned is exactly what was on screen when the confirm was sent. When the
 * server refused the quote as too old, the dialog shows new figures and the test confirms again.
 * Returns the figures of the confirm that opened the position.
 */
async function confirmOrder(page: Page): Promise<Shown> {
  const dialog = page.getByTestId('order-confirm');
  for (let attempt = 0; attempt < 5; attempt++) {
    let clicked: Shown | null = null;
    await expect
      .poll(
        async () => {
          clicked = await dialog.evaluate((element) => {
            const value = (key: string) =>
              element.querySelector<HTMLElement>(`.confirm-figures [data-figure="${key}"]`)?.dataset.value ??
              '';
            const button = [...element.querySelectorAll('button')].find(
              (b) => b.textContent === 'Confirm and open',
            );
            if (!button || button.disabled) return null;
            const read = {
              quoteTime:
                element.querySelector<HTMLElement>('[data-testid="confirm-quote-time"]')?.dataset.value ?? '',
              price: value('price'),
              margin: value('margin'),
              fee: value('fee'),
              marginText:
                element.querySelector<HTMLElement>('[data-figure="margin"] .figure-shown')?.innerText ?? '',
            };
            button.click();
            return read;
          });
          return clicked !== null;
        },
        { timeout: 45_000, interval: 100 },
      )
      .toBe(true);
    const shown = clicked as unknown as Shown;
    let outcome = 'waiting';
    await expect
      .poll(
        async () => {
          if (/\/profile\/orders\/\d+$/.test(new URL(page.url()).pathname)) outcome = 'opened';
          else if (!(await dialog.isVisible())) outcome = 'waiting';
          else if (await dialog.locator('.form-error').count())
            outcome = `refused: ${await dialog.locator('.form-error').first().innerText()}`;
          else {
            const now = await dialog.getByTestId('confirm-quote-time').getAttribute('data-value');
            outcome = now !== shown.quoteTime ? 'requoted' : 'waiting';
          }
          return outcome;
        },
        { timeout: 45_000 },
      )
      .not.toBe('waiting');
    if (outcome.startsWith('refused')) throw new Error(`the confirm was ${outcome}`);
    if (/\/profile\/orders\/\d+$/.test(new URL(page.url()).pathname)) return shown;
    await dialog.getByTestId('requote').waitFor();
  }
  throw new Error('the order did not open after five requotes');
}

describe('trading, desktop', () => {
  it('opens a position from the ticket, confirms it, sees it live, closes it and finds it in history', {
    timeout: 180_000,
  }, async () => {
    const { page, errors } = await open('desktop', 'trader@example.com');
    await page.goto(btcPage);
    await closeNotice(page);
    const ticket = page.getByRole('form', { name: 'Order ticket for BTCUSDT' });
    await ticket.waitFor();

    // The stated terms before anything is committed.
    expect(await page.locator('[data-term="feeRate"] dd').innerText()).toContain('0.1%');
    expect(await page.locator('[data-term="maxLeverage"] dd').innerText()).toBe('2×');
    expect(await page.locator('[data-term="stopOut"] dd').innerText()).toContain('50%');
    expect(await page.locator('[data-term="lotSize"] dd').innerText()).toBe('1 lot = 1 BTC');

    // Sensible stops are filled in, and the figures are priced live.
    const stopLoss = page.getByLabel('Stop loss price');
    const takeProfit = page.getByLabel('Take profit price');
    await expect.poll(() => stopLoss.inputValue()).not.toBe('');
    let figures = await liveFigures(page);
    const ask = Number(await figureValue(figures, 'ask'));
    expect(Number(await stopLoss.inputValue())).toBeLessThan(ask);
    expect(Number(await takeProfit.inputValue())).toBeGreaterThan(ask);
    expect(await figureValue(figures, 'price')).toBe(await figureValue(figures, 'ask'));
    await expect.poll(() => figure(figures, 'available').innerText()).toContain('100,000.00 USDT');
    const firstQuote = await page.locator('.ticket-figures time').innerText();
    await expect.poll(() => page.locator('.ticket-figures time').innerText()).not.toBe(firstQuote);
    expect(await seriousViolations(page), 'ticket').toEqual([]);

    // The spec's messages: enter a stop loss, then each unreasonable case on its own.
    const defaults = { stopLoss: await stopLoss.inputValue(), takeProfit: await takeProfit.inputValue() };
    await stopLoss.fill('');
    await stopLoss.blur();
    await page.getByText('Please enter a stop loss price.').waitFor();
    await stopLoss.fill(defaults.takeProfit);
    await page.getByText('The stop loss price is not reasonable.').waitFor();
    await takeProfit.fill(defaults.stopLoss);
    await page.getByText('Neither the stop loss price nor the take profit price is reasonable.').waitFor();
    await stopLoss.fill(defaults.stopLoss);
    await page.getByText('The take profit price is not reasonable.').waitFor();

    // Sell short puts the stops on the other side; back to buy long restores long stops.
    await page.getByRole('button', { name: /Sell short/ }).click();
    expect(await page.getByRole('button', { name: /Sell short/ }).getAttribute('aria-pressed')).toBe('true');
    figures = await liveFigures(page);
    await expect.poll(async () => Number(await stopLoss.inputValue())).toBeGreaterThan(ask * 0.995);
    expect(await figureValue(figures, 'price')).toBe(await figureValue(figures, 'bid'));
    await page.getByRole('button', { name: /Buy long/ }).click();
    await expect.poll(async () => Number(await stopLoss.inputValue())).toBeLessThan(ask);

    await page.getByLabel('Lots', { exact: true }).fill('0.05');
    await page.getByRole('button', { name: 'More lots' }).click();
    expect(await page.getByLabel('Lots', { exact: true }).inputValue()).toBe('0.06');
    await page.getByLabel('Leverage').selectOption('2');
    await page.getByLabel('Auto-close').selectOption({ label: '1 day' });
    figures = await liveFigures(page);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);

    await page.getByRole('button', { name: 'Review order' }).click();
    const dialog = page.getByTestId('order-confirm');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').first().innerText()).toBe('Confirm your order');
    expect(await figureValue(dialog, 'lots')).toBe('0.06');
    expect(await figureValue(dialog, 'leverage')).toBe('2');
    expect(await seriousViolations(page), 'confirm').toEqual([]);
    // Escape closes the confirm step; nothing is opened.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await liveFigures(page);
    await page.getByRole('button', { name: 'Review order' }).click();
    await dialog.waitFor();
    const shown = await confirmOrder(page);

    // The order detail shows the figures that were confirmed.
    const detail = page.locator('.order-detail');
    await detail.waitFor();
    const orderId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await figureValue(detail, 'margin')).toBe(shown.margin);
    expect(await figureValue(detail, 'fee')).toBe(shown.fee);
    expect(await figureValue(detail, 'openPrice')).toBe(shown.price);
    expect(await figure(detail, 'margin').locator('dd').innerText()).toBe(shown.marginText);
    expect(await figureValue(detail, 'status')).toBe('open');
    expect(await figure(detail, 'direction').innerText()).toContain('Buy long');
    expect(await figureValue(detail, 'autoCloseAt')).not.toBe('');
    expect(await figure(detail, 'orderNo').locator('dd').innerText()).not.toBe('');
    expect(await seriousViolations(page), 'detail').toEqual([]);

    // Open positions: live figures, and edits refused with the spec's messages.
    await page.goto('/profile/orders');
    const row = page.locator(`tr[data-order="${orderId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('Buy long');
    await expect.poll(() => row.locator('.profit').first().innerText()).toMatch(/USDT$/);
    expect(await seriousViolations(page), 'orders').toEqual([]);
    await row.getByRole('button', { name: /Edit SL\/TP/ }).click();
    const edit = page.getByTestId('edit-dialog');
    await edit.getByLabel('Stop loss price').fill('9999999');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('The stop loss price is not reasonable.').waitFor();
    await edit.getByLabel('Take profit price').fill('1');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Neither the stop loss price nor the take profit price is reasonable.').waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await row.getByRole('button', { name: /Close/ }).click();
    const closing = page.getByTestId('close-dialog').filter({ visible: true });
    await closing.getByRole('button', { name: 'Close now' }).click();
    await page.getByRole('status').filter({ hasText: 'BTCUSDT closed at' }).waitFor();
    await expect.poll(() => row.count()).toBe(0);

    await page.getByRole('tab', { name: 'History' }).click();
    const closed = page.locator(`tr[data-order="${orderId}"]`);
    await closed.waitFor();
    expect(await closed.getAttribute('data-reason')).toBe('manual');
    expect(await closed.locator('.reason').innerText()).toBe('Manual close');
    expect(await seriousViolations(page), 'history').toEqual([]);

    await closed.getByRole('link').click();
    await expect.poll(() => figureValue(page.locator('.order-detail'), 'status')).toBe('closed');
    expect(await figureValue(page.locator('.order-detail'), 'closeReason')).toBe('manual');
    expect(await figure(page.locator('.order-detail'), 'absorbed').locator('dd').innerText()).toBe(
      '0.00 USDT',
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('offers a login instead of the submit button when logged out, and says so for an unknown order', async () => {
    const { page } = await open('desktop');
    await page.goto(btcPage);
    await liveFigures(page);
    await page.getByText('Log in or sign up to open a position.').waitFor();
    expect(await page.getByRole('button', { name: 'Review order' }).count()).toBe(0);
    await page.context().close();

    const { page: other } = await open('desktop', 'nobody@example.com');
    await other.goto('/profile/orders/999999');
    await closeNotice(other);
    await other.getByTestId('order-not-found').waitFor();

    // A market that is closed right now (stocks and forex keep hours) says so and cannot be submitted.
    let closed: { id: number; code: string; type: number } | undefined;
    for (const type of [3, 1, 5, 6, 7]) {
      const list = (await (
        await fetch(`${server.baseUrl}/swx/customer/index/listMarketByType?type=${type}`)
      ).json()) as { data: { id: number; code: string; type: number; open: boolean }[] };
      closed = list.data.find((item) => !item.open);
      if (closed) break;
    }
    if (closed) {
      await other.goto(`/cruuency?code=${closed.code}&type=${closed.type}&id=${closed.id}`);
      await other.getByTestId('market-closed').waitFor();
      expect(await other.getByRole('button', { name: 'Review order' }).isDisabled()).toBe(true);
    }
    await other.context().close();
  });
});

/** Decimal text ↔ integer at a scale, for exact sums in the test (no floating point). */
const units = (text: string, scale: number) => {
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const value = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return text.startsWith('-') ? -value : value;
};

describe('trading, the feed closes a position', () => {
  it('a take profit one tick away is reached: the position closes by itself, the notice shows, history and balance follow', async () => {
    const email = 'tp-trader@example.com';
    const session = await registerByApi(server, inbox, email);
    const call = async <T>(path: string, body?: unknown) => {
      const response = await fetch(`${server.baseUrl}/swx/customer${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: session.token, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return ((await response.json()) as { data: T }).data;
    };
    const btcId = Number(new URLSearchParams(btcPage.split('?')[1]).get('id'));
    type Figures = { quoteId: string; bid: string; ask: string; unreasonable: string[] };
    const base = { marketId: btcId, lots: '0.02', leverage: 2, autoCloseAfter: null };
    // A long one tick below its take profit and a short one tick above its: whichever way the
    // market moves next, one of them reaches its target within seconds.
    const now = await call<Figures>('/order/previewOptions', {
      ...base,
      direction: 'long',
      stopLoss: '1.00',
      takeProfit: '1.00',
    });
    const shift = (price: string, ticks: bigint) => {
      const value = units(price, 2) + ticks;
      return `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;
    };
    const tickets = [
      { ...base, direction: 'long', stopLoss: shift(now.bid, -1_000_000n), takeProfit: shift(now.bid, 1n) },
      { ...base, direction: 'short', stopLoss: shift(now.ask, 1_000_000n), takeProfit: shift(now.ask, -1n) },
    ];
    const ids: number[] = [];
    for (const ticket of tickets) {
      const preview = await call<Figures>('/order/previewOptions', ticket);
      if (preview.unreasonable.length) continue;
      const order = await call<{ id: number }>('/order/buyOptions', {
        ...ticket,
        quoteId: preview.quoteId,
        requestId: crypto.randomUUID(),
      });
      if (order?.id) ids.push(order.id);
    }
    expect(ids.length).toBeGreaterThan(0);

    const { page, errors } = await open('desktop');
    await holdSession(page.context(), session);
    await page.goto('/profile/orders');
    // The engine closes one of them; its notice arrives by the 10-second poll, in a blocking dialog
    // (one at a time: the welcome notice too, in whichever order they come).
    const notice = page.locator('dialog.notice-dialog[open]');
    const seen: string[] = [];
    const deadline = Date.now() + 90_000;
    while (!seen.some((t) => t.includes('take profit')) && Date.now() < deadline) {
      await notice.waitFor({ timeout: Math.max(1, deadline - Date.now()) });
      const shown = await notice.innerText();
      seen.push(shown);
      await notice.getByRole('button', { name: 'Close' }).click();
      // Closed: gone, or the next unread notice in its place.
      await expect
        .poll(async () => ((await notice.count()) === 0 ? '' : await notice.innerText()))
        .not.toBe(shown);
    }
    // The other position may reach its target too; settle it now and mark every notice read, so no
    // further dialog blocks the page while the test reads the history.
    for (const id of ids) await call('/order/closeOptions', { id });
    await readAllNotices(server.baseUrl, session.token);
    await page.reload();
    const text = seen.find((t) => t.includes('take profit')) ?? '';
    expect(text).toMatch(/reached its take profit and closed at/);

    type Order = {
      id: number;
      status: string;
      closeReason: string | null;
      margin: string;
      fee: string;
      profit: string;
    };
    const orders = await Promise.all(ids.map((id) => call<Order>(`/order/getOptionsOrderById/${id}`)));
    const closedOrder = orders.find((o) => text.includes(`SWX${String(o.id).padStart(9, '0')}`)) as Order;
    expect(closedOrder).toMatchObject({ status: 'closed', closeReason: 'take_profit' });

    await page.getByRole('tab', { name: 'History' }).click();
    const row = page.locator(`tr[data-order="${closedOrder.id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-reason')).toBe('take_profit');
    expect(await row.locator('.reason').innerText()).toBe('Take profit');

    // Everything is closed now; the balance follows to the last minor unit: 100,000 − every fee + every profit.
    expect(orders.every((o) => o.status === 'closed')).toBe(true);
    const expected =
      units('100000', 6) -
      orders.reduce((sum, o) => sum + units(o.fee, 6), 0n) +
      orders.reduce((sum, o) => sum + units(o.profit, 6), 0n);
    const balances = await call<{ balances: { asset: string; available: string }[] }>('/user/getBalances');
    expect(units(balances.balances.find((b) => b.asset === 'USDT')?.available ?? '', 6)).toBe(expected);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 150_000);
});

describe('trading, mobile', () => {
  it('trades from the phone layout without serious accessibility problems or sideways scrolling', async () => {
    const { page, errors } = await open('mobile', 'phone-trader@example.com');
    await page.goto(btcPage);
    await closeNotice(page);
    await liveFigures(page);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    expect(await seriousViolations(page), 'ticket').toEqual([]);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow(), 'ticket').toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Review order' }).click();
    await page.getByTestId('order-confirm').waitFor();
    expect(await seriousViolations(page), 'confirm').toEqual([]);
    const shown = await confirmOrder(page);
    const detail = page.locator('.order-detail');
    await detail.waitFor();
    expect(await figureValue(detail, 'margin')).toBe(shown.margin);
    expect(await seriousViolations(page), 'detail').toEqual([]);
    expect(await overflow(), 'detail').toBeLessThanOrEqual(0);

    await page.goto('/profile/orders');
    const card = page.locator('li.order-card').first();
    await card.waitFor();
    expect(await seriousViolations(page), 'orders').toEqual([]);
    expect(await overflow(), 'orders').toBeLessThanOrEqual(0);
    await card.getByRole('button', { name: /Close/ }).click();
    await page
      .getByTestId('close-dialog')
      .filter({ visible: true })
      .getByRole('button', { name: 'Close now' })
      .click();
    await page.getByText('You have no open positions in this account.').waitFor();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.locator('li.order-card[data-reason="manual"]').waitFor();
    expect(await seriousViolations(page), 'history').toEqual([]);

    // Arabic mirrors the ticket.
    await page.evaluate(() => localStorage.setItem('language', 'ar'));
    await page.goto(btcPage);
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByRole('button', { name: /شراء/ }).first().waitFor();
    expect(await overflow(), 'ticket ar').toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
