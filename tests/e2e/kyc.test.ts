import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { expectAccessible, type Layout, launchBrowser, newContext, sessionPage } from '../support/browser.ts';
import {
  appended,
  jp2Image,
  jpegWithGps,
  oversizePng,
  pdfDocument,
  pngImage,
  zipOf,
} from '../support/images.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { STAFF_PASSWORD, startServerWithStaff } from '../support/staff.ts';
import { authenticatorCode } from '../support/totp.ts';

let server: RunningServer;
let inbox: Inbox;
let stop: () => Promise<void>;
let browser: Browser;
let oneTimePassword: string;
const STAFF_EMAIL = 'reviewer@swx.test';
/** The staff authenticator secret, read from the enrolment screen. */
let staffSecret = '';
/** TOTP steps used so far by the staff account (a step is accepted once). */
let staffSteps = 0;

beforeAll(async () => {
  ({ server, inbox, oneTimePassword, stop } = await startServerWithStaff(
    'swx-e2e-kyc',
    STAFF_EMAIL,
    'compliance',
  ));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stop?.();
});

const customerPage = (layout: Layout, session: Session) =>
  sessionPage(browser, server.baseUrl, layout, session);

/** Staff sign-in in the browser: the enrolment the first time, password and code after. */
async function staffPage(layout: Layout): Promise<Page> {
  const context = await newContext(browser, layout, server.baseUrl);
  const p = await context.newPage();
  await p.goto('/admin/');
  await p.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
  await p.getByLabel('Email').fill(STAFF_EMAIL);
  if (!staffSecret) {
    await p.getByLabel('Password').fill(oneTimePassword);
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.getByRole('heading', { name: 'Set up your authenticator' }).waitFor();
    await expectAccessible(p, `${layout} /admin/ enrolment`);
    staffSecret = (await p.getByTestId('staff-totp-secret').innerText()).replace(/\s+/g, '');
    expect(staffSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await p.getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href')).toContain(
      `secret=${staffSecret}`,
    );
    await p.getByLabel('New password').fill(STAFF_PASSWORD);
    await p.getByLabel('6-digit code').fill(authenticatorCode(staffSecret, staffSteps++));
    await p.getByRole('button', { name: 'Turn on and sign in' }).click();
  } else {
    await p.getByLabel('Password').fill(STAFF_PASSWORD);
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.getByRole('heading', { name: 'Authenticator code' }).waitFor();
    await p.getByLabel('6-digit code').fill(authenticatorCode(staffSecret, staffSteps++));
    await p.getByRole('button', { name: 'Sign in' }).click();
  }
  await p.getByText(`Signed in as ${STAFF_EMAIL} (Compliance)`).waitFor();
  return p;
}

describe('KYC, customer and back office', () => {
  it('customer submits three real photos, staff approves in /admin/, the customer sees verified and the notice', async () => {
    const session = await registerByApi(server, inbox, 'kyc.e2e@example.com');
    const { page: p, errors } = await customerPage('desktop', session);
    await p.goto('/profile/settings');
    await p.getByRole('link', { name: /^Account verification/ }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/profile/verification');
    await p.getByRole('heading', { name: 'Account verification', level: 1 }).waitFor();
    expect(await p.getByTestId('kyc-state').innerText()).toBe('Not verified');
    await expectAccessible(p, 'desktop /profile/verification, empty');

    // Submitting nothing names what is missing.
    await p.getByRole('button', { name: 'Submit for review' }).click();
    await p.getByRole('alert').filter({ hasText: 'Please correct the fields marked below.' }).waitFor();
    expect(await p.getByText('Please upload this photo.').count()).toBe(3);

    await p.getByLabel('First name').fill('Grace');
    await p.getByLabel('Last name').fill('Hopper');
    await p.getByLabel('Date of birth').fill('1986-12-09');
    await p.getByRole('radio', { name: 'Female' }).check();
    await p.getByLabel('Country', { exact: true }).selectOption('US');
    await p.getByLabel('Address').fill('1 Navy Yard, Arlington');
    await p.getByLabel('Area code').selectOption('+1');
    await p.getByLabel('Phone number').fill('7035550100');
    await p.getByRole('radio', { name: 'Passport' }).check();
    // A PDF named .jpg is refused by its bytes, before it is sent.
    await p.getByLabel('Back of the document').setInputFiles({
      name: 'back.jpg',
      mimeType: 'image/jpeg',
      buffer: pdfDocument(),
    });
    await p.getByText('The image format must be JPG, JPEG 2000 or PNG.').waitFor();
    // Over the purpose's 2 MB: refused in the browser, never sent.
    await p.getByLabel('Back of the document').setInputFiles({
      name: 'back.png',
      mimeType: 'image/png',
      buffer: await oversizePng(),
    });
    await p.getByText('The image is larger than 2 MB.').waitFor();
    // A PNG with a ZIP appended passes the browser's look at its first bytes; the server refuses it
    // and the reason is shown in the reader's language.
    await p.getByLabel('Back of the document').setInputFiles({
      name: 'back.png',
      mimeType: 'image/png',
      buffer: appended(await pngImage(), zipOf('x.html', '<script>alert(1)</script>')),
    });
    await p
      .getByText('This file contains something other than an image. Please upload a plain photo.')
      .waitFor();
    await p.getByLabel('Front of the document').setInputFiles({
      name: 'front.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpegWithGps(640, 400),
    });
    await p.getByLabel('Back of the document').setInputFiles({
      name: 'back.png',
      mimeType: 'image/png',
      buffer: await pngImage(640, 400),
    });
    await p.getByLabel('You holding the document').setInputFiles({
      name: 'hand.jp2',
      mimeType: 'image/jp2',
      buffer: await jp2Image(320, 240),
    });
    await p.getByRole('img', { name: 'Preview: Front of the document' }).waitFor();
    await p.getByRole('img', { name: 'Preview: Back of the document' }).waitFor();
    await p.getByText('Your browser cannot preview JPEG 2000').waitFor();
    // Each photo is uploaded as soon as it is chosen, checked by the server, then marked.
    await expect.poll(() => p.getByText('Uploaded and checked.').count()).toBe(3);
    await expectAccessible(p, 'desktop /profile/verification, filled');
    await p.getByRole('button', { name: 'Submit for review' }).click();
    await expect.poll(() => p.getByTestId('kyc-state').innerText()).toBe('Under review');
    await p.getByText('Submitted. We will review it within 48 hours').waitFor();
    // The submitted photos come back from the server (re-encoded): three images.
    await expect.poll(() => p.locator('.photo-preview img').count()).toBe(3);
    await expectAccessible(p, 'desktop /profile/verification, pending');

    // Staff: sign in with the one-time password, enrol TOTP, review and approve.
    const admin = await staffPage('desktop');
    await admin.getByRole('link', { name: 'KYC reviews' }).click();
    await admin.getByRole('heading', { name: 'KYC reviews' }).waitFor();
    await admin.getByRole('link', { name: 'Review kyc.e2e@example.com' }).click();
    await admin.getByRole('heading', { name: /^Verification \d+$/ }).waitFor();
    await expect.poll(() => admin.locator('.photos .thumb img').count()).toBe(3);
    await expectAccessible(admin, 'desktop /admin/ KYC review');
    await admin.getByRole('button', { name: 'Enlarge Front' }).click();
    await admin.getByRole('dialog', { name: 'Front' }).getByRole('button', { name: 'Close' }).click();
    // Claim first (the review queue's lease), then decide; the page names who holds it.
    await admin.getByRole('button', { name: 'Claim', exact: true }).click();
    await admin.getByText(/^Claimed until /).waitFor();
    expect(await admin.getByTestId('review-status').innerText()).toContain('You, until');
    await admin.getByRole('button', { name: 'Approve' }).click();
    await admin.getByText('Approved; the customer was notified.').waitFor();
    expect(await admin.getByTestId('kyc-status').innerText()).toBe('Verified');

    // The customer sees it: the state, the notice dialog, the credit score.
    await p.reload();
    await expect.poll(() => p.getByTestId('kyc-state').innerText()).toBe('Verified');
    const notice = p.getByRole('dialog');
    await notice.getByText('Your identity is verified.', { exact: false }).waitFor({ timeout: 20_000 });
    await notice.getByRole('button').first().click();
    await p.goto('/profile');
    await expect.poll(() => p.getByTestId('credit-score').innerText()).toBe('80 of 100');
    await p.getByText('+20 points when your identity is verified').waitFor();
    expect(errors).toEqual([]);

    // The customers screen: find the customer, lock with a reason, which ends their session.
    await admin.getByRole('link', { name: 'Customers' }).click();
    await admin.getByLabel('Username, email or id').fill('kyc.e2e');
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByRole('link', { name: 'View kyc.e2e@example.com' }).click();
    await admin.getByRole('heading', { name: /^Customer \d+$/ }).waitFor();
    await expectAccessible(admin, 'desktop /admin/ customer');
    await admin.getByLabel('Reason').fill('testing the lock');
    await admin.getByRole('button', { name: 'Lock customer' }).click();
    await admin.getByText('Customer locked; their sessions ended.').waitFor();
    expect(await admin.getByTestId('customer-status').innerText()).toBe('Locked');
    const info = await fetch(`${server.baseUrl}/swx/customer/user/getUserInfo`, {
      method: 'POST',
      headers: { authorization: session.token },
    });
    expect(info.status).toBe(401);
    await admin.getByRole('button', { name: 'Sign out' }).click();
    await admin.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
  });

  it('has no serious accessibility violations on mobile: verification screen and back office', async () => {
    const session = await registerByApi(server, inbox, 'kyc.mobile@example.com');
    const { page: p, errors } = await customerPage('mobile', session);
    await p.goto('/profile/verification');
    await expect.poll(() => p.getByTestId('kyc-state').innerText()).toBe('Not verified');
    await expectAccessible(p, 'mobile /profile/verification');
    // While a photo is being sent, its progress shows (the upload is held here until it is seen).
    const gate: { open?: () => void } = {};
    const held = new Promise<void>((resolve) => {
      gate.open = resolve;
    });
    await p.route('**/swx/customer/upload/**', async (route) => {
      await held;
      await route.continue();
    });
    await p.getByLabel('Front of the document').setInputFiles({
      name: 'front.png',
      mimeType: 'image/png',
      buffer: await pngImage(400, 300),
    });
    await p.getByRole('progressbar', { name: 'Front of the document' }).waitFor();
    await expect.poll(() => p.getByRole('button', { name: 'Submit for review' }).isDisabled()).toBe(true);
    await expectAccessible(p, 'mobile /profile/verification, uploading');
    gate.open?.();
    await p.getByText('Uploaded and checked.').waitFor();
    expect(await p.getByRole('progressbar').count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Submit for review' }).isDisabled()).toBe(false);
    await p.goto('/profile');
    await expect.poll(() => p.getByTestId('credit-score').innerText()).toBe('60 of 100');
    await expectAccessible(p, 'mobile /profile');
    expect(errors).toEqual([]);

    const admin = await staffPage('mobile');
    await expectAccessible(admin, 'mobile /admin/ customers');
    await admin.getByRole('link', { name: 'KYC reviews' }).click();
    await admin.getByRole('heading', { name: 'KYC reviews' }).waitFor();
    await admin.getByText('No verification is waiting.').waitFor();
    await expectAccessible(admin, 'mobile /admin/ KYC queue');
  });
});
