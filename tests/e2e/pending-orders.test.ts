import type { PendingTicketBody } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { readAllNotices } from '../support/accounts.ts';
import { customerApi } from '../support/api.ts';
import { screenshotTo, seriousViolations } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { figureValue, InstrumentPage, NoticeDialog } from '../support/pages/index.ts';

const app = useApp();

/** A price `percent` % of `price`, with two decimals (BTCUSDT). */
const percentOf = (price: string, percent: number) => ((Number(price) * percent) / 100).toFixed(2);

describe('pending entry orders, desktop', () => {
  it('places a limit order from the ticket, confirms what it holds, finds it in the pending tab and cancels it', {
    timeout: 180_000,
  }, async () => {
    const { page, errors } = await app.open('desktop', {
      as: await app.customer('pending-trader@example.com'),
    });
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    await new NoticeDialog(page).close();
    const ticket = instrument.ticket;
    const ask = (await figureValue(await ticket.liveFigures(), 'ask')) as string;
    const level = percentOf(ask, 60);

    // Limit: the level and expiry appear, the trailing stop goes (a pending order has none).
    await page.getByRole('button', { name: 'Limit', exact: true }).click();
    expect(await page.getByRole('button', { name: 'Limit', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await expect.poll(() => ticket.trailingDistance.count()).toBe(0);
    await page.getByLabel('Level').fill(level);
    await ticket.stopLoss.fill(percentOf(level, 90));
    await ticket.takeProfit.fill(percentOf(level, 150));
    expect(await page.getByLabel('Good till').inputValue()).toBe('gtc');
    expect(await seriousViolations(page), 'ticket').toEqual([]);
    await screenshotTo(page, 'pending-ticket-desktop-en');

    // Review asks for the quote: the confirm step states what is held.
    await page.getByTestId('pending-review').click();
    const dialog = page.getByTestId('pending-confirm');
    await dialog.getByTestId('pending-held').waitFor();
    const held = await dialog.getByTestId('pending-held').innerText();
    expect(held).toMatch(/USDT/);
    expect(await dialog.innerText()).toContain('held from your available balance');
    expect(await seriousViolations(page), 'confirm').toEqual([]);
    await screenshotTo(page, 'pending-confirm-desktop-en');
    await dialog.getByRole('button', { name: 'Place order' }).click();
    await dialog.getByTestId('pending-placed').waitFor();
    await dialog.getByRole('link', { name: 'Pending orders' }).click();

    // The pending tab: the open order with what it holds; cancel releases it into history.
    const tab = page.getByRole('tab', { name: 'Pending orders' });
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    const card = page.getByTestId('pending-open').locator('li[data-state="open"]').first();
    await card.waitFor();
    expect(await card.innerText()).toContain('BTCUSDT');
    expect(await seriousViolations(page), 'pending tab').toEqual([]);
    await screenshotTo(page, 'pending-tab-desktop-en');

    // Change: a date instead of until cancelled, and a lower level, by keyboard. Review states the
    // new held amount before anything is saved; Save commits that quote.
    const heldBefore = await card.innerText();
    await card.getByRole('button', { name: /Change/ }).click();
    const edit = page.getByTestId('edit-pending-dialog');
    expect(await edit.getByLabel('Good till').inputValue()).toBe('gtc');
    await edit.getByLabel('Good till').selectOption('date');
    const until = new Date(Date.now() + 3 * 86_400_000);
    const local = new Date(until.getTime() - until.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await edit.getByLabel('Until', { exact: true }).fill(local);
    await edit.getByLabel('Level').fill(percentOf(level, 95));
    await edit.getByLabel('Level').press('Enter');
    const preview = edit.getByTestId('pending-edit-preview');
    await preview.waitFor();
    expect(await preview.innerText()).toContain('Held after the change');
    const heldAfter = await edit.getByTestId('pending-edit-held').innerText();
    expect(heldAfter).toMatch(/USDT/);
    expect(heldAfter).not.toBe(held);
    // Nothing saved yet: the card still holds what it held.
    expect(await card.innerText()).toBe(heldBefore);
    expect(await seriousViolations(page), 'change preview').toEqual([]);
    await screenshotTo(page, 'pending-edit-desktop-en');
    // Typing again drops the preview: Review again before saving.
    await edit.getByLabel('Level').fill(percentOf(level, 94));
    await expect.poll(() => preview.count()).toBe(0);
    await edit.getByLabel('Level').press('Enter');
    await preview.waitFor();
    const heldNew = await edit.getByTestId('pending-edit-held').innerText();
    await edit.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => edit.isVisible()).toBe(false);
    await expect.poll(() => card.innerText()).toContain(heldNew);
    expect(await card.innerText()).not.toContain('Until cancelled');

    // The same dialog right to left.
    await instrument.setLanguage('ar');
    await page.reload();
    await card.getByRole('button', { name: /تعديل/ }).click();
    await edit.getByRole('button', { name: 'مراجعة التغيير' }).click();
    await edit.getByTestId('pending-edit-held').waitFor();
    expect(await seriousViolations(page), 'change preview ar').toEqual([]);
    await screenshotTo(page, 'pending-edit-desktop-ar');
    await page.keyboard.press('Escape');
    await instrument.setLanguage('en');
    await page.reload();

    await card.getByRole('button', { name: /Cancel/ }).click();
    const cancel = page.getByTestId('cancel-pending-dialog');
    await cancel.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByTestId('pending-history').locator('li[data-state="cancelled"]').waitFor();
    await page.getByText('No pending orders.').waitFor();

    await instrument.setLanguage('ar');
    await page.reload();
    await expect.poll(() => instrument.dir()).toBe('rtl');
    await page.getByRole('tab', { name: 'الأوامر المعلّقة' }).waitFor();
    expect(await seriousViolations(page), 'pending tab ar').toEqual([]);
    await screenshotTo(page, 'pending-tab-desktop-ar');
    expect(errors).toEqual([]);
    await instrument.close();
  });
});

describe('pending entry orders, phone in Arabic', () => {
  it('lists an open order on the phone, right to left, without serious accessibility problems or sideways scrolling', {
    timeout: 120_000,
  }, async () => {
    const session = await app.customer('pending-phone@example.com');
    const api = customerApi(app.server, session);
    const btcId = Number(new URLSearchParams((await app.btcPage()).split('?')[1]).get('id'));
    const market = await api.ok('previewOptions', {
      marketId: btcId,
      direction: 'long',
      lots: '0.02',
      leverage: 2,
      stopLoss: '1.00',
      takeProfit: '1.00',
      autoCloseAfter: null,
    });
    const level = percentOf(market.bid, 60);
    const ticket: PendingTicketBody = {
      marketId: btcId,
      direction: 'long',
      lots: '0.02',
      leverage: 2,
      autoCloseAfter: null,
      type: 'limit',
      level,
      stopLoss: percentOf(level, 90),
      takeProfit: percentOf(level, 150),
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    };
    const { quoteId } = await api.ok('previewPendingOrder', ticket);
    await api.ok('placePendingOrder', { ...ticket, quoteId, requestId: crypto.randomUUID() });

    await readAllNotices(app.server, session.token);
    const { page, errors } = await app.open('mobile', { as: session, language: 'ar' });
    await page.goto('/profile/orders?tab=pending');
    const instrument = new InstrumentPage(page);
    await page.getByTestId('pending-open').locator('li[data-state="open"]').waitFor();
    await expect.poll(() => instrument.dir()).toBe('rtl');
    expect(await seriousViolations(page), 'pending ar').toEqual([]);
    expect(await instrument.overflow(), 'pending ar').toBeLessThanOrEqual(0);
    await screenshotTo(page, 'pending-tab-mobile-ar');
    // The change dialog on the phone, right to left: Review states the new held amount first.
    const card = page.getByTestId('pending-open').locator('li[data-state="open"]').first();
    await card.getByRole('button', { name: /تعديل/ }).click();
    const edit = page.getByTestId('edit-pending-dialog');
    await edit.getByLabel('المستوى').fill(percentOf(level, 95));
    await edit.getByRole('button', { name: 'مراجعة التغيير' }).click();
    await edit.getByTestId('pending-edit-held').waitFor();
    expect(await seriousViolations(page), 'change ar').toEqual([]);
    expect(await instrument.overflow(), 'change ar').toBeLessThanOrEqual(0);
    await screenshotTo(page, 'pending-edit-mobile-ar');
    await page.keyboard.press('Escape');
    await instrument.goto(await app.btcPage());
    await page.getByRole('button', { name: 'حدّي', exact: true }).click();
    await page.getByLabel('المستوى').waitFor();
    expect(await instrument.overflow(), 'ticket ar').toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), 'ticket ar').toEqual([]);
    await screenshotTo(page, 'pending-ticket-mobile-ar');
    await instrument.setLanguage('en');
    await page.goto('/profile/orders?tab=pending');
    await page.getByTestId('pending-open').locator('li[data-state="open"]').waitFor();
    await screenshotTo(page, 'pending-tab-mobile-en');
    await card.getByRole('button', { name: /Change/ }).click();
    await edit.getByRole('button', { name: 'Review the change' }).click();
    await edit.getByTestId('pending-edit-held').waitFor();
    expect(await instrument.overflow(), 'change en').toBeLessThanOrEqual(0);
    await screenshotTo(page, 'pending-edit-mobile-en');
    expect(errors).toEqual([]);
    await instrument.close();
  });
});
