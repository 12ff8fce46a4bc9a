import type { Position } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { readAllNotices } from '../support/accounts.ts';
import { customerApi } from '../support/api.ts';
import { type Layout, screenshotTo, seriousViolations } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import {
  figure,
  figureValue,
  InstrumentPage,
  MobileOrdersPage,
  NoticeDialog,
  OrderDetailPage,
  OrdersPage,
} from '../support/pages/index.ts';

const app = useApp();

/** A page, logged in as a new customer named `email` (the welcome notice left unread) or a visitor. */
async function open(layout: Layout, email?: string) {
  return app.open(layout, email ? { as: await app.customer(email) } : {});
}

describe('trading, desktop', () => {
  it('opens a position from the ticket, confirms it, sees it live, closes it and finds it in history', {
    timeout: 180_000,
  }, async () => {
    const { page, errors } = await open('desktop', 'trader@example.com');
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    await new NoticeDialog(page).close();
    const ticket = instrument.ticket;
    await ticket.form('BTCUSDT').waitFor();

    // The stated terms before anything is committed.
    expect(await ticket.term('feeRate').innerText()).toContain('0.1%');
    expect(await ticket.term('maxLeverage').innerText()).toBe('2×');
    expect(await ticket.term('stopOut').innerText()).toContain('50%');
    expect(await ticket.term('lotSize').innerText()).toBe('1 lot = 1 BTC');

    // Sensible stops are filled in, and the figures are priced live.
    const { stopLoss, takeProfit } = ticket;
    await expect.poll(() => stopLoss.inputValue()).not.toBe('');
    let figures = await ticket.liveFigures();
    const ask = Number(await figureValue(figures, 'ask'));
    expect(Number(await stopLoss.inputValue())).toBeLessThan(ask);
    expect(Number(await takeProfit.inputValue())).toBeGreaterThan(ask);
    expect(await figureValue(figures, 'price')).toBe(await figureValue(figures, 'ask'));
    await expect.poll(() => figure(figures, 'available').innerText()).toContain('100,000.00 USDT');
    const firstQuote = await ticket.quoteTime.innerText();
    await expect.poll(() => ticket.quoteTime.innerText()).not.toBe(firstQuote);
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
    await ticket.sellShort();
    expect(await ticket.direction('Sell short').getAttribute('aria-pressed')).toBe('true');
    figures = await ticket.liveFigures();
    await expect.poll(async () => Number(await stopLoss.inputValue())).toBeGreaterThan(ask * 0.995);
    expect(await figureValue(figures, 'price')).toBe(await figureValue(figures, 'bid'));
    await ticket.buyLong();
    await expect.poll(async () => Number(await stopLoss.inputValue())).toBeLessThan(ask);

    await ticket.lots.fill('0.05');
    await ticket.moreLots();
    expect(await ticket.lots.inputValue()).toBe('0.06');
    await ticket.leverage.selectOption('2');
    await ticket.autoClose.selectOption({ label: '1 day' });
    // A trailing stop 500.00 behind the price: the figures say where it starts.
    await ticket.trailingDistance.fill('500');
    figures = await ticket.liveFigures();
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => figureValue(figures, 'trailingLevel')).not.toBeNull();

    let confirm = await ticket.review();
    const dialog = confirm.root;
    expect(await dialog.getByRole('heading').first().innerText()).toBe('Confirm your order');
    expect(await figureValue(dialog, 'lots')).toBe('0.06');
    expect(await figureValue(dialog, 'leverage')).toBe('2');
    expect(await figureValue(dialog, 'trailingDistance')).toBe('500.00');
    expect(await seriousViolations(page), 'confirm').toEqual([]);
    // Escape closes the confirm step; nothing is opened.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    confirm = await ticket.review();
    const shown = await confirm.confirmUntilOpened();

    // The order detail shows the figures that were confirmed.
    const detail = new OrderDetailPage(page);
    await detail.root.waitFor();
    const orderId = detail.orderId();
    expect(await detail.value('margin')).toBe(shown.margin);
    expect(await detail.value('fee')).toBe(shown.fee);
    expect(await detail.value('openPrice')).toBe(shown.price);
    expect(await detail.figure('margin').locator('dd').innerText()).toBe(shown.marginText);
    expect(await detail.value('status')).toBe('open');
    expect(await detail.figure('direction').innerText()).toContain('Buy long');
    expect(await detail.value('autoCloseAt')).not.toBe('');
    expect(await detail.figure('orderNo').locator('dd').innerText()).not.toBe('');
    expect(await detail.value('trailingDistance')).toBe('500.00');
    expect(Number(await detail.value('trailingLevel'))).toBeLessThan(Number(shown.price));
    expect(await seriousViolations(page), 'detail').toEqual([]);

    // Open positions: live figures, and edits refused with the spec's messages.
    const orders = new OrdersPage(page);
    await orders.goto();
    const row = orders.row(orderId);
    await row.waitFor();
    expect(await row.innerText()).toContain('Buy long');
    await expect.poll(() => row.locator('.profit').first().innerText()).toMatch(/USDT$/);
    expect(await seriousViolations(page), 'orders').toEqual([]);
    // In Arabic, whose action words are the longest, the open positions still fit a desktop page.
    await orders.setLanguage('ar');
    await page.reload();
    await row.waitFor();
    // Measured once the row has its live figures (their text is the widest part of the row) and
    // the fonts are in: a busy machine once measured the table while the row was still being drawn.
    await expect.poll(() => row.locator('.profit').first().innerText()).toMatch(/USDT/);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await screenshotTo(page, 'orders-desktop-ar');
    await expect.poll(() => orders.tableOverflow(), { message: 'orders table, ar' }).toBeLessThanOrEqual(0);
    await orders.setLanguage('en');
    await page.reload();
    await row.waitFor();
    const edit = await orders.editStops(row);
    await edit.getByLabel('Stop loss price').fill('9999999');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('The stop loss price is not reasonable.').waitFor();
    await edit.getByLabel('Take profit price').fill('1');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Neither the stop loss price nor the take profit price is reasonable.').waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    // The trailing stop: shown on the row with its level; a distance past the price is refused.
    expect(await row.locator('[data-figure="trailingLevel"]').getAttribute('data-value')).not.toBeNull();
    const trailingEdit = await orders.editStops(row);
    expect(await trailingEdit.getByLabel('Trailing stop distance (optional)').inputValue()).toBe('500.00');
    await trailingEdit.getByLabel('Trailing stop distance (optional)').fill('99999999');
    await trailingEdit.getByRole('button', { name: 'Save' }).click();
    await trailingEdit.getByText('The trailing distance is not reasonable', { exact: false }).waitFor();
    await trailingEdit.getByRole('button', { name: 'Cancel' }).click();

    await orders.closeNow(row);
    await page.getByRole('status').filter({ hasText: 'BTCUSDT closed at' }).waitFor();
    await expect.poll(() => row.count()).toBe(0);

    await orders.showHistory();
    const closed = orders.row(orderId);
    await closed.waitFor();
    expect(await closed.getAttribute('data-reason')).toBe('manual');
    expect(await closed.locator('.reason').innerText()).toBe('Manual close');
    expect(await seriousViolations(page), 'history').toEqual([]);

    await closed.getByRole('link').click();
    await expect.poll(() => detail.value('status')).toBe('closed');
    expect(await detail.value('closeReason')).toBe('manual');
    expect(await detail.figure('absorbed').locator('dd').innerText()).toBe('0.00 USDT');
    expect(errors).toEqual([]);
    await detail.close();
  });

  it('offers a login instead of the submit button when logged out, and says so for an unknown order', async () => {
    const { page } = await open('desktop');
    const visitor = new InstrumentPage(page);
    await visitor.goto(await app.btcPage());
    await visitor.ticket.liveFigures();
    await page.getByText('Log in or sign up to open a position.').waitFor();
    expect(await visitor.ticket.reviewButton.count()).toBe(0);
    await visitor.close();

    const { page: other } = await open('desktop', 'nobody@example.com');
    const detail = new OrderDetailPage(other);
    await detail.goto(999999);
    await new NoticeDialog(other).close();
    await detail.notFound.waitFor();

    // A market that is closed right now (stocks and forex keep hours) says so and cannot be submitted.
    let closed: { id: number; code: string; type: number } | undefined;
    for (const type of [3, 1, 5, 6, 7]) {
      const list = await customerApi(app.server).ok('listMarketByType', { type });
      closed = list.find((item) => !item.open);
      if (closed) break;
    }
    if (closed) {
      const instrument = new InstrumentPage(other);
      await instrument.goto(closed);
      await other.getByTestId('market-closed').waitFor();
      expect(await instrument.ticket.reviewButton.isDisabled()).toBe(true);
    }
    await detail.close();
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
    const session = await app.customer(email);
    const api = customerApi(app.server, session);
    const btcId = Number(new URLSearchParams((await app.btcPage()).split('?')[1]).get('id'));
    const base = { marketId: btcId, lots: '0.02', leverage: 2, autoCloseAfter: null };
    // A long one tick below its take profit and a short one tick above its: whichever way the
    // market moves next, one of them reaches its target within seconds.
    const now = await api.ok('previewOptions', {
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
      {
        ...base,
        direction: 'long' as const,
        stopLoss: shift(now.bid, -1_000_000n),
        takeProfit: shift(now.bid, 1n),
      },
      {
        ...base,
        direction: 'short' as const,
        stopLoss: shift(now.ask, 1_000_000n),
        takeProfit: shift(now.ask, -1n),
      },
    ];
    const ids: number[] = [];
    for (const ticket of tickets) {
      const preview = await api.ok('previewOptions', ticket);
      if (preview.unreasonable.length) continue;
      const order = await api.call('openPosition', {
        ...ticket,
        quoteId: preview.quoteId,
        requestId: crypto.randomUUID(),
      });
      if (order.code === 200 && order.data.id) ids.push(order.data.id);
    }
    expect(ids.length).toBeGreaterThan(0);

    const { page, errors } = await app.open('desktop', { as: session });
    const orders = new OrdersPage(page);
    await orders.goto();
    // The engine closes one of them; its notice is routine (a trade closed): it waits, unread, in the
    // notification list, and the one dialog the page opens is the must-read welcome.
    const unread = async () =>
      (await api.ok('getNoticeList', { readState: '0' })).map((n) => ({
        text: n.noticeContent,
        mustRead: n.mustRead,
      }));
    await expect
      .poll(async () => (await unread()).some((n) => n.text.includes('take profit')), { timeout: 90_000 })
      .toBe(true);
    const seen = (await unread()).map((n) => n.text);
    expect((await unread()).find((n) => n.text.includes('take profit'))?.mustRead).toBe(false);
    const notice = new NoticeDialog(page);
    expect(await notice.closeNext(30_000)).toContain('Welcome');
    // The other position may reach its target too; settle it now and mark every notice read, so no
    // further dialog blocks the page while the test reads the history.
    for (const id of ids) await api.call('closeOptions', { id });
    await readAllNotices(app.server, session.token);
    await page.reload();
    const text = seen.find((t) => t.includes('take profit')) ?? '';
    expect(text).toMatch(/reached its take profit and closed at/);

    const positions = await Promise.all(ids.map((id) => api.ok('getPosition', { id })));
    const closedOrder = positions.find((o) =>
      text.includes(`SWX${String(o.id).padStart(9, '0')}`),
    ) as Position;
    expect(closedOrder).toMatchObject({ status: 'closed', closeReason: 'take_profit' });

    await orders.showHistory();
    const row = orders.row(closedOrder.id);
    await row.waitFor();
    expect(await row.getAttribute('data-reason')).toBe('take_profit');
    expect(await row.locator('.reason').innerText()).toBe('Take profit');

    // Everything is closed now; the balance follows to the last minor unit: 100,000 − every fee + every profit.
    expect(positions.every((o) => o.status === 'closed')).toBe(true);
    const expected =
      units('100000', 6) -
      positions.reduce((sum, o) => sum + units(o.fee, 6), 0n) +
      positions.reduce((sum, o) => sum + units(o.profit, 6), 0n);
    const balances = await api.ok('getBalances');
    expect(units(balances.balances.find((b) => b.asset === 'USDT')?.available ?? '', 6)).toBe(expected);
    expect(errors).toEqual([]);
    await orders.close();
  }, 150_000);
});

describe('trading, mobile', () => {
  it('trades from the phone layout without serious accessibility problems or sideways scrolling', async () => {
    const { page, errors } = await open('mobile', 'phone-trader@example.com');
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    await new NoticeDialog(page).close();
    await instrument.ticket.liveFigures();
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    expect(await seriousViolations(page), 'ticket').toEqual([]);
    expect(await instrument.overflow(), 'ticket').toBeLessThanOrEqual(0);

    const confirm = await instrument.ticket.review();
    expect(await seriousViolations(page), 'confirm').toEqual([]);
    const shown = await confirm.confirmUntilOpened();
    const detail = new OrderDetailPage(page);
    await detail.root.waitFor();
    expect(await detail.value('margin')).toBe(shown.margin);
    expect(await seriousViolations(page), 'detail').toEqual([]);
    expect(await detail.overflow(), 'detail').toBeLessThanOrEqual(0);

    const orders = new MobileOrdersPage(page);
    await orders.goto();
    const card = orders.cards.first();
    await card.waitFor();
    expect(await seriousViolations(page), 'orders').toEqual([]);
    expect(await orders.overflow(), 'orders').toBeLessThanOrEqual(0);
    await orders.closeNow(card);
    await page.getByText('You have no open positions in this account.').waitFor();
    await orders.showHistory();
    await orders.closedCard('manual').waitFor();
    expect(await seriousViolations(page), 'history').toEqual([]);

    // Arabic mirrors the ticket.
    await instrument.setLanguage('ar');
    await instrument.goto(await app.btcPage());
    await expect.poll(() => instrument.dir()).toBe('rtl');
    await page.getByRole('button', { name: /شراء/ }).first().waitFor();
    expect(await instrument.overflow(), 'ticket ar').toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await instrument.close();
  });
});
