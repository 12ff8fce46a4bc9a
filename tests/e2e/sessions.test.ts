import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, startServerWithInbox } from '../support/accounts.ts';
import { holdSession, launchBrowser, newContext, watchErrors } from '../support/browser.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

/**
 * An ended session and password guessing, as a customer meets them in the browser. Its own server,
 * so the login limits it trips cannot reach other test files.
 */
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

describe('sessions in the browser', () => {
  it('a session ended elsewhere (401) returns the customer to the login page, with the local session cleared', async () => {
    const session = await registerByApi(server, inbox, 'ended@example.com');
    const context = await newContext(browser, 'desktop', server.baseUrl);
    await holdSession(context, session);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/profile/balance');
    await page.locator('dialog.notice-dialog[open]').getByRole('button', { name: 'Close' }).click();
    await page.getByText('100,000.00').first().waitFor();

    // The session ends on the server (another device logs it out): the next call answers 401.
    const ended = await fetch(`${server.baseUrl}/swx/customer/user/logout`, {
      method: 'POST',
      headers: { authorization: session.token },
    });
    expect(ended.status).toBe(200);
    await page.goto('/profile/transactions');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/pass/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('isLogin'))).not.toBe('true');
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });

  it('password guessing is stopped: after repeated wrong passwords the form says to wait, even for the right one', async () => {
    await registerByApi(server, inbox, 'guessed@example.com', 'the right passphrase');
    const context = await newContext(browser, 'desktop', server.baseUrl);
    await context.addInitScript(() => sessionStorage.setItem('welcomeShown', '1'));
    const page = await context.newPage();
    await page.goto('/pass/login');
    await page.getByLabel('Username or email').fill('guessed@example.com');
    const password = page.getByLabel('Password');
    const alert = page.getByRole('alert');
    let limited = false;
    for (let attempt = 1; attempt <= 15 && !limited; attempt++) {
      await password.fill(`guess number ${attempt}`);
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect
        .poll(async () => ((await alert.count()) ? await alert.first().innerText() : ''))
        .toMatch(/Wrong password\.|Too many attempts/);
      limited = (await alert.first().innerText()).includes('Too many attempts');
      if (!limited) {
        // Each answer is read before the next guess: clear it so the next one is seen.
        await password.fill('');
      }
    }
    expect(limited).toBe(true);
    await password.fill('the right passphrase');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Too many attempts' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/pass/login');
    await context.close();
  });
});
