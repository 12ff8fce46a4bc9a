import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  type Layout,
  newContext,
  startServerAndBrowser,
  watchErrors,
} from '../support/browser.ts';
import { freePort, type OidcProvider, startOidcProvider } from '../support/oidc.ts';
import type { RunningServer } from '../support/server.ts';

let server: RunningServer;
let stop: () => Promise<void>;
let provider: OidcProvider;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  provider = await startOidcProvider(`http://127.0.0.1:${port}`);
  ({ server, browser, stop } = await startServerAndBrowser({ PORT: String(port), ...provider.serverEnv() }));
});
afterAll(async () => {
  await stop?.();
  await provider?.close();
});

async function open(layout: Layout): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, layout, server.baseUrl);
  await context.addInitScript(() => sessionStorage.setItem('welcomeShown', '1'));
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

/** At the provider's own page: type the account and sign in, as a person would. */
async function signInAtProvider(p: Page, account: string): Promise<void> {
  await expect.poll(() => new URL(p.url()).origin).toBe(provider.issuer);
  await p.getByLabel('Account').fill(account);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

describe.each(['desktop', 'mobile'] as const)('social sign-in, %s', (layout) => {
  it('signs in with the provider’s button and lands logged in; the same account next time', async () => {
    const accountId = `sub-e2e-${layout}`;
    provider.addAccount(accountId, { email: `${layout}.person@example.com`, email_verified: true });
    const { page: p, errors } = await open(layout);

    await p.goto('/pass/login');
    const google = p.getByRole('button', { name: 'Continue with Google' });
    await google.waitFor();
    await p.getByRole('button', { name: 'Continue with Microsoft' }).waitFor();
    await p.getByRole('heading', { name: 'Or continue with' }).waitFor();
    await expectAccessible(p, `${layout} /pass/login with social buttons`);

    // By keyboard: focus the button and press Enter.
    await google.focus();
    await p.keyboard.press('Enter');
    await signInAtProvider(p, accountId);
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
    expect(await p.evaluate(() => localStorage.getItem('isLogin'))).toBe('true');
    const user = JSON.parse((await p.evaluate(() => localStorage.getItem('userInfo'))) ?? '{}') as {
      id: number;
      userName: string;
    };
    expect(user.userName).toBe(`${layout}.person`);

    // Logged out (storage cleared), then again: the provider's session skips its page, same account.
    await p.evaluate(() => localStorage.clear());
    await p.goto('/pass/login');
    await p.getByRole('button', { name: 'Continue with Google' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile');
    const again = JSON.parse((await p.evaluate(() => localStorage.getItem('userInfo'))) ?? '{}') as {
      id: number;
    };
    expect(again.id).toBe(user.id);
    expect(errors).toEqual([]);
    await p.context().close();
  });

  it('shows a localized error with a way back when the return cannot be used', async () => {
    const { page: p, errors } = await open(layout);
    await p.goto(`/api/loginCallback/google?code=stale&state=${'A'.repeat(43)}&iss=x`);
    await p
      .getByRole('alert')
      .filter({ hasText: 'This sign-in has expired or was already used. Please start again.' })
      .waitFor();
    // The code and state are gone from the address bar.
    expect(new URL(p.url()).search).toBe('');
    await expectAccessible(p, `${layout} /api/loginCallback/google, refused`);

    await p.goto('/api/loginCallback/google?error=access_denied&state=x');
    await p.getByRole('alert').filter({ hasText: 'Sign-in with Google was cancelled or refused.' }).waitFor();
    await p.getByRole('link', { name: 'Back to login' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/pass/login');
    expect(errors).toEqual([]);
    await p.context().close();
  });
});

describe('social sign-in in another language', () => {
  it('shows the buttons and the return page in Japanese', async () => {
    const { page: p } = await open('desktop');
    await p.addInitScript(() => localStorage.setItem('language', 'ja'));
    await p.goto('/pass/login');
    await p.getByRole('button', { name: 'Google で続行' }).waitFor();
    await p.goto('/api/loginCallback/google?error=access_denied');
    await p.getByRole('link', { name: 'ログインに戻る' }).waitFor();
    await p.context().close();
  });
});
