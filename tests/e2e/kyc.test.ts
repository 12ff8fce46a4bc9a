import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { customerApi } from '../support/api.ts';
import { expectAccessible, type Layout } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import {
  appended,
  jp2Image,
  jpegWithGps,
  oversizePng,
  pdfDocument,
  pngImage,
  zipOf,
} from '../support/images.ts';
import {
  AdminSignInPage,
  BackOffice,
  CustomersPage,
  KycReviewPage,
  ProfilePage,
  VerificationPage,
} from '../support/pages/index.ts';
import { STAFF_PASSWORD } from '../support/staff.ts';

const STAFF_EMAIL = 'reviewer@swx.test';
const app = useApp({ staff: { email: STAFF_EMAIL, role: 'compliance' } });

/** Staff sign-in in the browser: the enrolment the first time, password and code after. */
async function staffPage(layout: Layout): Promise<Page> {
  const { page: p } = await app.open(layout);
  const signIn = new AdminSignInPage(p);
  await signIn.goto();
  if (!app.staff.enrolled) {
    await signIn.startEnrolment(STAFF_EMAIL, app.staff.oneTimePassword);
    await expectAccessible(p, `${layout} /admin/ enrolment`);
    const secret = await signIn.enrolmentSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await signIn.authenticatorLink().getAttribute('href')).toContain(`secret=${secret}`);
    app.staff.enrolledWith(secret);
    await signIn.finishEnrolment(STAFF_PASSWORD, app.staff.code());
  } else {
    await signIn.signIn(STAFF_EMAIL, STAFF_PASSWORD, () => app.staff.code());
  }
  await new BackOffice(p).waitForStaff(STAFF_EMAIL, 'Compliance');
  return p;
}

describe('KYC, customer and back office', () => {
  it('customer submits three real photos, staff approves in /admin/, the customer sees verified and the notice', async () => {
    const { page: p, errors, session } = await app.signedIn('desktop', 'kyc.e2e@example.com');
    await p.goto('/profile/settings');
    await p.getByRole('link', { name: /^Account verification/ }).click();
    const verification = new VerificationPage(p);
    await verification.waitForPath('/profile/verification');
    await p.getByRole('heading', { name: 'Account verification', level: 1 }).waitFor();
    expect(await verification.state.innerText()).toBe('Not verified');
    await expectAccessible(p, 'desktop /profile/verification, empty');

    // Submitting nothing names what is missing.
    await verification.submit();
    await p.getByRole('alert').filter({ hasText: 'Please correct the fields marked below.' }).waitFor();
    expect(await p.getByText('Please upload this photo.').count()).toBe(3);

    await verification.fillPerson({
      firstName: 'Grace',
      lastName: 'Hopper',
      birthdate: '1986-12-09',
      sex: 'Female',
      country: 'US',
      address: '1 Navy Yard, Arlington',
      areaCode: '+1',
      phone: '7035550100',
      document: 'Passport',
    });
    // A PDF named .jpg is refused by its bytes, before it is sent.
    await verification.attach('Back of the document', {
      name: 'back.jpg',
      mimeType: 'image/jpeg',
      buffer: pdfDocument(),
    });
    await p.getByText('The image format must be JPG, JPEG 2000 or PNG.').waitFor();
    // Over the purpose's 2 MB: refused in the browser, never sent.
    await verification.attach('Back of the document', {
      name: 'back.png',
      mimeType: 'image/png',
      buffer: await oversizePng(),
    });
    await p.getByText('The image is larger than 2 MB.').waitFor();
    // A PNG with a ZIP appended passes the browser's look at its first bytes; the server refuses it
    // and the reason is shown in the reader's language.
    await verification.attach('Back of the document', {
      name: 'back.png',
      mimeType: 'image/png',
      buffer: appended(await pngImage(), zipOf('x.html', '<script>alert(1)</script>')),
    });
    await p
      .getByText('This file contains something other than an image. Please upload a plain photo.')
      .waitFor();
    await verification.attach('Front of the document', {
      name: 'front.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpegWithGps(640, 400),
    });
    await verification.attach('Back of the document', {
      name: 'back.png',
      mimeType: 'image/png',
      buffer: await pngImage(640, 400),
    });
    await verification.attach('You holding the document', {
      name: 'hand.jp2',
      mimeType: 'image/jp2',
      buffer: await jp2Image(320, 240),
    });
    await p.getByRole('img', { name: 'Preview: Front of the document' }).waitFor();
    await p.getByRole('img', { name: 'Preview: Back of the document' }).waitFor();
    await p.getByText('Your browser cannot preview JPEG 2000').waitFor();
    // Each photo is uploaded as soon as it is chosen, checked by the server, then marked.
    await expect.poll(() => verification.uploaded.count()).toBe(3);
    await expectAccessible(p, 'desktop /profile/verification, filled');
    await verification.submit();
    await expect.poll(() => verification.state.innerText()).toBe('Under review');
    await p.getByText('Submitted. We will review it within 48 hours').waitFor();
    // The submitted photos come back from the server (re-encoded): three images.
    await expect.poll(() => verification.previews.count()).toBe(3);
    await expectAccessible(p, 'desktop /profile/verification, pending');

    // Staff: sign in with the one-time password, enrol TOTP, review and approve.
    const admin = await staffPage('desktop');
    const review = new KycReviewPage(admin);
    await review.openQueue();
    await review.review('kyc.e2e@example.com');
    await expect.poll(() => review.thumbnails.count()).toBe(3);
    await expectAccessible(admin, 'desktop /admin/ KYC review');
    await review.enlarge('Front');
    // Claim first (the review queue's lease), then decide; the page names who holds it.
    await review.claim();
    expect(await review.reviewStatus.innerText()).toContain('You, until');
    await review.approve();
    await admin.getByText('Approved; the customer was notified.').waitFor();
    expect(await review.status.innerText()).toBe('Verified');

    // The customer sees it: the state, the notice dialog, the credit score.
    await p.reload();
    await expect.poll(() => verification.state.innerText()).toBe('Verified');
    const notice = p.getByRole('dialog');
    await notice.getByText('Your identity is verified.', { exact: false }).waitFor({ timeout: 20_000 });
    await notice.getByRole('button').first().click();
    const profile = new ProfilePage(p);
    await profile.goto();
    await expect.poll(() => profile.creditScore.innerText()).toBe('80 of 100');
    await p.getByText('+20 points when your identity is verified').waitFor();
    expect(errors).toEqual([]);

    // The customers screen: find the customer, lock with a reason, which ends their session.
    const customers = new CustomersPage(admin);
    await customers.openScreen('Customers');
    await customers.find('kyc.e2e', 'kyc.e2e@example.com');
    await expectAccessible(admin, 'desktop /admin/ customer');
    await customers.lock('testing the lock');
    await admin.getByText('Customer locked; their sessions ended.').waitFor();
    expect(await customers.status.innerText()).toBe('Locked');
    const info = await customerApi(app.server, session).call('getUserInfo');
    expect(info.status).toBe(401);
    await customers.signOut();
    await new AdminSignInPage(admin).heading.waitFor();
  });

  it('has no serious accessibility violations on mobile: verification screen and back office', async () => {
    const { page: p, errors } = await app.signedIn('mobile', 'kyc.mobile@example.com');
    const verification = new VerificationPage(p);
    await verification.goto();
    await expect.poll(() => verification.state.innerText()).toBe('Not verified');
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
    await verification.attach('Front of the document', {
      name: 'front.png',
      mimeType: 'image/png',
      buffer: await pngImage(400, 300),
    });
    await verification.progress('Front of the document').waitFor();
    await expect.poll(() => verification.submitButton.isDisabled()).toBe(true);
    await expectAccessible(p, 'mobile /profile/verification, uploading');
    gate.open?.();
    await verification.uploaded.waitFor();
    expect(await p.getByRole('progressbar').count()).toBe(0);
    expect(await verification.submitButton.isDisabled()).toBe(false);
    const profile = new ProfilePage(p);
    await profile.goto();
    await expect.poll(() => profile.creditScore.innerText()).toBe('60 of 100');
    await expectAccessible(p, 'mobile /profile');
    expect(errors).toEqual([]);

    const admin = await staffPage('mobile');
    await expectAccessible(admin, 'mobile /admin/ customers');
    await new KycReviewPage(admin).openQueue();
    await admin.getByText('No verification is waiting.').waitFor();
    await expectAccessible(admin, 'mobile /admin/ KYC queue');
  });
});
