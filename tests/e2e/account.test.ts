import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, settled } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import {
  BalancePage,
  InvitePage,
  LoginPage,
  MobileShell,
  NoticeDialog,
  ProfilePage,
  RegisterPage,
  ResetPage,
  TransactionsPage,
} from '../support/pages/index.ts';

const app = useApp();

/** Registers through the form with the mailed code; the welcome notice opens, and closing it marks it read. */
async function registerThroughUi(p: Page, email: string, password: string): Promise<void> {
  await new RegisterPage(p).registerByEmail(email, password, (to) => app.inbox.codeFor(to));
  // The welcome notice arrives in a blocking dialog titled "Notification"; closing marks it read.
  const notice = new NoticeDialog(p);
  await expect.poll(() => notice.heading()).toBe('Notification');
  expect(await notice.text()).toContain('100,000 virtual USDT');
  await notice.close();
}

describe('account, desktop', () => {
  it('registers with a mailed code, sees the demo balance, switches books, reads and exports the record, logs out and in', async () => {
    const { page: p, errors } = await app.open('desktop');
    await registerThroughUi(p, 'lena@example.com', 'a safe passphrase');
    const profile = new ProfilePage(p);
    await profile.waitForAccount('lena@example.com');

    await p.getByRole('link', { name: 'Balance' }).click();
    const balance = new BalancePage(p);
    const usdt = balance.asset('USDT');
    await expect.poll(() => usdt.innerText()).toContain('100,000.00');
    expect(await balance.total.innerText()).toBe('100,000.00 USDT');

    await balance.useLive();
    await p.getByText('You are now using your live account with real funds.').waitFor();
    await expect.poll(() => usdt.innerText()).toMatch(/USDT\s+0\.00\s+0\.00\s+0\.00/);
    expect(await balance.stored('virtual')).toBe('0');
    await balance.useDemo();
    await p.getByText('You are now using your demo account with virtual funds.').waitFor();

    // The closed notice stays read: the notifications page shows it without the dialog coming back.
    await p.goto('/profile/notification');
    await p.locator('.notice-list li').filter({ hasText: 'Read' }).first().waitFor();
    expect(await new NoticeDialog(p).dialog.count()).toBe(0);

    const record = new TransactionsPage(p);
    await record.goto();
    const row = record.firstEntry();
    await expect
      .poll(() => row.innerText())
      .toMatch(/^Demo funds issued\s+In\s+\+100,000\.00 USDT\s+.+\s+Completed/);
    const csvPath = await record.exportCsv();
    expect(readFileSync(csvPath, 'utf8')).toMatch(/"demo_funding","USDT","100000\.000000","posted"/);

    // Filters: a kind with no entries shows the empty state.
    await record.filterByKind('withdrawal');
    await p.getByText('No transactions match these filters.').waitFor();

    await profile.goto();
    await profile.logOut();
    const login = new LoginPage(p);
    await login.waitForPath('/pass/login'); // spec §4
    expect(await login.stored('token')).toBeNull();
    await login.submit.waitFor();

    await login.goto();
    await login.logIn('lena@example.com', 'wrong password');
    await login.waitForAlert('Wrong password.');
    await login.retry('a safe passphrase');
    await login.waitForPath('/profile');
    expect(errors).toEqual([]);
    await login.close();
  });

  it('shows localized validation messages before sending anything', async () => {
    const { page: p } = await app.open('desktop');
    const register = new RegisterPage(p);
    await register.goto();
    await register.createButton.click();
    await p.getByText('Please enter your username or email.').waitFor();
    await register.userName.fill('no spaces allowed');
    await register.password.fill('12345678');
    await register.repeatPassword.fill('12345679');
    await register.createButton.click();
    await p.getByText('The two passwords do not match.').waitFor();
    await p
      .getByText('Use 3–32 letters, digits, dots, dashes or underscores, or an email address.')
      .waitFor();
    await p.getByText('Please enter the verification code.').waitFor();
    expect(await register.repeatPassword.getAttribute('aria-invalid')).toBe('true');
    await register.close();
  });

  it('recovers a password on /pass/reset with a mailed code', async () => {
    const { page: p } = await app.open('desktop');
    await registerThroughUi(p, 'recover@example.com', 'first passphrase');
    const reset = new ResetPage(p);
    await reset.goto();
    await reset.sendCodeTo('recover@example.com');
    // The newest mail to this address is the reset code (the registration code came before it).
    await expect.poll(() => app.inbox.messages.filter((m) => m.to === 'recover@example.com').length).toBe(2);
    await reset.setPassword(await app.inbox.codeFor('recover@example.com'), 'second passphrase');
    await p.getByText('Your password is changed').waitFor();
    await p.getByRole('link', { name: 'Log in' }).click();
    const login = new LoginPage(p);
    await login.logIn('recover@example.com', 'second passphrase');
    await login.waitForPath('/profile');
    await login.close();
  });

  it('invites a friend: the rules first, the link fills in the code, the friend shows masked', async () => {
    const inviter = await app.signedIn('desktop', 'inviter@example.com');
    await inviter.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const invite = new InvitePage(inviter.page);
    await invite.goto();
    await invite.rules.waitFor();
    expect(await invite.rules.innerText()).toContain(
      'You earn 20% of the trading and swap fees we actually collect from each friend',
    );
    const code = await invite.code.innerText();
    const link = await invite.link.innerText();
    expect(link).toBe(`${app.server.baseUrl}/register?invite=${code}`);
    expect(await invite.qr.getAttribute('data-text')).toBe(link);
    await invite.copyLink();
    await expect.poll(() => invite.announced(), { timeout: 15_000 }).toBe('Copied.');
    expect(await inviter.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await invite.friends.getByText('No friend has registered with your code yet.').waitFor();
    await invite.chooseRebate('5% to your friend, 15% to you');
    await expect
      .poll(() => invite.announced(), { timeout: 15_000 })
      .toBe('Saved. From tomorrow you give back 5% of each fee.');

    // The friend opens the link: the code is filled in, read-only, and registering links them.
    const friend = await app.open('desktop');
    await friend.page.goto(link);
    const register = new RegisterPage(friend.page);
    expect(await register.inviteCode.inputValue()).toBe(code);
    expect(await register.inviteCode.getAttribute('readonly')).not.toBeNull();
    await register.completeByEmail('nora.friend@example.com', 'friend passphrase', (to) =>
      app.inbox.codeFor(to),
    );

    await invite.page.reload();
    await expect.poll(() => invite.friend('no***@example.com').innerText()).toContain('Registered');
    expect(await invite.count('registered').innerText()).toBe('1');
    expect([...inviter.errors, ...friend.errors]).toEqual([]);
    await friend.context.close();
    await invite.close();
  });

  it('says under the invite code when no customer has it', async () => {
    const { page: p } = await app.open('desktop');
    await p.goto('/pass/register?invite=zzzz2222');
    const register = new RegisterPage(p);
    expect(await register.inviteCode.inputValue()).toBe('ZZZZ2222');
    await register.userName.fill('nobody.invited@example.com');
    await register.sendCode('nobody.invited@example.com');
    await register.create(await app.inbox.codeFor('nobody.invited@example.com'), 'a passphrase 123');
    await p.getByText('This invite code does not exist.').waitFor();
    await expect.poll(() => register.inviteCode.getAttribute('aria-invalid')).toBe('true');
    expect(register.pathname()).toBe('/pass/register');
    await register.close();
  });

  it('asks for a login on account pages when logged out', async () => {
    const { page: p } = await app.open('desktop');
    await new BalancePage(p).goto();
    await p.locator('.needs-login').getByRole('link', { name: 'Log in' }).waitFor();
    await p.context().close();
  });
});

describe('account, mobile', () => {
  it('logs in, shows the bell, the balance and the record in Arabic, without serious accessibility problems', async () => {
    const { page: p } = await app.open('mobile');
    await registerThroughUi(p, 'omar@example.com', 'another passphrase');
    const shell = new MobileShell(p);
    await shell.barLink('Notifications').waitFor();
    for (const path of ['/profile', '/profile/balance', '/profile/transactions']) {
      await p.goto(path);
      await settled(p);
      expect(await seriousViolations(p), path).toEqual([]);
    }
    await shell.setLanguage('ar');
    const balance = new BalancePage(p);
    await balance.goto();
    await expect.poll(() => balance.dir()).toBe('rtl');
    await expect.poll(() => balance.asset('USDT').innerText()).toMatch(/100[,٬]000/);
    await balance.close();
  });

  it('welcome board: Continue goes home for a logged-in user', async () => {
    const { page: p, context } = await app.open('mobile');
    await registerThroughUi(p, 'welcomed@example.com', 'welcome passphrase');
    // A new browser session with the stored login: the board shows once, and Continue goes home.
    const stored = await p.evaluate(() => ({
      token: localStorage.getItem('token') ?? '',
      userInfo: JSON.parse(localStorage.getItem('userInfo') ?? 'null') as { id: number; userName: string },
    }));
    const fresh = await app.open('mobile', { as: stored, welcome: true });
    const shell = new MobileShell(fresh.page);
    await fresh.page.goto('/market');
    await shell.welcomeBoard.getByRole('button', { name: 'Continue' }).click();
    await shell.waitForPath('/');
    expect(await shell.stored('isLogin')).toBe('true');
    await context.close();
    await fresh.context.close();
  });

  it('shows the invite page in Arabic, right to left, without serious accessibility problems', async () => {
    const { page: p } = await app.signedIn('mobile', 'invite.mobile@example.com', { language: 'ar' });
    const invite = new InvitePage(p);
    await invite.goto();
    await invite.rules.waitFor();
    await settled(p);
    expect(await invite.dir()).toBe('rtl');
    expect(await seriousViolations(p)).toEqual([]);
    expect(await invite.overflow()).toBeLessThanOrEqual(0);
    await invite.close();
  });

  it('has no serious accessibility problems on login and register', async () => {
    const { page: p } = await app.open('mobile');
    const shell = new MobileShell(p);
    for (const path of ['/pass/login', '/pass/register']) {
      await p.goto(path);
      await settled(p);
      expect(await seriousViolations(p), path).toEqual([]);
      expect(await shell.overflow(), path).toBeLessThanOrEqual(0);
    }
    await shell.close();
  });
});
