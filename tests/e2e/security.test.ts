import { describe, expect, it } from 'vitest';
import { customerApi } from '../support/api.ts';
import { expectAccessible } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import {
  LanguagePage,
  LoginPage,
  NoticeDialog,
  PasswordPage,
  ProfilePage,
  SecurityPage,
} from '../support/pages/index.ts';
import { authenticatorCode } from '../support/totp.ts';

const app = useApp();

/** The HTTP status of getUserInfo with a token: 200 while the session lives, 401 after. */
async function userInfoStatus(token: string): Promise<number> {
  return (await customerApi(app.server, token).call('getUserInfo')).status;
}

describe('security, desktop', () => {
  it('turns two-step verification on in the security screen, then logs out and in with password and code', async () => {
    const { page: p, errors } = await app.signedIn('desktop', 'guarded@example.com', {
      password: 'a safe passphrase',
    });
    const profile = new ProfilePage(p);
    await profile.goto();
    await profile.openSettings();
    await profile.waitForPath('/profile/settings');
    await p.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await p.title()).toBe('Settings · SWX');
    await expectAccessible(p, 'desktop /profile/settings');

    await p.getByRole('link', { name: /^Security/ }).click();
    const security = new SecurityPage(p);
    await security.waitForPath('/profile/security');
    await security.sessions.getByText('This device').waitFor();
    await p.getByText('Two-step verification is off.').waitFor();
    await expectAccessible(p, 'desktop /profile/security');

    const secret = await security.startTwoStep();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await security.authenticatorLink().getAttribute('href')).toContain(`secret=${secret}`);
    // Keyboard: the step heading has focus, so a screen reader starts reading at step 1.
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe(
      '1. Add this key to your authenticator app',
    );
    await expectAccessible(p, 'desktop /profile/security, setup');
    await security.turnOn(authenticatorCode(secret));
    // The change is told in a notice (and a mail with a lock link): what, when, from where.
    const notices = new NoticeDialog(p);
    expect(await notices.closeNext(15_000)).toMatch(
      /Two-step verification was turned on on .* \(UTC\) from Chrome \d+, Linux/,
    );

    const codes = security.recoveryCodes;
    await codes.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    expect(await codes.locator('li code').count()).toBe(10);
    const firstRecovery = await codes.locator('li code').first().innerText();
    expect(firstRecovery).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    await expectAccessible(p, 'desktop /profile/security, recovery codes');
    await security.savedRecoveryCodes();
    await p.getByText('Two-step verification is on.').waitFor();
    await p.getByText('Unused recovery codes: 10').waitFor();

    await profile.goto();
    await profile.logOut();
    const login = new LoginPage(p);
    await login.waitForPath('/pass/login'); // spec §4
    expect(await login.stored('token')).toBeNull();

    await login.goto();
    await login.logIn('guarded@example.com', 'a safe passphrase');
    // The right password alone is not a login: the second step asks for the code, nothing is stored.
    await login.waitForSecondStep();
    expect(await login.stored('token')).toBeNull();
    await expectAccessible(p, 'desktop /pass/login, second step');
    await login.useRecoveryCode();
    await login.useAppCode();
    const right = authenticatorCode(secret, 1);
    await login.verify(right === '000000' ? '111111' : '000000');
    await login.waitForAlert('The verification code is wrong or has expired.');
    // The code the phone shows next (the current step was spent turning 2FA on).
    await login.verify(right);
    await login.waitForPath('/profile');
    expect(await login.stored('isLogin')).toBe('true');
    // This browser held no device cookie of the account (it was opened through the API): news.
    expect(await notices.closeNext(15_000)).toContain('New sign-in to your account');
    await profile.waitForAccount('guarded@example.com');
    // The session list names this browser; the session that logged out is gone.
    await security.goto();
    await expect.poll(() => security.current().innerText()).toMatch(/Chrome \d+ · Linux\s*This device/);
    await expect.poll(() => p.locator('.session').count()).toBe(1);
    expect(errors).toEqual([]);
    await security.close();
  });
});

describe('security, mobile', () => {
  it('changes the password and signs out another device from the phone, without serious accessibility problems', async () => {
    const other = await app.customer('pocket2@example.com', 'first passphrase');
    const {
      page: p,
      errors,
      session,
    } = await app.signedIn('mobile', 'pocket@example.com', {
      password: 'first passphrase',
    });
    // A second device of the same account, signed in through the API (its user agent is unknown).
    const login = await customerApi(app.server).ok('login', {
      userName: 'pocket@example.com',
      password: 'first passphrase',
    });
    // The account's other device hears of it: a notice (and a mail with a lock link).
    await p.goto('/profile/settings');
    const notices = new NoticeDialog(p);
    expect(await notices.closeNext(15_000)).toContain('New sign-in to your account');
    const elsewhere = 'token' in login ? login.token : '';

    for (const path of ['/profile/settings', '/profile/language', '/profile/password']) {
      await p.goto(path);
      await p.locator('.page-title').waitFor();
      await expectAccessible(p, `mobile ${path}`);
    }

    const security = new SecurityPage(p);
    await security.goto();
    const list = security.sessions;
    await list.getByText('This device').waitFor();
    await expect.poll(() => list.locator('li').count()).toBe(2);
    await expectAccessible(p, 'mobile /profile/security');
    await security.signOut('Unknown device');
    await p.getByText('The device was signed out.').waitFor();
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await userInfoStatus(elsewhere)).toBe(401);
    expect(await userInfoStatus(other.token)).toBe(200);

    const password = new PasswordPage(p);
    await password.goto();
    await password.change('not the passphrase', 'second passphrase');
    await p.locator('.field-error').filter({ hasText: 'Wrong password.' }).waitFor();
    await password.retry('first passphrase');
    await p.getByRole('status').filter({ hasText: 'Your password is changed.' }).waitFor();
    expect(await notices.closeNext(15_000)).toContain('Your password was changed');
    expect(await userInfoStatus(session.token)).toBe(200);

    // Change language from the settings screen: the page switches at once and is mirrored in Arabic.
    const language = new LanguagePage(p);
    await language.goto();
    await language.choose('ar');
    await expect.poll(() => language.dir()).toBe('rtl');
    await p.getByRole('heading', { name: 'تغيير اللغة', level: 1 }).first().waitFor();
    await expectAccessible(p, 'mobile /profile/language in Arabic');
    expect(errors).toEqual([]);
    await p.context().close();
  });
});
