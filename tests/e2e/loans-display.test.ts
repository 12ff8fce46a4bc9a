import { ASSET_SCALES, CUSTOMER_API_BASE, type LoanProductAdmin, parseMinor } from '@swx/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { type Opened, openInLiveBook, useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import { verifyIdentityByApi } from '../support/kyc.ts';
import { LoanBorrowPage, LoanBrowsePage, LoanDetailPage } from '../support/pages/index.ts';
import { advanceClock } from '../support/server.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { uploadedId } from '../support/uploads.ts';

/**
 * What the loan screens show (issue 41, items 5, 6, 8 and 9), on a sandbox whose clock moves
 * (SWX_CLOCK=movable): the product card states each term's APR beside the daily rate, the sheet's
 * figure; a second application is refused in the loan's words; a pending application owes
 * nothing; a loan repaid in full leaves a page that makes no call the server refuses; and days
 * after the payout the day-by-day list and today's payoff come to the same interest.
 */
const ADMIN = 'loans.display.admin@swx.test';
const app = useApp({ env: { SWX_CLOCK: 'movable' }, staff: { email: ADMIN, role: 'admin' } });
const PRODUCT = 'Daily 30/60';
/** The loan's words for 10024, not the catalogue's ("You already hold this product…"). */
const OPEN_EN = 'You already have a loan in progress: one loan at a time.';
const OPEN_AR = 'لديك قرض جارٍ بالفعل: قرض واحد في كل مرة.';

let admin: StaffApi;
let compliance: StaffApi;
let product: LoanProductAdmin;
let borrower: Session;

const usdt = (text: string) => parseMinor(text, ASSET_SCALES.USDT);
const live = (session: Session): CustomerApi =>
  customerApi(app.server, session, { book: 'live', language: 'en' });

const shot = screenshotTo;

const inLive = (layout: 'desktop' | 'mobile', session: Session, language = 'en'): Promise<Opened> =>
  openInLiveBook(app, layout, session, language);

/**
 * The customer calls of a page that the server refused (an envelope whose code is neither 200
 * nor a 200xx success), as `path code`, from now on; `settled` waits for the answers read.
 */
function watchRefusedCalls(page: Page): { refused: string[]; settled: () => Promise<unknown> } {
  const refused: string[] = [];
  const reading: Promise<void>[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.startsWith(CUSTOMER_API_BASE)) return;
    reading.push(
      response
        .json()
        .then((body: { code?: number }) => {
          const code = body.code ?? 0;
          if (code !== 200 && !(code >= 20000 && code < 30000)) refused.push(`${path} ${code}`);
        })
        .catch(() => undefined),
    );
  });
  return { refused, settled: () => Promise.all(reading) };
}

const verify = (session: Session) =>
  verifyIdentityByApi(app.server, session, compliance, {
    firstName: 'Mira',
    lastName: 'Display',
    birthdate: '1988-04-05',
    sex: 'female',
    country: 'DE',
    address: '2 Hafenstraße, Hamburg',
    phoneCode: '+49',
    phone: '4012345679',
    documentType: 'idCard',
  });

/** An application over the API at the sheet of `amount` for `termDays`, signed. */
async function applyByApi(amount: string, termDays: number, requestId: string): Promise<number> {
  const api = live(borrower);
  const quote = await api.ok('loanQuote', { productId: product.product.id, amount, termDays });
  const signature = await uploadedId(app.server.baseUrl, borrower.token, 'loan_signature', await pngImage());
  return (await api.ok('loan', { quoteId: quote.quoteId, requestId, signature, acceptAgreement: true })).id;
}

async function approve(loanId: number): Promise<void> {
  await admin.ok('claimLoanApplication', { id: loanId });
  await admin.ok('approveLoanApplication', { id: loanId });
  await readAllNotices(app.server, borrower.token);
}

beforeAll(async () => {
  admin = staffApi(app.server, (await app.staff.session()).token);
  const created = await admin.ok('createStaff', { email: 'loans.display.kyc@swx.test', role: 'compliance' });
  compliance = staffApi(
    app.server,
    (await enrolStaffByApi(app.server.baseUrl, 'loans.display.kyc@swx.test', created.oneTimePassword)).token,
  );
  // No interest-free day: each day after the payout charges 2,000 × 0.05 % = 1.00 USDT.
  product = await admin.ok('createLoanProduct', {
    name: PRODUCT,
    asset: 'USDT',
    minAmount: '100',
    maxAmount: '4000',
    terms: [30, 60],
    dailyRate: '0.0005',
    interestFreeDays: 0,
    lateDailyRate: '0.001',
    lateCapRate: '0.05',
    enabled: true,
  });
  await admin.ok('fundLoanPool', {
    asset: 'USDT',
    amount: '50000',
    reason: 'Pool for the loan display tests',
    requestId: 'loans-display-pool',
  });
  borrower = await app.customer('loan.display@example.com');
  await verify(borrower);
  await readAllNotices(app.server, borrower.token);
}, 180_000);

describe('what the loan screens show', () => {
  it('a product card states each term’s APR beside the daily rate: the sheet’s figure', async () => {
    const api = live(borrower);
    const sheets = await Promise.all(
      [30, 60].map((termDays) =>
        api.ok('loanQuote', { productId: product.product.id, amount: '2000', termDays }),
      ),
    );
    for (const [layout, language] of [
      ['desktop', 'en'],
      ['mobile', 'en'],
      ['desktop', 'ar'],
      ['mobile', 'ar'],
    ] as const) {
      const { page, errors, context } = await inLive(layout, borrower, language);
      const browse = new LoanBrowsePage(page);
      await browse.goto();
      const card = browse.card(PRODUCT);
      await card.waitFor();
      const apr = card.locator('[data-figure="apr"]');
      expect(await apr.getAttribute('data-value')).toBe(
        sheets.map((q) => `${q.termDays}:${q.apr}`).join(','),
      );
      // Beside the daily rate.
      const names = await card
        .locator('[data-figure]')
        .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.figure));
      expect(names.indexOf('apr')).toBe(names.indexOf('dailyRate') + 1);
      if (language === 'en') {
        // (the figures are isolated for right-to-left pages: U+2066…U+2069)
        const text = (await apr.innerText()).replace(/[\u2066-\u2069]/g, '');
        for (const q of sheets) expect(text).toContain(`${q.apr}% over ${q.termDays} days`);
      }
      await expectAccessible(page, `${layout} ${language} /loan with the APR`);
      await shot(page, `loan-browse-apr-${layout === 'mobile' ? '390' : '1366'}-${language}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);

  it('refuses a second application in the loan’s words, and a pending application owes nothing', async () => {
    const { page, errors, context } = await inLive('desktop', borrower);
    const borrow = new LoanBorrowPage(page);
    await page.goto(`/loan/borrow/${product.product.id}`);
    await borrow.enter('2000', 30);
    await borrow.agreement.waitFor();
    // Meanwhile an application from elsewhere opens a loan: this screen's application is refused.
    const loanId = await applyByApi('2000', 30, 'display-first');
    await borrow.draw();
    await borrow.acceptAndApply();
    const refusal = page.locator('.loan-refusal');
    await refusal.waitFor();
    expect(await refusal.getAttribute('data-code')).toBe('10024');
    expect(await refusal.innerText()).toContain(OPEN_EN);
    expect(await refusal.innerText()).not.toContain('already hold this product');
    // Asking for a new sheet: refused at once, in the same words, with the way to the loan.
    await page.goto(`/loan/borrow/${product.product.id}`);
    await borrow.amount.fill('300');
    const sheetRefusal = page.getByTestId('loan-quote').locator('.loan-refusal');
    await sheetRefusal.waitFor();
    expect(await sheetRefusal.innerText()).toContain(OPEN_EN);
    expect(await sheetRefusal.getByRole('link').getAttribute('href')).toBe(`/loan/${loanId}`);

    // Pending review: nothing is owed until the money is paid out.
    const detail = new LoanDetailPage(page);
    await detail.goto(loanId);
    await expect.poll(() => detail.state.innerText()).toBe('Pending review');
    expect(await page.locator('.loan-state-text').innerText()).toContain('Nothing is owed');
    for (const row of ['principal', 'interest', 'lateCost', 'total'] as const)
      expect(await detail.owed(row).getAttribute('data-value'), row).toBe('0.000000');
    expect((await live(borrower).ok('loanDetail', { id: loanId })).outstanding.total).toBe('0.000000');
    await shot(page, 'loan-pending-1366-en');
    expect(errors).toEqual([]);
    await context.close();

    for (const layout of ['desktop', 'mobile'] as const) {
      const ar = await inLive(layout, borrower, 'ar');
      await ar.page.goto(`/loan/borrow/${product.product.id}`);
      await new LoanBorrowPage(ar.page).amount.fill('300');
      const said = ar.page.getByTestId('loan-quote').locator('.loan-refusal');
      await said.waitFor();
      expect(await said.innerText()).toContain(OPEN_AR);
      await shot(ar.page, `loan-borrow-open-${layout === 'mobile' ? '390' : '1366'}-ar`);
      await ar.page.goto(`/loan/${loanId}`);
      await new LoanDetailPage(ar.page).owedTotal().waitFor();
      expect(await new LoanDetailPage(ar.page).owedTotal().getAttribute('data-value')).toBe('0.000000');
      await expectAccessible(ar.page, `${layout} ar pending loan`);
      await shot(ar.page, `loan-pending-${layout === 'mobile' ? '390' : '1366'}-ar`);
      expect(ar.errors).toEqual([]);
      await ar.context.close();
    }
  }, 240_000);

  it('repaid in full, the loan’s page makes no call the server refuses', async () => {
    const [pending] = await live(borrower).ok('listLoanRecord', { state: 'pending' });
    if (!pending) throw new Error('no pending loan');
    await approve(pending.id);
    const { page, errors, context } = await inLive('desktop', borrower);
    const detail = new LoanDetailPage(page);
    await detail.goto(pending.id);
    await detail.repay.waitFor();
    const calls = watchRefusedCalls(page);
    // The payout day charges nothing: the payout repays it all.
    const full = await detail.repayFull();
    expect(usdt(full.amount?.value ?? '')).toBe(2_000_000_000n);
    await detail.confirmRepay();
    await expect.poll(() => detail.state.innerText()).toBe('Repaid');
    await page.reload();
    await expect.poll(() => detail.state.innerText()).toBe('Repaid');
    await page.waitForLoadState('networkidle');
    await calls.settled();
    expect(calls.refused).toEqual([]);
    expect(await detail.repay.count()).toBe(0);
    await shot(page, 'loan-repaid-1366-en');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('days after the payout, the day-by-day list and today’s payoff come to the same interest', async () => {
    const loanId = await applyByApi('2000', 30, 'display-second');
    await approve(loanId);
    // Two days later: the settlement has posted the first day; the second is today's.
    await advanceClock(app.server, '2d');
    for (const [layout, language, days] of [
      ['desktop', 'en', 2],
      ['mobile', 'en', 2],
      ['desktop', 'ar', 2],
      ['mobile', 'ar', 2],
      ['desktop', 'en', 3],
    ] as const) {
      if (layout === 'desktop' && days === 3) await advanceClock(app.server, '1d');
      const { page, errors, context } = await inLive(layout, borrower, language);
      const detail = new LoanDetailPage(page);
      await detail.goto(loanId);
      await detail.payoff.waitFor();
      const payoff = await detail.payoffFigures();
      const rows = await detail.accrualRows();
      const listed = rows.reduce((sum, row) => sum + usdt(row.interest), 0n);
      expect(usdt(payoff.interest?.value ?? '')).toBe(BigInt(days) * 1_000_000n);
      expect(rows).toHaveLength(days);
      expect(listed).toBe(usdt(payoff.interest?.value ?? ''));
      expect(usdt((await detail.owed('interest').getAttribute('data-value')) ?? '')).toBe(listed);
      // The list's last day is the payoff's day.
      const api = await live(borrower).ok('loanPayoff', { loanId });
      expect(rows.at(-1)?.day).toBe(api.day);
      await expectAccessible(page, `${layout} ${language} loan with its days`);
      await shot(page, `loan-days-${layout === 'mobile' ? '390' : '1366'}-${language}-${days}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 240_000);
});
