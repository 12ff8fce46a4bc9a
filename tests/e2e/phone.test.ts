import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { LoginPage, NoticeDialog, ProfilePage, RegisterPage, ResetPage } from '../support/pages/index.ts';
import { smsCodeFor } from '../support/sms.ts';

// No SMS gateway: every SMS is a file in the server's DATA_DIR/sms-outbox.
const app = useApp();

async function registerByPhone(
  p: Page,
  areaCode: string,
  typed: string,
  e164: string,
  password: string,
): Promise<void> {
  const register = new RegisterPage(p);
  await register.goto();
  await register.usePhone();
  // Checked before anything is sent: a number that is too long is refused in the form.
  await register.enterPhone(areaCode, '1234567890123456');
  await register.sendCodeButton.click();
  await p.getByText('Enter the number in digits: at most 15 digits with the area code.').waitFor();
  expect(await register.phoneNumber.getAttribute('aria-invalid')).toBe('true');
  expect(await seriousViolations(p)).toEqual([]);

  await register.phoneNumber.fill(typed);
  await register.sendCode(e164);
  expect(await seriousViolations(p)).toEqual([]);
  await register.create(await smsCodeFor(app.server.dataDir, e164), password);
  await register.waitForPath('/profile');
  const notice = new NoticeDialog(p);
  await expect.poll(() => notice.heading()).toBe('Notification');
  await notice.close();
  await new ProfilePage(p).waitForAccount(e164);
}

describe('phone accounts, desktop', () => {
  it('registers by phone with the SMS code from the outbox, logs out and logs in by phone', async () => {
    const { page: p, errors } = await app.open('desktop');
    await registerByPhone(p, '+49', '0151 2345 6789', '+4915123456789', 'a safe passphrase');

    await new ProfilePage(p).logOut();
    const login = new LoginPage(p);
    await login.waitForPath('/pass/login'); // spec §4
    await login.goto();
    await login.usePhone();
    expect(await seriousViolations(p)).toEqual([]);
    await login.logInByPhone('+49', '15123456789', 'wrong password');
    await login.waitForAlert('Wrong password.');
    await login.retry('a safe passphrase');
    await login.waitForPath('/profile');
    expect(errors).toEqual([]);
    await login.close();
  });

  it('offers recovery by SMS on the reset page, and the phone fields in Arabic, right to left', async () => {
    const { page: p, errors } = await app.open('desktop');
    const reset = new ResetPage(p);
    await reset.goto();
    await reset.usePhone();
    await reset.submit.click();
    await p.getByText('Please enter your phone number.').waitFor();
    expect(await seriousViolations(p)).toEqual([]);

    await reset.setLanguage('ar');
    const register = new RegisterPage(p);
    await register.goto();
    await expect.poll(() => register.dir()).toBe('rtl');
    await p.getByRole('radio', { name: 'الهاتف' }).check();
    await p.getByLabel('رمز الدولة').waitFor();
    expect(await p.getByLabel('رقم الهاتف').getAttribute('dir')).toBe('ltr');
    expect(await seriousViolations(p)).toEqual([]);
    expect(errors).toEqual([]);
    await register.close();
  });
});

describe('phone accounts, mobile', () => {
  it('registers by phone on an iPhone, with the SMS code from the outbox', async () => {
    const { page: p, errors } = await app.open('mobile');
    await registerByPhone(p, '+33', '06 12 34 56 78', '+33612345678', 'another passphrase');
    expect(errors).toEqual([]);
    await p.context().close();
  });
});
