import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, seriousViolations, watchErrors } from '../support/browser.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { smsCodeFor } from '../support/sms.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // No SMS gateway: every SMS is a file in the server's DATA_DIR/sms-outbox.
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function page(layout: 'desktop' | 'mobile'): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, layout, server.baseUrl);
  await context.addInitScript(() => sessionStorage.setItem('welcomeShown', '1'));
  const p = await context.newPage();
  return { page: p, errors: watchErrors(p) };
}

async function choosePhone(p: Page): Promise<void> {
  await p.getByRole('radio', { name: 'Phone' }).check();
  await p.getByLabel('Area code').waitFor();
}

async function registerByPhone(
  p: Page,
  areaCode: string,
  typed: string,
  e164: string,
  password: string,
): Promise<void> {
  await p.goto('/pass/register');
  await choosePhone(p);
  // Checked before anything is sent: a number that is too long is refused in the form.
  await p.getByLabel('Area code').selectOption(areaCode);
  await p.getByLabel('Phone number').fill('1234567890123456');
  await p.getByRole('button', { name: 'Send code' }).click();
  await p.getByText('Enter the number in digits: at most 15 digits with the area code.').waitFor();
  expect(await p.getByLabel('Phone number').getAttribute('aria-invalid')).toBe('true');
  expect(await seriousViolations(p)).toEqual([]);

  await p.getByLabel('Phone number').fill(typed);
  await p.getByRole('button', { name: 'Send code' }).click();
  await p.getByRole('status').filter({ hasText: e164 }).waitFor();
  expect(await seriousViolations(p)).toEqual([]);
  await p.getByLabel('Verification code').fill(await smsCodeFor(server.dataDir, e164));
  await p.getByLabel('Password', { exact: true }).fill(password);
  await p.getByLabel('Repeat password').fill(password);
  await p.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
  const notice = p.locator('dialog.notice-dialog[open]');
  await expect.poll(() => notice.getByRole('heading').innerText()).toBe('Notification');
  await notice.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => p.locator('dialog.notice-dialog[open]').count()).toBe(0);
  await p.locator('.account-name').filter({ hasText: e164 }).waitFor();
}

describe('phone accounts, desktop', () => {
  it('registers by phone with the SMS code from the outbox, logs out and logs in by phone', async () => {
    const { page: p, errors } = await page('desktop');
    await registerByPhone(p, '+49', '0151 2345 6789', '+4915123456789', 'a safe passphrase');

    await p.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/pass/login'); // spec §4
    await p.goto('/pass/login');
    await choosePhone(p);
    expect(await seriousViolations(p)).toEqual([]);
    await p.getByLabel('Area code').selectOption('+49');
    await p.getByLabel('Phone number').fill('15123456789');
    await p.getByLabel('Password').fill('wrong password');
    await p.getByRole('button', { name: 'Log in' }).click();
    await p.getByRole('alert').filter({ hasText: 'Wrong password.' }).waitFor();
    await p.getByLabel('Password').fill('a safe passphrase');
    await p.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
    expect(errors).toEqual([]);
    await p.context().close();
  });

  it('offers recovery by SMS on the reset page, and the phone fields in Arabic, right to left', async () => {
    const { page: p, errors } = await page('desktop');
    await p.goto('/pass/reset');
    await choosePhone(p);
    await p.getByRole('button', { name: 'Set new password' }).click();
    await p.getByText('Please enter your phone number.').waitFor();
    expect(await seriousViolations(p)).toEqual([]);

    await p.evaluate(() => localStorage.setItem('language', 'ar'));
    await p.goto('/pass/register');
    await expect.poll(() => p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await p.getByRole('radio', { name: 'الهاتف' }).check();
    await p.getByLabel('رمز الدولة').waitFor();
    expect(await p.getByLabel('رقم الهاتف').getAttribute('dir')).toBe('ltr');
    expect(await seriousViolations(p)).toEqual([]);
    expect(errors).toEqual([]);
    await p.context().close();
  });
});

describe('phone accounts, mobile', () => {
  it('registers by phone on an iPhone, with the SMS code from the outbox', async () => {
    const { page: p, errors } = await page('mobile');
    await registerByPhone(p, '+33', '06 12 34 56 78', '+33612345678', 'another passphrase');
    expect(errors).toEqual([]);
    await p.context().close();
  });
});
