import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import { EarnProductsPage, EarnProofReviewPage } from '../support/pages/index.ts';
import { uploadedId } from '../support/uploads.ts';

/**
 * The earn back office (staff screens of spec §3 Fund, DESIGN §2 rule 4): an admin creates a fund
 * product through the form, funds its live reserve (the coverage preview and the figures follow
 * the amount), and approves a customer's payment proof from the queue, after which the product's
 * figures show the investment and the interest promised from the reserve.
 */
const app = useApp({ staff: { email: 'earn.admin@swx.test', role: 'admin' } });
const PRODUCT = 'Harbour USDT 30';
/** A transfer's hash: 64 hex digits after 0x. */
const TX_HASH = `0x${'7c'.repeat(32)}`;

let customer: Session;
let staffSession: StaffSessionData | undefined;
beforeAll(async () => {
  customer = await app.customer('fund.payer@example.com');
}, 180_000);

/** One staff session for the file (each sign-in spends an authenticator step). */
async function staffPage() {
  staffSession ??= await app.staff.session();
  return app.open('desktop', { staff: staffSession, width: 1280 });
}

/** Reloads the page in the staff member's language choice. */
async function inLanguage(page: Page, language: 'en' | 'ar'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('adminLanguage', l), language);
  await page.reload();
}

/** The customer, acting in the live book over the API. */
const live = () => customerApi(app.server, customer, { book: 'live' });

describe('earn in the back office', () => {
  it('an admin creates a product, funds its reserve and approves a payment proof', async () => {
    const { page: p, errors } = await staffPage();
    const products = new EarnProductsPage(p);
    await products.goto();
    await p.getByText('No earn product yet.').waitFor();
    await expectAccessible(p, 'desktop /admin/earn/products (empty)');

    // Create: a 30-day static USDT fund at 12 % a year, 2 % early-exit penalty.
    await products.create({
      name: PRODUCT,
      termDays: '30',
      annualRate: '12',
      penalty: '2',
      min: '100',
      max: '10000',
      capacity: '100000',
    });
    await p.getByText(`Product ${PRODUCT} created.`, { exact: false }).waitFor();
    const id = Number(/\/earn\/products\/(\d+)$/.exec(products.pathname())?.[1]);
    expect(id).toBeGreaterThan(0);
    // Nothing funded yet: sold out for want of a reserve, in both books.
    await expect.poll(() => p.getByTestId('earn-status').innerText()).toBe('Sold out: reserve too small');
    expect(await products.reserveRow('Live').innerText()).toContain('0.00 USDT');
    await expectAccessible(p, 'desktop /admin/earn/products/:id');

    // Fund the live reserve: the preview shows the reserve after the amount before it is sent.
    await products.typeFunding('Live', '500', 'Launch reserve for the first investors');
    await expect.poll(() => products.freeAfter().innerText()).toBe('500.00 USDT');
    await screenshotTo(p, 'earn-product-1280-en');
    await products.fund();
    await expect
      .poll(async () => (await products.reserveRow('Live').locator('td').nth(1).innerText()).trim())
      .toBe('500.00 USDT');
    expect((await products.reserveRow('Demo').locator('td').nth(1).innerText()).trim()).toBe('0.00 USDT');
    await expect.poll(() => p.getByTestId('earn-status').innerText()).toBe('On sale');
    // The server says the same.
    const staff = staffApi(app.server, staffSession);
    const listed = (await staff.ok('listEarnProducts')).find((r) => r.product.id === id);
    expect(listed?.product).toMatchObject({
      name: PRODUCT,
      annualRate: '0.12',
      penaltyRate: '0.02',
      termDays: 30,
    });
    expect(Number(listed?.books.find((b) => b.book === 'live')?.reserveFree)).toBe(500);

    // A customer buys 1,000 USDT by a transfer with a payment proof (the live book).
    const quote = await live().ok('earnQuote', { productId: id, amount: '1000' });
    expect(quote.estimatedProfit).toMatch(/^9\.863013/); // 1000 × 0.12 × 30 / 365, rounded down
    const proof = await uploadedId(app.server.baseUrl, customer.token, 'fund_proof', await pngImage());
    const bought = await live().ok('fundApplyWithProof', { quoteId: quote.quoteId, proof, txHash: TX_HASH });
    expect(bought.status).toBe('pending');

    // Finance's queue: the proof with its image, customer, product, amount and hash.
    const review = new EarnProofReviewPage(p);
    await review.gotoQueue();
    expect((await review.rows('earn-proof-queue')).join('\n')).toContain('fund.payer@example.com');
    await expectAccessible(p, 'desktop /admin/earn/proofs');
    await review.review('fund.payer@example.com');
    await review.proof.waitFor();
    expect(await review.proof.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    const facts = await review.facts.innerText();
    for (const shown of [
      PRODUCT,
      '1,000.00 USDT',
      TX_HASH.slice(2),
      'One approval is enough: not above the four-eyes threshold of 10,000.00 USDT',
    ])
      expect(facts).toContain(shown);
    await expectAccessible(p, 'desktop /admin/earn/proofs/:id');
    await screenshotTo(p, 'earn-proof-1280-en');
    await review.claim();
    await review.approve();
    await p.getByText('Approved; the investment started and the customer was notified.').waitFor();
    const invested = await live().ok('earnInvestment', { id: bought.id });
    expect(invested.status).toBe('in_progress');

    // The product's figures now show the investment and the interest moved from the reserve.
    await products.goto();
    const row = products.row(PRODUCT);
    await expect.poll(() => row.locator('[data-book="live"]').innerText()).toContain('1,000.00 USDT (1)');
    const liveFigures = await row.locator('[data-book="live"]').innerText();
    expect(liveFigures).toContain('490.136987 USDT'); // 500 − 9.863013 promised
    expect(liveFigures).toContain('9.863013 USDT');
    await expectAccessible(p, 'desktop /admin/earn/products');
    await screenshotTo(p, 'earn-products-1280-en');

    // A rate change applies to new investments only: the form says so, the investment keeps 12 %.
    await row.getByRole('link', { name: PRODUCT }).click();
    const terms = p.getByRole('form', { name: `Terms of ${PRODUCT}` });
    await terms.getByText('A rate change applies to new investments only', { exact: false }).waitFor();
    expect(await terms.getByLabel('Asset', { exact: true }).isDisabled()).toBe(true);
    await terms.getByLabel('Annual rate (%)').fill('10.5');
    await terms.getByRole('button', { name: 'Save terms' }).click();
    await p.getByText(`Terms of ${PRODUCT} saved.`).waitFor();
    const changed = (await staff.ok('listEarnProducts')).find((r) => r.product.id === id);
    expect(changed?.product.annualRate).toBe('0.105');
    expect((await live().ok('earnInvestment', { id: bought.id })).annualRate).toBe('0.12');
    expect(errors).toEqual([]);
  });

  it('reads in Arabic, right to left, and passes axe', async () => {
    const { page: p, errors } = await staffPage();
    await p.goto('/admin/earn/products');
    await inLanguage(p, 'ar');
    expect(await p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await p.getByRole('heading', { name: 'منتجات الاستثمار', level: 2 }).waitFor();
    await p.getByTestId('earn-products').locator('tbody tr').first().waitFor();
    await expectAccessible(p, 'desktop ar /admin/earn/products');
    await screenshotTo(p, 'earn-products-1280-ar');
    await p.getByTestId('earn-products').getByRole('link', { name: PRODUCT }).click();
    await p.getByTestId('earn-reserve').waitFor();
    await expectAccessible(p, 'desktop ar /admin/earn/products/:id');
    await screenshotTo(p, 'earn-product-1280-ar');
    await p.goto('/admin/earn/proofs');
    await p.getByText('لا يوجد إثبات دفع لصندوق في الانتظار.').waitFor();
    await expectAccessible(p, 'desktop ar /admin/earn/proofs');
    expect(errors).toEqual([]);
  });

  it('fits a phone in English and Arabic', async () => {
    staffSession ??= await app.staff.session();
    for (const language of ['en', 'ar'] as const) {
      const { page: p, errors, context } = await app.open('mobile', { staff: staffSession });
      await p.goto('/admin/earn/products');
      await inLanguage(p, language);
      await p.getByTestId('earn-products').locator('tbody tr').first().waitFor();
      await expectAccessible(p, `mobile ${language} /admin/earn/products`);
      await screenshotTo(p, `earn-products-390-${language}`);
      await p.getByTestId('earn-products').getByRole('link', { name: PRODUCT }).click();
      await p.getByTestId('earn-reserve').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/earn/products/:id`);
      await screenshotTo(p, `earn-product-390-${language}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
