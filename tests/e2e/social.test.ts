import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { freePort, type OidcProvider, startOidcProvider } from '../support/oidc.ts';
import { LoginPage } from '../support/pages/index.ts';

let provider: OidcProvider;
// The server's callback URL must be known to the provider first: a free port, then the provider.
const app = useApp({
  env: async () => {
    const port = await freePort();
    provider = await startOidcProvider(`http://127.0.0.1:${port}`);
    return { PORT: String(port), ...provider.serverEnv() };
  },
  after: () => provider?.close(),
});

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
    const { page: p, errors } = await app.open(layout);
    const login = new LoginPage(p);

    await login.goto();
    const google = login.socialButton('Continue with Google');
    await google.waitFor();
    await login.socialButton('Continue with Microsoft').waitFor();
    await p.getByRole('heading', { name: 'Or continue with' }).waitFor();
    await expectAccessible(p, `${layout} /pass/login with social buttons`);

    // By keyboard: focus the button and press Enter.
    await google.focus();
    await p.keyboard.press('Enter');
    await signInAtProvider(p, accountId);
    await login.waitForPath('/profile');
    expect(await login.stored('isLogin')).toBe('true');
    const user = JSON.parse((await login.stored('userInfo')) ?? '{}') as {
      id: number;
      userName: string;
    };
    expect(user.userName).toBe(`${layout}.person`);

    // Logged out (storage cleared), then again: the provider's session skips its page, same account.
    await p.evaluate(() => localStorage.clear());
    await login.goto();
    await login.socialButton('Continue with Google').click();
    await login.waitForPath('/profile');
    const again = JSON.parse((await login.stored('userInfo')) ?? '{}') as {
      id: number;
    };
    expect(again.id).toBe(user.id);
    expect(errors).toEqual([]);
    await p.context().close();
  });

  it('shows a localized error with a way back when the return cannot be used', async () => {
    const { page: p, errors } = await app.open(layout);
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
    await new LoginPage(p).waitForPath('/pass/login');
    expect(errors).toEqual([]);
    await p.context().close();
  });
});

describe('social sign-in in another language', () => {
  it('shows the buttons and the return page in Japanese', async () => {
    const { page: p } = await app.open('desktop', { language: 'ja' });
    await new LoginPage(p).goto();
    await p.getByRole('button', { name: 'Google で続行' }).waitFor();
    await p.goto('/api/loginCallback/google?error=access_denied');
    await p.getByRole('link', { name: 'ログインに戻る' }).waitFor();
    await p.context().close();
  });
});
