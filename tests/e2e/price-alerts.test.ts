import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { InstrumentPage, NoticeDialog } from '../support/pages/index.ts';

const app = useApp();

describe('price alerts', () => {
  it('sets an alert from the instrument page by keyboard, finds it under the account and cancels it', {
    timeout: 180_000,
  }, async () => {
    const { page, errors } = await app.open('desktop', {
      as: await app.customer('alerts-desktop@example.com'),
    });
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    await new NoticeDialog(page).close();
    const bell = page.getByRole('button', { name: /^Set a price alert on / });
    await bell.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('price-alert-dialog');
    await dialog.getByRole('heading', { name: /Set price alert · BTCUSDT/ }).waitFor();
    // The level is prefilled with the price now; the kinds are a labelled radio group.
    const level = dialog.getByLabel('Price', { exact: true });
    expect(await level.inputValue()).toMatch(/^\d+\.\d{2}$/);
    await dialog.getByRole('radio', { name: 'The price rises to' }).check();
    const target = (Number(await level.inputValue()) * 1.5).toFixed(2);
    await level.fill(target);
    await dialog.getByRole('checkbox', { name: /^Repeat/ }).check();
    await expectAccessible(page, 'desktop price alert dialog');
    await screenshotTo(page, 'price-alert-dialog-desktop-en');
    await dialog.getByRole('button', { name: 'Set alert' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Focus returns to the bell.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'price-alert-bell',
    );

    await page.goto('/profile/alerts');
    await page.getByRole('heading', { name: 'Price alerts', level: 1 }).waitFor();
    const card = page.locator('.price-alert-card').first();
    await card.getByText('BTCUSDT', { exact: true }).waitFor();
    expect(await card.innerText()).toContain('Active');
    expect(await card.innerText()).toContain('Repeats');
    await page.getByText('1 of 100 active').waitFor();
    await expectAccessible(page, 'desktop /profile/alerts');
    await screenshotTo(page, 'price-alerts-desktop-en');
    await card.getByRole('button', { name: /^Cancel alert/ }).click();
    await card.getByText('Cancelled').waitFor();
    await page.getByText('0 of 100 active').waitFor();
    expect(errors).toEqual([]);
  });

  it('is accessible at 390 px in Arabic, right to left', { timeout: 180_000 }, async () => {
    const session = await app.customer('alerts-arabic@example.com');
    const { page, errors } = await app.open('mobile', { as: session, language: 'ar' });
    const instrument = new InstrumentPage(page);
    await instrument.goto(await app.btcPage());
    await new NoticeDialog(page).close('إغلاق');
    await page.getByTestId('price-alert-bell').click();
    const dialog = page.getByTestId('price-alert-dialog');
    await dialog.getByRole('heading', { name: /تعيين تنبيه سعر/ }).waitFor();
    await dialog.getByRole('radio', { name: 'تبلغ حركة 24 ساعة' }).check();
    await dialog.getByLabel('الحركة (%)').fill('3.5');
    await expectAccessible(page, 'mobile ar price alert dialog');
    await screenshotTo(page, 'price-alert-dialog-mobile-ar');
    await dialog.getByRole('button', { name: 'تعيين التنبيه' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    await page.goto('/profile/alerts');
    await page.locator('#main').getByRole('heading', { name: 'تنبيهات الأسعار', level: 1 }).waitFor();
    await page.locator('.price-alert-card').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expectAccessible(page, 'mobile ar /profile/alerts');
    await screenshotTo(page, 'price-alerts-mobile-ar');
    expect(errors).toEqual([]);
  });
});
