import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import {
  LoanApplicationReviewPage,
  LoanPoolsPage,
  LoanProductsPage,
  LoanProofReviewPage,
  OverdueLoansPage,
} from '../support/pages/index.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';
import { uploadedId, uploadKycPhotos } from '../support/uploads.ts';

/**
 * The loans back office (issue 16, part 7): an admin creates a loan product through the form,
 * funds the USDT lending pool (the preview shows the balance after the amount), a KYC-verified
 * customer applies over the API with a drawn signature, staff read the information sheet, the
 * signature and the signed PDF, claim and approve, and the loan is paid out to the customer's
 * balance; a repayment by transfer is approved from the proof queue and applied to the loan; the
 * overdue list shows a loan past its due date. On PostgreSQL, so the test can set the platform's
 * repayment address (a system parameter without a screen) and move a due date into the past.
 */
const ADMIN = 'loans.admin@swx.test';
const COMPLIANCE = 'credit.compliance@swx.test';
const CUSTOMER = 'loan.borrower@example.com';
const PRODUCT = 'Harbour Credit USDT';
const REPAY_ADDRESS = '0x2222222222222222222222222222222222222222';
const TX_HASH = `0x${'4b'.repeat(32)}`;

let database: TestDatabase | undefined;
let adminPassword = '';
const app = useApp({
  env: async () => {
    database = await openTestDatabase({ kind: 'postgres' });
    const url = database.url ?? '';
    adminPassword = createStaffByCli(mkdtempSync(join(tmpdir(), 'swx-cli-')), ADMIN, 'admin', {
      DATABASE_URL: url,
    });
    return { DATABASE_URL: url };
  },
});
afterAll(async () => {
  await database?.close();
});

const db = () => {
  if (!database) throw new Error('the database did not start');
  return database.db;
};

let customer: Session;
/** The admin's one session for the file (each sign-in spends an authenticator step). */
let adminSession: StaffSessionData;
beforeAll(async () => {
  const enrolled = await enrolStaffByApi(app.server.baseUrl, ADMIN, adminPassword);
  adminSession = { token: enrolled.token, staff: enrolled.staff };
  customer = await app.customer(CUSTOMER);
}, 180_000);

const staffPage = (layout: 'desktop' | 'mobile' = 'desktop') => app.open(layout, { staff: adminSession });

/** Reloads the page in the staff member's language choice. */
async function inLanguage(page: Page, language: 'en' | 'ar'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('adminLanguage', l), language);
  await page.reload();
}

/** The customer, acting in the live book (loans are live only) over the API. */
const live = () => customerApi(app.server, customer, { book: 'live' });

/** The customer's identity verified by compliance (the admin creates the compliance officer, whose session it answers). */
async function verifyIdentity(): Promise<StaffSessionData> {
  const created = await staffApi(app.server, adminSession).ok('createStaff', {
    email: COMPLIANCE,
    role: 'compliance',
  });
  const officer = await enrolStaffByApi(app.server.baseUrl, COMPLIANCE, created.oneTimePassword);
  const compliance = staffApi(app.server, officer);
  const submitted = await customerApi(app.server, customer).call('identification', {
    firstName: 'Lina',
    lastName: 'Borrower',
    birthdate: '1988-03-14',
    sex: 'female',
    country: 'DE',
    address: '5 Hafenstrasse, Hamburg',
    phoneCode: '+49',
    phone: '40123456789',
    documentType: 'passport',
    photos: await uploadKycPhotos(app.server.baseUrl, customer.token),
  });
  expect(submitted.code).toBe(20001);
  const item = (await compliance.ok('kycQueue')).find((q) => q.userId === customer.userInfo.id);
  const id = item?.id ?? 0;
  await compliance.ok('claimKyc', { id });
  await compliance.ok('approveKyc', { id });
  return { token: officer.token, staff: officer.staff };
}

const usdt = (available: string | undefined) => Number(available ?? '0');

let loanId = 0;

describe('loans in the back office', () => {
  it('an admin creates a product, funds the pool, approves an application and a repayment proof', async () => {
    const { page: p, errors } = await staffPage();
    const products = new LoanProductsPage(p);
    await products.goto();
    await p.getByText('No loan product yet.').waitFor();
    await expectAccessible(p, 'desktop /admin/loans/products (empty)');

    // An empty form is not sent: each field to fix says so, and the first takes the focus.
    await p.getByRole('link', { name: 'New product' }).click();
    const form = p.getByRole('form', { name: 'New loan product' });
    await form.getByRole('button', { name: 'Create product' }).click();
    await expect.poll(() => form.getByText('Check this value.').count()).toBeGreaterThanOrEqual(5);
    await expect.poll(() => p.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    await expectAccessible(p, 'desktop /admin/loans/products/new (errors)');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await products.heading('Loan products', 2).waitFor();

    // Create: USDT 100 to 2,000, 7/14/30 days, 0.05 % a day after 3 free days; late 0.1 % a day, cap 20 %.
    await products.create({
      name: PRODUCT,
      min: '100',
      max: '2000',
      terms: '30, 7 14',
      dailyRate: '0.05',
      interestFreeDays: '3',
      lateDailyRate: '0.1',
      lateCap: '20',
    });
    await p.getByText(`Loan product ${PRODUCT} created.`).waitFor();
    // Nothing in the pool yet: open, but it cannot pay out its minimum.
    await expect.poll(() => products.status.innerText()).toBe('Pool too small for the minimum');
    expect(await products.pool.innerText()).toContain('0.00 USDT');
    await expectAccessible(p, 'desktop /admin/loans/products/:id');
    const staff = staffApi(app.server, adminSession);
    const [created] = await staff.ok('listLoanProducts');
    expect(created?.product).toMatchObject({
      name: PRODUCT,
      asset: 'USDT',
      terms: [7, 14, 30],
      dailyRate: '0.0005',
      interestFreeDays: 3,
      lateDailyRate: '0.001',
      lateCapRate: '0.2',
      enabled: true,
    });
    const productId = created?.product.id ?? 0;

    // Fund the USDT pool: the preview shows the balance after the amount before it is sent.
    await p.getByRole('link', { name: 'Fund the lending pools' }).click();
    const pools = new LoanPoolsPage(p);
    await pools.heading('Lending pools', 2).waitFor();
    await pools.typeFunding('USDT', '5000', 'Launch pool for the first loans');
    await expect.poll(() => pools.after().innerText()).toBe('5,000.00 USDT');
    await expectAccessible(p, 'desktop /admin/loans/pools');
    await screenshotTo(p, 'loan-pools-1366-en');
    await pools.fund();
    await expect.poll(() => pools.row('USDT').locator('td').nth(1).innerText()).toBe('5,000.00 USDT');
    const funded = (await staff.ok('listLoanPools')).find((x) => x.asset === 'USDT');
    expect(Number(funded?.available)).toBe(5000);
    await products.goto();
    await expect.poll(() => products.row(PRODUCT).innerText()).toContain('Open for applications');
    await screenshotTo(p, 'loan-products-1366-en');

    // The customer: identity verified (score 80: half of the maximum), applies for 1,000 USDT over 30 days.
    const officer = await verifyIdentity();
    const offered = await live().ok('loanProducts');
    expect(Number(offered.products.find((x) => x.id === productId)?.myLimit)).toBe(1000);
    const quote = await live().ok('loanQuote', { productId, amount: '1000', termDays: 30 });
    expect(Number(quote.totalInterest)).toBe(13.5); // 1000 × 0.0005 × (30 − 3)
    const signature = await uploadedId(
      app.server.baseUrl,
      customer.token,
      'loan_signature',
      await pngImage(),
    );
    const applied = await live().call('loan', {
      quoteId: quote.quoteId,
      requestId: 'loan-admin-e2e-1',
      signature,
      acceptAgreement: true,
    });
    expect(applied.code).toBe(20001);
    loanId = applied.data.id;
    const before = (await live().ok('getBalances')).balances.find((b) => b.asset === 'USDT');

    // Compliance reads the application (and may download the agreement) but does not decide;
    // repayment proofs are not theirs to read.
    const reader = await app.open('desktop', { staff: officer });
    const asReader = new LoanApplicationReviewPage(reader.page);
    await reader.page.goto(`/admin/loans/applications/${loanId}`);
    await asReader.sheet.waitFor();
    await reader.page.getByText('Only finance and admin approve or reject.').waitFor();
    expect(await asReader.approveButton.count()).toBe(0);
    expect(await reader.page.getByRole('link', { name: 'Loan repayment proofs' }).count()).toBe(0);
    expect((await asReader.downloadAgreement()).suggestedFilename()).toBe(`loan-agreement-${loanId}.pdf`);
    expect(reader.errors).toEqual([]);
    await reader.context.close();

    // The queue, then the application: customer, KYC, score, the sheet's figures, signature and PDF.
    const review = new LoanApplicationReviewPage(p);
    await review.gotoQueue();
    await expect
      .poll(async () => (await review.rows('loan-application-queue')).join('\n'))
      .toContain(CUSTOMER);
    await expectAccessible(p, 'desktop /admin/loans/applications');
    await review.review(CUSTOMER);
    expect(new URL(p.url()).pathname).toBe(`/admin/loans/applications/${loanId}`);
    const who = await review.customer.innerText();
    for (const shown of [CUSTOMER, 'Verified', '80']) expect(who).toContain(shown);
    const sheet = await review.sheet.innerText();
    for (const shown of [
      PRODUCT,
      '1,000.00 USDT',
      '13.50 USDT',
      '1,013.50 USDT',
      `${quote.apr} %`,
      '0.05 %',
      '200.00 USDT',
      'without a fee',
      'One approval is enough: not above the four-eyes threshold of 10,000.00 USDT',
    ])
      expect(sheet).toContain(shown);
    await review.signature.waitFor();
    expect(await review.signature.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    const pdf = await review.downloadAgreement();
    expect(pdf.suggestedFilename()).toBe(`loan-agreement-${loanId}.pdf`);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await expectAccessible(p, 'desktop /admin/loans/applications/:id');
    await screenshotTo(p, 'loan-application-1366-en');
    await review.claim();
    await review.approve();
    await p
      .getByText("Approved; the loan was paid out to the customer's balance and the customer was notified.")
      .waitFor();

    // Paid out: the customer's balance rose by the amount, the pool lent it out.
    const after = (await live().ok('getBalances')).balances.find((b) => b.asset === 'USDT');
    expect(usdt(after?.available) - usdt(before?.available)).toBe(1000);
    expect((await live().ok('loanDetail', { id: loanId })).state).toBe('repaying');
    await pools.goto();
    const usdtPool = pools.row('USDT');
    await expect.poll(() => usdtPool.locator('td').nth(1).innerText()).toBe('4,000.00 USDT');
    expect(await usdtPool.locator('td').nth(2).innerText()).toBe('1,000.00 USDT');
    // Not yet accrued: the 13.5 USDT of interest and the 200 USDT the late cost could reach (20 %).
    expect(await usdtPool.locator('td').nth(3).innerText()).toBe('213.50 USDT');

    // A change of terms applies to new applications only: the loan keeps 0.05 % a day.
    await products.goto();
    await products.row(PRODUCT).getByRole('link', { name: PRODUCT }).click();
    const terms = products.terms(PRODUCT);
    await terms.getByText('A change applies to new applications only', { exact: false }).waitFor();
    expect(await terms.getByLabel('Asset', { exact: true }).isDisabled()).toBe(true);
    await terms.getByLabel('Daily rate (% a day)').fill('0.06');
    await terms.getByRole('button', { name: 'Save terms' }).click();
    await p.getByText(`Terms of ${PRODUCT} saved.`).waitFor();
    expect((await staff.ok('listLoanProducts'))[0]?.product.dailyRate).toBe('0.0006');
    expect((await live().ok('loanDetail', { id: loanId })).dailyRate).toBe('0.0005');

    // A repayment of 500 USDT by transfer to the platform's address, with a proof image.
    await db().query(
      `INSERT INTO system_params (key, value, is_public, description)
       VALUES ('loan.repaymentAddress.USDT', $1, false, 'the test repayment address')
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [REPAY_ADDRESS],
    );
    const proofImage = await uploadedId(
      app.server.baseUrl,
      customer.token,
      'loan_repayment_proof',
      await pngImage(320, 200, 7),
    );
    const proofAnswer = await live().call('loanRepayProof', {
      loanId,
      amount: '500',
      proof: proofImage,
      txHash: TX_HASH,
      address: REPAY_ADDRESS,
    });
    expect(proofAnswer.code).toBe(20001);
    const proofs = new LoanProofReviewPage(p);
    await proofs.gotoQueue();
    await expect.poll(async () => (await proofs.rows('loan-proof-queue')).join('\n')).toContain(CUSTOMER);
    await expectAccessible(p, 'desktop /admin/loans/proofs');
    await proofs.review(CUSTOMER);
    await proofs.proof.waitFor();
    expect(await proofs.proof.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    const facts = await proofs.facts.innerText();
    for (const shown of [CUSTOMER, `Loan ${loanId}`, '500.00 USDT', TX_HASH.slice(2), REPAY_ADDRESS])
      expect(facts).toContain(shown);
    expect(await proofs.owed.innerText()).toContain('1,000.00 USDT');
    await expectAccessible(p, 'desktop /admin/loans/proofs/:id');
    await screenshotTo(p, 'loan-proof-1366-en');
    await proofs.claim();
    await proofs.approve();
    await p.getByText('Approved; the repayment was applied to the loan', { exact: false }).waitFor();
    await expect
      .poll(async () => (await live().ok('loanDetail', { id: loanId })).outstanding.principal)
      .toMatch(/^500(\.0+)?$/);

    // Overdue: the loan's due date four days ago (the daily servicing would mark it so).
    await db().query(
      `UPDATE loans SET state = 'expired', was_overdue = true,
         due_day = (now() AT TIME ZONE 'UTC')::date - 4 WHERE id = $1`,
      [loanId],
    );
    const overdue = new OverdueLoansPage(p);
    await overdue.goto();
    const row = overdue.row(CUSTOMER);
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[1]).toContain(`Loan ${loanId}`);
    expect(cells[2]).toBe('1,000.00 USDT');
    expect(cells[4]).toBe('4');
    expect(cells[5]).toBe('500.00 USDT');
    expect(cells[6]).toContain('at most 200.00 USDT');
    await expectAccessible(p, 'desktop /admin/loans/overdue');
    await screenshotTo(p, 'loan-overdue-1366-en');
    expect(errors).toEqual([]);
  });

  it('changes the limit rule with four eyes: one admin proposes on the screen, another approves, customers get it (issue 41)', async () => {
    const { page: p, errors } = await staffPage();
    await p.goto('/admin/loans/limit-rule');
    const current = p.getByTestId('loan-limit-current');
    await current.waitFor();
    expect(await current.innerText()).toContain('50 %');
    const form = p.getByTestId('loan-limit-propose');
    await form.getByLabel('Base share (%)').fill('40');
    await form.getByLabel('Step per loan (%)').fill('30');
    await form.getByRole('button', { name: 'Propose' }).click();
    // A step above a quarter is refused on the screen.
    await form.getByText('Check this value.').waitFor();
    await form.getByLabel('Step per loan (%)').fill('20');
    await form.getByLabel('Days a loan must run').fill('14');
    await form.getByRole('button', { name: 'Propose' }).click();
    await p.getByText('Proposed: it applies once another admin approves it.').waitFor();
    const pending = p.getByTestId('loan-limit-pending');
    await pending.getByText('Your proposal: another admin approves it.').waitFor();
    expect(await pending.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await expectAccessible(p, 'desktop en /admin/loans/limit-rule with a change waiting');
    await screenshotTo(p, 'loan-limit-rule-1366-en');
    // Not applied yet: the customer still reads the first rule.
    expect((await live().ok('loanProducts')).limit.rule).toEqual({
      baseShare: '0.5',
      stepShare: '0.1',
      maxShare: '1',
      minLoanDays: 30,
    });
    // A second admin approves it.
    const created = await staffApi(app.server, adminSession).ok('createStaff', {
      email: 'second.admin@swx.test',
      role: 'admin',
    });
    const second = await enrolStaffByApi(
      app.server.baseUrl,
      'second.admin@swx.test',
      created.oneTimePassword,
    );
    const other = await app.open('desktop', { staff: { token: second.token, staff: second.staff } });
    await other.page.goto('/admin/loans/limit-rule');
    await other.page.getByTestId('loan-limit-pending').getByRole('button', { name: 'Approve' }).click();
    await other.page.getByText('Approved: the new rule applies from now on.').waitFor();
    expect(await other.page.getByTestId('loan-limit-current').innerText()).toContain('40 %');
    expect(other.errors).toEqual([]);
    await other.context.close();
    expect((await live().ok('loanProducts')).limit.rule).toEqual({
      baseShare: '0.4',
      stepShare: '0.2',
      maxShare: '1',
      minLoanDays: 14,
    });
    expect(errors).toEqual([]);
  });

  it('reads in Arabic, right to left, and passes axe', async () => {
    const { page: p, errors } = await staffPage();
    await p.goto('/admin/loans/products');
    await inLanguage(p, 'ar');
    expect(await p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await p.getByRole('heading', { name: 'منتجات القروض', level: 2 }).waitFor();
    await p.getByTestId('loan-products').locator('tbody tr').first().waitFor();
    await expectAccessible(p, 'desktop ar /admin/loans/products');
    await screenshotTo(p, 'loan-products-1366-ar');
    await p.getByTestId('loan-products').getByRole('link', { name: PRODUCT }).click();
    await p.getByTestId('loan-product-pool').waitFor();
    await expectAccessible(p, 'desktop ar /admin/loans/products/:id');
    await screenshotTo(p, 'loan-product-1366-ar');
    await p.goto('/admin/loans/pools');
    await p.getByTestId('loan-pools').waitFor();
    await expectAccessible(p, 'desktop ar /admin/loans/pools');
    await p.goto(`/admin/loans/applications/${loanId}`);
    await p.getByTestId('loan-application-sheet').waitFor();
    await expectAccessible(p, 'desktop ar /admin/loans/applications/:id');
    await screenshotTo(p, 'loan-application-1366-ar');
    await p.goto('/admin/loans/proofs');
    await p.getByText('لا توجد إثباتات سداد قروض في الانتظار.').waitFor();
    await expectAccessible(p, 'desktop ar /admin/loans/proofs');
    await p.goto('/admin/loans/overdue');
    await p.getByTestId('loan-overdue').waitFor();
    await expectAccessible(p, 'desktop ar /admin/loans/overdue');
    await screenshotTo(p, 'loan-overdue-1366-ar');
    await p.goto('/admin/loans/limit-rule');
    await p.getByTestId('loan-limit-propose').waitFor();
    await expectAccessible(p, 'desktop ar /admin/loans/limit-rule');
    await screenshotTo(p, 'loan-limit-rule-1366-ar');
    expect(errors).toEqual([]);
  });

  it('fits a phone in English and Arabic', async () => {
    for (const language of ['en', 'ar'] as const) {
      const { page: p, errors, context } = await staffPage('mobile');
      await p.goto('/admin/loans/products');
      await inLanguage(p, language);
      await p.getByTestId('loan-products').locator('tbody tr').first().waitFor();
      await expectAccessible(p, `mobile ${language} /admin/loans/products`);
      await screenshotTo(p, `loan-products-390-${language}`);
      await p.goto('/admin/loans/pools');
      await p.getByTestId('loan-pools').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/loans/pools`);
      await screenshotTo(p, `loan-pools-390-${language}`);
      await p.goto(`/admin/loans/applications/${loanId}`);
      await p.getByTestId('loan-application-sheet').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/loans/applications/:id`);
      await screenshotTo(p, `loan-application-390-${language}`);
      await p.goto('/admin/loans/overdue');
      await p.getByTestId('loan-overdue').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/loans/overdue`);
      await screenshotTo(p, `loan-overdue-390-${language}`);
      await p.goto('/admin/loans/limit-rule');
      await p.getByTestId('loan-limit-propose').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/loans/limit-rule`);
      await screenshotTo(p, `loan-limit-rule-390-${language}`);
      // Nothing scrolls sideways on the phone.
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
