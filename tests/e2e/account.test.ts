import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerWithInbox } from '../support/accounts.ts';
import { launchBrowser, newContext, seriousViolations, watchErrors } from '../support/browser.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

let server: RunningServer;
let inbox: Inbox;
let stop: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  ({ server, inbox, stop } = await startServerWithInbox());
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stop?.();
});

async function page(layout: 'desktop' | 'mobile'): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, layout, server.baseUrl);
  await context.addInitScript(() => sessionStorage.setItem('welcomeShown', '1'));
  const p = await context.newPage();
  return { page: p, errors: watchErrors(p) };
}

async function registerThroughUi(p: Page, email: string, password: string): Promise<void> {
  await p.goto('/pass/register');
  await p.getByLabel('Username or email').fill(email);
  await p.getByRole('button', { name: 'Send code' }).click();
  await p.getByRole('status').filter({ hasText: email }).waitFor();
  await p.getByLabel('Verification code').fill(await inbox.codeFor(email));
  await p.getByLabel('Password', { exact: true }).fill(password);
  await p.getByLabel('Repeat password').fill(password);
  await p.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
  // The welcome notice arrives in a blocking dialog titled "Notification"; closing marks it read.
  const notice = p.locator('dialog.notice-dialog[open]');
  await expect.poll(() => notice.getByRole('heading').innerText()).toBe('Notification');
  expect(await notice.innerText()).toContain('100,000 virtual USDT');
  await notice.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => p.locator('dialog.notice-dialog[open]').count()).toBe(0);
}

describe('account, desktop', () => {
  it('registers with a mailed code, sees the demo balance, switches books, reads and exports the record, logs out and in', async () => {
    const { page: p, errors } = await page('desktop');
    await registerThroughUi(p, 'lena@example.com', 'a safe passphrase');
    await p.locator('.account-name').filter({ hasText: 'lena@example.com' }).waitFor();

    await p.getByRole('link', { name: 'Balance' }).click();
    const usdt = p.locator('tr[data-asset="USDT"]');
    await expect.poll(() => usdt.innerText()).toContain('100,000.00');
    expect(await p.getByTestId('total-value').innerText()).toBe('100,000.00 USDT');

    await p.getByRole('button', { name: 'Live account' }).click();
    await p.getByText('You are now using your live account with real funds.').waitFor();
    await expect.poll(() => usdt.innerText()).toMatch(/USDT\s+0\.00\s+0\.00\s+0\.00/);
    expect(await p.evaluate(() => localStorage.getItem('virtual'))).toBe('0');
    await p.getByRole('button', { name: 'Demo account' }).click();
    await p.getByText('You are now using your demo account with virtual funds.').waitFor();

    // The closed notice stays read: the notifications page shows it without the dialog coming back.
    await p.goto('/profile/notification');
    await p.locator('.notice-list li').filter({ hasText: 'Read' }).first().waitFor();
    expect(await p.locator('dialog.notice-dialog[open]').count()).toBe(0);

    await p.goto('/profile/transactions');
    const row = p.locator('li.record[data-entry]').first();
    await expect
      .poll(() => row.innerText())
      .toMatch(/^Demo funds issued\s+In\s+\+100,000\.00 USDT\s+.+\s+Completed/);
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csvPath = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(csvPath, 'utf8')).toMatch(/"demo_funding","USDT","100000\.000000","posted"/);

    // Filters: a kind with no entries shows the empty state.
    await p.getByLabel('Type').selectOption('withdrawal');
    await p.getByRole('button', { name: 'Apply' }).click();
    await p.getByText('No transactions match these filters.').waitFor();

    await p.goto('/profile');
    await p.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/pass/login'); // spec §4
    expect(await p.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await p.getByRole('button', { name: 'Log in' }).waitFor();

    await p.goto('/pass/login');
    await p.getByLabel('Username or email').fill('lena@example.com');
    await p.getByLabel('Password').fill('wrong password');
    await p.getByRole('button', { name: 'Log in' }).click();
    await p.getByRole('alert').filter({ hasText: 'Wrong password.' }).waitFor();
    await p.getByLabel('Password').fill('a safe passphrase');
    await p.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
    expect(errors).toEqual([]);
    await p.context().close();
  });

  it('shows localized validation messages before sending anything', async () => {
    const { page: p } = await page('desktop');
    await p.goto('/pass/register');
    await p.getByRole('button', { name: 'Create account' }).click();
    await p.getByText('Please enter your username or email.').waitFor();
    await p.getByLabel('Username or email').fill('no spaces allowed');
    await p.getByLabel('Password', { exact: true }).fill('12345678');
    await p.getByLabel('Repeat password').fill('12345679');
    await p.getByRole('button', { name: 'Create account' }).click();
    await p.getByText('The two passwords do not match.').waitFor();
    await p
      .getByText('Use 3–32 letters, digits, dots, dashes or underscores, or an email address.')
      .waitFor();
    await p.getByText('Please enter the verification code.').waitFor();
    expect(await p.getByLabel('Repeat password').getAttribute('aria-invalid')).toBe('true');
    await p.context().close();
  });

  it('recovers a password on /pass/reset with a mailed code', async () => {
    const { page: p } = await page('desktop');
    await registerThroughUi(p, 'recover@example.com', 'first passphrase');
    await p.goto('/pass/reset');
    await p.getByLabel('Email of your account').fill('recover@example.com');
    await p.getByRole('button', { name: 'Send code' }).click();
    await p.getByRole('status').filter({ hasText: 'recover@example.com' }).waitFor();
    // The newest mail to this address is the reset code (the registration code came before it).
    await expect.poll(() => inbox.messages.filter((m) => m.to === 'recover@example.com').length).toBe(2);
    await p.getByLabel('Verification code').fill(await inbox.codeFor('recover@example.com'));
    await p.getByLabel('New password').fill('second passphrase');
    await p.getByLabel('Repeat password').fill('second passphrase');
    await p.getByRole('button', { name: 'Set new password' }).click();
    await p.getByText('Your password is changed').waitFor();
    await p.getByRole('link', { name: 'Log in' }).click();
    await p.getByLabel('Username or email').fill('recover@example.com');
    await p.getByLabel('Password').fill('second passphrase');
    await p.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
    await p.context().close();
  });

  it('asks for a login on account pages when logged out', async () => {
    const { page: p } = await page('desktop');
    await p.goto('/profile/balance');
    await p.locator('.needs-login').getByRole('link', { name: 'Log in' }).waitFor();
    await p.context().close();
  });
});

describe('account, mobile', () => {
  it('logs in, shows the bell, the balance and the record in Arabic, without serious accessibility problems', async () => {
    const { page: p } = await page('mobile');
    await registerThroughUi(p, 'omar@example.com', 'another passphrase');
    await p.locator('.mobile-bar').getByRole('link', { name: 'Notifications' }).waitFor();
    for (const path of ['/profile', '/profile/balance', '/profile/transactions']) {
      await p.goto(path);
      await p.waitForLoadState('networkidle');
      expect(await seriousViolations(p), path).toEqual([]);
    }
    await p.evaluate(() => localStorage.setItem('language', 'ar'));
    await p.goto('/profile/balance');
    await expect.poll(() => p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => p.locator('tr[data-asset="USDT"]').innerText()).toMatch(/100[,٬]000/);
    await p.context().close();
  });

  it('welcome board: Continue goes home for a logged-in user', async () => {
    const { page: p } = await page('mobile');
    const context = p.context();
    await registerThroughUi(p, 'welcomed@example.com', 'welcome passphrase');
    // A new browser session with the stored login: the board shows once, and Continue goes home.
    const token = await p.evaluate(() => ({
      token: localStorage.getItem('token'),
      userInfo: localStorage.getItem('userInfo'),
    }));
    const fresh = await newContext(browser, 'mobile', server.baseUrl);
    await fresh.addInitScript((s) => {
      localStorage.setItem('token', s.token ?? '');
      localStorage.setItem('isLogin', 'true');
      localStorage.setItem('userInfo', s.userInfo ?? '');
    }, token);
    const q = await fresh.newPage();
    await q.goto('/market');
    await q.locator('dialog.welcome-board').getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => new URL(q.url()).pathname).toBe('/');
    expect(await q.evaluate(() => localStorage.getItem('isLogin'))).toBe('true');
    await context.close();
    await fresh.close();
  });

  it('has no serious accessibility problems on login and register', async () => {
    const { page: p } = await page('mobile');
    for (const path of ['/pass/login', '/pass/register']) {
      await p.goto(path);
      await p.waitForLoadState('networkidle');
      expect(await seriousViolations(p), path).toEqual([]);
      expect(
        await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        path,
      ).toBeLessThanOrEqual(0);
    }
    await p.context().close();
  });
});
