import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { expectAccessible, type Layout, sessionPage, startServerAndBrowser } from '../support/browser.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { authenticatorCode } from '../support/totp.ts';

let server: RunningServer;
let inbox: Inbox;
let stop: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  ({ server, inbox, browser, stop } = await startServerAndBrowser());
});
afterAll(async () => {
  await stop?.();
});

const loggedInPage = (layout: Layout, session: Session) =>
  sessionPage(browser, server.baseUrl, layout, session);

async function userInfoStatus(token: string): Promise<number> {
  const r = await fetch(`${server.baseUrl}/swx/customer/user/getUserInfo`, {
    method: 'POST',
    headers: { authorization: token },
  });
  return r.status;
}

describe('security, desktop', () => {
  it('turns two-step verification on in the security screen, then logs out and in with password and code', async () => {
    const session = await registerByApi(server, inbox, 'guarded@example.com', 'a safe passphrase');
    const { page: p, errors } = await loggedInPage('desktop', session);

    await p.goto('/profile');
    await p.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile/settings');
    await p.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await p.title()).toBe('Settings · SWX');
    await expectAccessible(p, 'desktop /profile/settings');

    await p.getByRole('link', { name: /^Security/ }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile/security');
    const sessions = p.locator('.session-list');
    await sessions.getByText('This device').waitFor();
    await p.getByText('Two-step verification is off.').waitFor();
    await expectAccessible(p, 'desktop /profile/security');

    await p.getByRole('button', { name: 'Set up two-step verification' }).click();
    const shown = p.getByTestId('totp-secret');
    await shown.waitFor();
    const secret = (await shown.innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await p.getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href')).toContain(
      `secret=${secret}`,
    );
    // Keyboard: the step heading has focus, so a screen reader starts reading at step 1.
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe(
      '1. Add this key to your authenticator app',
    );
    await expectAccessible(p, 'desktop /profile/security, setup');
    await p.getByLabel('6-digit code').fill(authenticatorCode(secret));
    await p.getByRole('button', { name: 'Turn on', exact: true }).click();

    const codes = p.getByTestId('recovery-codes');
    await codes.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    expect(await codes.locator('li code').count()).toBe(10);
    const firstRecovery = await codes.locator('li code').first().innerText();
    expect(firstRecovery).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    await expectAccessible(p, 'desktop /profile/security, recovery codes');
    await p.getByRole('button', { name: 'I have saved them' }).click();
    await p.getByText('Two-step verification is on.').waitFor();
    await p.getByText('Unused recovery codes: 10').waitFor();

    await p.goto('/profile');
    await p.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/pass/login'); // spec §4
    expect(await p.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await p.goto('/pass/login');
    await p.getByLabel('Username or email').fill('guarded@example.com');
    await p.getByLabel('Password').fill('a safe passphrase');
    await p.getByRole('button', { name: 'Log in' }).click();
    // The right password alone is not a login: the second step asks for the code, nothing is stored.
    await p.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    expect(await p.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expectAccessible(p, 'desktop /pass/login, second step');
    await p.getByRole('button', { name: 'Use a recovery code' }).click();
    await p.getByLabel('Recovery code').waitFor();
    await p.getByRole('button', { name: 'Use a code from the app' }).click();
    const code = p.getByLabel('Authentication code');
    const right = authenticatorCode(secret, 1);
    await code.fill(right === '000000' ? '111111' : '000000');
    await p.getByRole('button', { name: 'Verify' }).click();
    await p
      .getByRole('alert')
      .filter({ hasText: 'The verification code is wrong or has expired.' })
      .waitFor();
    // The code the phone shows next (the current step was spent turning 2FA on).
    await code.fill(right);
    await p.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
    expect(await p.evaluate(() => localStorage.getItem('isLogin'))).toBe('true');
    await p.locator('.account-name').filter({ hasText: 'guarded@example.com' }).waitFor();
    // The session list names this browser; the session that logged out is gone.
    await p.goto('/profile/security');
    const current = p.locator('.session[data-current="true"]');
    await expect.poll(() => current.innerText()).toMatch(/Chrome \d+ · Linux\s*This device/);
    await expect.poll(() => p.locator('.session').count()).toBe(1);
    expect(errors).toEqual([]);
    await p.context().close();
  });
});

describe('security, mobile', () => {
  it('changes the password and signs out another device from the phone, without serious accessibility problems', async () => {
    const session = await registerByApi(server, inbox, 'pocket@example.com', 'first passphrase');
    const other = await registerByApi(server, inbox, 'pocket2@example.com', 'first passphrase');
    // A second device of the same account, signed in through the API (its user agent is unknown).
    const login = await fetch(`${server.baseUrl}/swx/customer/login/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'pocket@example.com', password: 'first passphrase' }),
    });
    const elsewhere = ((await login.json()) as { data: { token: string } }).data.token;
    const { page: p, errors } = await loggedInPage('mobile', session);

    for (const path of ['/profile/settings', '/profile/language', '/profile/password']) {
      await p.goto(path);
      await p.locator('.page-title').waitFor();
      await expectAccessible(p, `mobile ${path}`);
    }

    await p.goto('/profile/security');
    const list = p.locator('.session-list');
    await list.getByText('This device').waitFor();
    await expect.poll(() => list.locator('li').count()).toBe(2);
    await expectAccessible(p, 'mobile /profile/security');
    await p.getByRole('button', { name: 'Sign out Unknown device' }).click();
    await p.getByText('The device was signed out.').waitFor();
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await userInfoStatus(elsewhere)).toBe(401);
    expect(await userInfoStatus(other.token)).toBe(200);

    await p.goto('/profile/password');
    await p.getByLabel('Current password').fill('not the passphrase');
    await p.getByLabel('New password').fill('second passphrase');
    await p.getByLabel('Repeat password').fill('second passphrase');
    await p.getByRole('button', { name: 'Change password' }).click();
    await p.locator('.field-error').filter({ hasText: 'Wrong password.' }).waitFor();
    await p.getByLabel('Current password').fill('first passphrase');
    await p.getByRole('button', { name: 'Change password' }).click();
    await p.getByRole('status').filter({ hasText: 'Your password is changed.' }).waitFor();
    expect(await userInfoStatus(session.token)).toBe(200);

    // Change language from the settings screen: the page switches at once and is mirrored in Arabic.
    await p.goto('/profile/language');
    await p.locator('main [data-language="ar"]').click();
    await expect.poll(() => p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await p.getByRole('heading', { name: 'تغيير اللغة', level: 1 }).first().waitFor();
    await expectAccessible(p, 'mobile /profile/language in Arabic');
    expect(errors).toEqual([]);
    await p.context().close();
  });
});
