import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { expectAccessible, launchBrowser, newContext, watchErrors } from '../support/browser.ts';
import { jp2Image, jpegWithGps, pngImage } from '../support/images.ts';
import { api, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi, STAFF_PASSWORD, startServerWithStaff } from '../support/staff.ts';
import { authenticatorCode } from '../support/totp.ts';

let server: RunningServer;
let stop: () => Promise<void>;
let browser: Browser;
let oneTimePassword: string;
let customer: Session;
let inbox: Inbox;
/** The admin's second session (signed in over the API by the phone test), reused after it. */
let adminSession: { token: string; staff: unknown } | null = null;
const ADMIN = 'chief@swx.test';
/** The admin's authenticator secret, read from the enrolment screen, and the TOTP steps used. */
let secret = '';
let steps = 0;

beforeAll(async () => {
  const started = await startServerWithStaff('swx-e2e-backoffice', ADMIN, 'admin');
  ({ server, oneTimePassword, stop, inbox } = started);
  customer = await registerByApi(server, started.inbox, 'ada.lovelace@example.com');
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stop?.();
});

/** The rows of a data table as text, one string per row. */
const rowsOf = (p: Page, testId: string) => p.getByTestId(testId).locator('tbody tr').allInnerTexts();

describe('back office as an app', () => {
  it('deep links survive a reload; staff created and changed on a screen; customer page; audit filters and chain check', async () => {
    const context = await newContext(browser, 'desktop', server.baseUrl);
    const p = await context.newPage();
    const errors = watchErrors(p);
    // A deep link before signing in: the sign-in, then that very screen.
    await p.goto(`/admin/customers/${customer.userInfo.id}`);
    await p.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    await p.getByLabel('Email').fill(ADMIN);
    await p.getByLabel('Password').fill(oneTimePassword);
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.getByRole('heading', { name: 'Set up your authenticator' }).waitFor();
    secret = (await p.getByTestId('staff-totp-secret').innerText()).replace(/\s+/g, '');
    await p.getByLabel('New password').fill(STAFF_PASSWORD);
    await p.getByLabel('6-digit code').fill(authenticatorCode(secret, steps++));
    await p.getByRole('button', { name: 'Turn on and sign in' }).click();
    await p.getByRole('heading', { name: `Customer ${customer.userInfo.id}` }).waitFor();

    // The customer's page: both books, the demo funding entry, a live session, no KYC yet.
    const balances = await rowsOf(p, 'customer-balances');
    expect(balances).toHaveLength(8);
    expect(balances.join('\n')).toMatch(/Demo\s+USDT\s+100000\.000000\s+0\.000000\s+100000\.000000/);
    expect(balances.join('\n')).toMatch(/Live\s+USDT\s+0\.000000/);
    expect((await rowsOf(p, 'customer-transactions')).join('\n')).toContain('demo_funding');
    expect(await rowsOf(p, 'customer-sessions')).toHaveLength(1);
    await p.getByText('Never submitted.').waitFor();
    await expectAccessible(p, 'desktop /admin/customers/:id');
    // Reload keeps the page (the server answers the app for /admin/ paths).
    await p.reload();
    await p.getByRole('heading', { name: `Customer ${customer.userInfo.id}` }).waitFor();
    // Sorting by keyboard: the Book header's button, twice, puts Live first.
    await p.getByTestId('customer-balances').getByRole('button', { name: 'Sort by Book' }).focus();
    await p.keyboard.press('Enter');
    await p.keyboard.press('Enter');
    expect((await rowsOf(p, 'customer-balances'))[0]).toMatch(/^Live/);
    expect(
      await p
        .getByTestId('customer-balances')
        .getByRole('columnheader', { name: /Book/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');

    // Staff management: create, one-time password once, change role, disable.
    await p.getByRole('link', { name: 'Staff' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/admin/staff');
    await p.getByRole('heading', { name: 'Staff', level: 2 }).waitFor();
    await p.getByLabel('Email', { exact: true }).fill('new.agent@swx.test');
    await p.getByLabel('Role', { exact: true }).selectOption('support');
    await p.getByRole('button', { name: 'Create account' }).click();
    const password = await p.getByTestId('one-time-password').innerText();
    expect(password).toMatch(/^([A-Z2-9]{4}-){4}[A-Z2-9]{4}$/);
    await expectAccessible(p, 'desktop /admin/staff, one-time password');
    await p.getByRole('button', { name: 'I have passed it on' }).click();
    expect(await p.getByTestId('one-time-password').count()).toBe(0);
    await expect
      .poll(async () => (await rowsOf(p, 'staff-table')).join('\n'))
      .toMatch(/new\.agent@swx\.test\s+Support\s+Active\s+Not set up/);
    await p.getByLabel('Role of new.agent@swx.test').selectOption('compliance');
    await p.getByRole('button', { name: 'Change role new.agent@swx.test' }).click();
    await p.getByText('Make new.agent@swx.test Compliance?', { exact: false }).waitFor();
    await p.getByRole('button', { name: 'Confirm' }).click();
    await p.getByText('Role changed.').waitFor();
    await p.getByRole('button', { name: 'Disable new.agent@swx.test' }).click();
    await p.getByRole('button', { name: 'Confirm' }).click();
    await p.getByText('Account disabled; its sessions ended.').waitFor();
    await expect
      .poll(async () => (await rowsOf(p, 'staff-table')).join('\n'))
      .toMatch(/new\.agent@swx\.test\s+Compliance\s+Disabled/);
    // The server agrees: that account cannot sign in.
    const refused = await api(server.baseUrl, '/swx/admin/auth/signIn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'new.agent@swx.test', password }),
    });
    expect(refused.body.code).toBe(10005);
    // No button to disable yourself.
    expect(await p.getByRole('button', { name: `Disable ${ADMIN}` }).count()).toBe(0);
    await expectAccessible(p, 'desktop /admin/staff');

    // The audit log: filters in the URL, staff by email, the chain check.
    await p.getByRole('link', { name: 'Audit log' }).click();
    await p.getByRole('heading', { name: 'Audit log' }).waitFor();
    await p.getByLabel('Actor', { exact: true }).fill(ADMIN);
    await p.getByLabel('Action', { exact: true }).fill('staff.');
    await p.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => new URL(p.url()).searchParams.get('action')).toBe('staff.');
    const check = async () => {
      const rows = await rowsOf(p, 'audit-table');
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const row of rows) {
        expect(row).toContain(ADMIN);
        expect(row).toMatch(/\sstaff\.\w+/);
      }
      const text = rows.join('\n');
      for (const action of ['staff.created', 'staff.role_changed', 'staff.disabled', 'staff.totp_enrolled'])
        expect(text).toContain(action);
    };
    await expect
      .poll(async () => {
        const rows = await rowsOf(p, 'audit-table');
        return rows.length >= 4 && rows.every((r) => r.includes(ADMIN));
      })
      .toBe(true);
    await check();
    await p.reload();
    await p.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(await p.getByLabel('Action', { exact: true }).inputValue()).toBe('staff.');
    await expect.poll(async () => (await rowsOf(p, 'audit-table')).length).toBeGreaterThanOrEqual(4);
    await check();
    await p.getByRole('button', { name: 'Check the chain' }).click();
    await expect
      .poll(() => p.getByTestId('chain-verdict').innerText())
      .toMatch(/^Chain intact: \d+ rows checked/);
    await expectAccessible(p, 'desktop /admin/audit');
    // The subject filter finds that customer's page view by this admin.
    await p.getByRole('button', { name: 'Clear' }).click();
    await p.getByLabel('Subject', { exact: true }).fill(`user:${customer.userInfo.id}`);
    await p.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(async () => (await rowsOf(p, 'audit-table')).join('\n')).toContain('customer.viewed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone and in Arabic: deep link to the filtered audit log, no sideways scrolling, accessible', async () => {
    // A second sign-in of the same admin over the API, its session put in the tab.
    const post = (path: string, body: unknown) =>
      api(server.baseUrl, `/swx/admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const first = (await post('/auth/signIn', { email: ADMIN, password: STAFF_PASSWORD })).body.data as {
      challenge: string;
    };
    const signedIn = (
      await post('/auth/verifyCode', { challenge: first.challenge, code: authenticatorCode(secret, steps++) })
    ).body.data as { token: string; staff: unknown };
    adminSession = signedIn;
    const context = await newContext(browser, 'mobile', server.baseUrl);
    await context.addInitScript((s) => {
      sessionStorage.setItem('staffToken', s.token);
      sessionStorage.setItem('staffInfo', JSON.stringify(s.staff));
    }, signedIn);
    const p = await context.newPage();
    const errors = watchErrors(p);
    await p.goto('/admin/audit?action=staff.created');
    await p.getByRole('heading', { name: 'Audit log' }).waitFor();
    await expect
      .poll(async () => {
        const rows = await rowsOf(p, 'audit-table');
        return rows.length > 0 && rows.every((r) => r.includes('staff.created'));
      })
      .toBe(true);
    await expectAccessible(p, 'mobile /admin/audit');
    await p.goto(`/admin/customers/${customer.userInfo.id}`);
    await p.getByRole('heading', { name: `Customer ${customer.userInfo.id}` }).waitFor();
    await expectAccessible(p, 'mobile /admin/customers/:id');
    await p.getByLabel('Language').selectOption('ar');
    await expect.poll(() => p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await p.getByRole('link', { name: 'الموظفون' }).click();
    await p.getByRole('heading', { name: 'الموظفون', level: 2 }).waitFor();
    await expect.poll(async () => (await rowsOf(p, 'staff-table')).join('\n')).toContain(ADMIN);
    await expectAccessible(p, 'mobile /admin/staff, Arabic');
    expect(errors).toEqual([]);
    await context.close();
  });
  it('the KYC review queue: the claimant by name in the list and on the item, a deep link that survives a reload', async () => {
    const call = (path: string, token: string, body?: unknown) =>
      api(server.baseUrl, path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const signedIn = adminSession;
    if (!signedIn) throw new Error('the admin has no session');
    // A compliance officer, made by the admin, claims a customer's verification.
    const created = (
      await call('/swx/admin/staff', signedIn.token, { email: 'reviewer.kyc@swx.test', role: 'compliance' })
    ).body.data as { oneTimePassword: string };
    const reviewer = await enrolStaffByApi(server.baseUrl, 'reviewer.kyc@swx.test', created.oneTimePassword);
    const applicant = await registerByApi(server, inbox, 'grace.hopper@example.com');
    const submitted = await call('/swx/customer/user/identification', applicant.token, {
      firstName: 'Grace',
      lastName: 'Hopper',
      birthdate: '1986-12-09',
      sex: 'female',
      country: 'US',
      address: '1 Navy Yard, Arlington',
      phoneCode: '+1',
      phone: '2025550100',
      documentType: 'passport',
      photos: {
        front: (await jpegWithGps()).toString('base64'),
        back: (await pngImage()).toString('base64'),
        inHand: (await jp2Image()).toString('base64'),
      },
    });
    expect(submitted.body.code).toBe(20001);
    const queue = (await call('/swx/admin/kyc/queue', reviewer.token)).body.data as {
      id: number;
      userId: number;
    }[];
    const id = queue.find((q) => q.userId === applicant.userInfo.id)?.id ?? 0;
    expect((await call(`/swx/admin/kyc/${id}/claim`, reviewer.token, {})).body.code).toBe(200);

    // The admin reads the queue and the item; only compliance decides.
    const context = await newContext(browser, 'desktop', server.baseUrl);
    await context.addInitScript((s) => {
      sessionStorage.setItem('staffToken', s.token);
      sessionStorage.setItem('staffInfo', JSON.stringify(s.staff));
    }, signedIn);
    const p = await context.newPage();
    const errors = watchErrors(p);
    await p.goto('/admin/kyc');
    await p.getByRole('heading', { name: 'KYC reviews' }).waitFor();
    await expect
      .poll(async () => (await rowsOf(p, 'kyc-table')).join('\n'))
      .toMatch(/grace\.hopper@example\.com[\s\S]*reviewer\.kyc@swx\.test/);
    await expectAccessible(p, 'desktop /admin/kyc');
    await p.getByRole('link', { name: 'Review grace.hopper@example.com' }).click();
    await p.getByRole('heading', { name: `Verification ${id}` }).waitFor();
    expect(new URL(p.url()).pathname).toBe(`/admin/kyc/${id}`);
    const status = () => p.getByTestId('review-status').innerText();
    expect(await status()).toMatch(/reviewer\.kyc@swx\.test, until/);
    await p.getByText('Only the compliance role approves or rejects.').waitFor();
    expect(await p.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await expectAccessible(p, 'desktop /admin/kyc/:id');
    // The reviewer lets it go: after a reload of the same address, nobody holds it.
    expect((await call(`/swx/admin/kyc/${id}/release`, reviewer.token, {})).body.code).toBe(200);
    await p.reload();
    await p.getByRole('heading', { name: `Verification ${id}` }).waitFor();
    await expect.poll(status).toMatch(/Reviewer\s+Nobody/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
