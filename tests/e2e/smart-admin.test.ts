import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import { fundLive } from '../support/funding.ts';
import { SmartPlansPage, SmartProductsPage } from '../support/pages/index.ts';
import { enrolStaffByApi } from '../support/staff.ts';

/**
 * The smart-plan back office (issue 17, part 8): an admin creates a product through the form (an
 * empty form is refused field by field), changes its terms (new plans only), a customer funded in
 * the live book buys a plan over the API, and the plan monitor shows it with its customer, amount,
 * income, positions and drawdown against its stop, filtered by state and product, and its own page.
 * Finance reads products and the monitor without changing anything; support is refused. Arabic
 * right to left, a phone's 390 px, axe on every screen.
 */
const app = useApp({ staff: { email: 'smart.admin@swx.test', role: 'admin' } });
const PRODUCT = 'Harbour BTC Trend';
const CUSTOMER = 'smart.planner@example.com';
const FINANCE = 'smart.finance@swx.test';
const SUPPORT = 'smart.support@swx.test';

let customer: Session;
let adminSession: StaffSessionData;
let financeSession: StaffSessionData;
let supportSession: StaffSessionData;
let productId = 0;
let planId = 0;

/** A staff member created by the admin over the API and enrolled (one session for the file). */
async function staffMember(email: string, role: 'finance' | 'support'): Promise<StaffSessionData> {
  const created = await staffApi(app.server, adminSession).ok('createStaff', { email, role });
  const enrolled = await enrolStaffByApi(app.server.baseUrl, email, created.oneTimePassword);
  return { token: enrolled.token, staff: enrolled.staff };
}

beforeAll(async () => {
  adminSession = await app.staff.session();
  financeSession = await staffMember(FINANCE, 'finance');
  supportSession = await staffMember(SUPPORT, 'support');
  customer = await app.customer(CUSTOMER);
}, 180_000);

const staffPage = (layout: 'desktop' | 'mobile' = 'desktop', session = adminSession) =>
  app.open(layout, { staff: session });

/** Reloads the page in the staff member's language choice. */
async function inLanguage(page: Page, language: 'en' | 'ar'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('adminLanguage', l), language);
  await page.reload();
}

/** The customer, acting in the live book over the API. */
const live = () => customerApi(app.server, customer, { book: 'live' });

describe('smart plans in the back office', () => {
  it('an admin creates and changes a product; a bought plan shows in the monitor', async () => {
    const { page: p, errors } = await staffPage();
    const products = new SmartProductsPage(p);
    await products.goto();
    await p.getByText('No smart-plan product yet.').waitFor();
    await expectAccessible(p, 'desktop /admin/smart/products (empty)');

    // An empty form is not sent: each field to fix says so, and the first takes the focus.
    await p.getByRole('link', { name: 'New product' }).click();
    const form = products.newForm();
    await form.getByRole('button', { name: 'Create product' }).click();
    await expect.poll(() => form.getByText('Check this value.').count()).toBe(6);
    await expect.poll(() => p.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    await expectAccessible(p, 'desktop /admin/smart/products/new (errors)');
    // The form's own checks: the maximum and the capacity not below the minimum.
    await products.fill(form, {
      name: PRODUCT,
      timeframes: '30, 7',
      min: '100',
      max: '50',
      capacity: '80',
      feeShare: '20',
    });
    await form.getByRole('button', { name: 'Create product' }).click();
    await form.getByText('The maximum cannot be below the minimum.').waitFor();
    await form.getByText('The capacity cannot be below the minimum.').waitFor();
    await screenshotTo(p, 'smart-product-new-1366-en');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await products.heading('Smart-plan products', 2).waitFor();

    // Create: moving-average trend on BTCUSDT, 7 or 30 days, 100 to 5,000 USDT, 20,000 in all, 20 % fee.
    await products.create({
      name: PRODUCT,
      strategy: 'Moving-average trend',
      instrument: 'BTCUSDT',
      timeframes: '30, 7',
      min: '100',
      max: '5000',
      capacity: '20000',
      feeShare: '20',
    });
    await p.getByText(`Smart-plan product ${PRODUCT} created.`).waitFor();
    expect(await products.status.innerText()).toBe('On sale');
    expect(await products.figures.innerText()).toContain('0.00 of 20,000.00 USDT');
    expect(await products.figures.innerText()).toContain('No plan has made a trade yet');
    const risk = await products.risk.innerText();
    for (const shown of [
      'Moving-average trend',
      'decides on 15-minute bars',
      'fast 20, slow 50',
      '2 %',
      '4 %',
      'of its notional',
    ])
      expect(risk).toContain(shown);
    await expectAccessible(p, 'desktop /admin/smart/products/:id');
    const admin = staffApi(app.server, adminSession);
    const [created] = await admin.ok('listSmartProducts');
    expect(created).toMatchObject({
      name: PRODUCT,
      strategy: { key: 'ma_trend' },
      instruments: ['BTCUSDT'],
      timeframes: [7, 30],
      feeShare: '0.2',
      enabled: true,
    });
    expect(Number(created?.minAmount)).toBe(100);
    expect(Number(created?.maxAmount)).toBe(5000);
    expect(Number(created?.capacity)).toBe(20000);
    productId = created?.id ?? 0;

    // A change applies to new plans only: said on the form, saved, and audited by the server.
    const terms = products.editForm(PRODUCT);
    await terms.getByText('A change applies to new plans only', { exact: false }).waitFor();
    await products.fill(terms, { feeShare: '15', timeframes: '7, 30, 90' });
    await terms.getByRole('button', { name: 'Save terms' }).click();
    await p.getByText(`Terms of ${PRODUCT} saved.`).waitFor();
    expect((await admin.ok('listSmartProducts'))[0]).toMatchObject({
      feeShare: '0.15',
      timeframes: [7, 30, 90],
    });
    await screenshotTo(p, 'smart-product-1366-en');

    // The list: strategy, instrument, timeframes, amounts, capacity, fee, status, record.
    await products.goto();
    const row = await products.row(PRODUCT).innerText();
    for (const shown of [
      'Moving-average trend',
      'BTCUSDT',
      '7, 30, 90',
      '100.00 – 5,000.00 USDT',
      '0.00 of 20,000.00 USDT',
      '15 % of a positive result',
      'On sale',
      'No plan has made a trade yet',
    ])
      expect(row).toContain(shown);
    await expectAccessible(p, 'desktop /admin/smart/products');
    await screenshotTo(p, 'smart-products-1366-en');

    // The customer, funded in the live book, buys a 1,000 USDT plan for 7 days over the API.
    await p.goto('/admin/smart/plans');
    await p.getByText('No smart plan.').waitFor();
    await fundLive(app.server, customer, financeSession.token, '1500', '5d');
    const quote = await live().ok('smartQuote', { productId, amount: '1000', timeframeDays: 7 });
    expect(quote.feeShare).toBe('0.15');
    const bought = await live().call('buySmart', { quoteId: quote.quoteId, requestId: 'smart-admin-e2e-1' });
    expect(bought.code).toBe(20004);
    planId = bought.data.id;

    // The monitor shows it: customer, product, amount, income, positions, drawdown against its stop, state.
    const plans = new SmartPlansPage(p);
    await plans.goto();
    const planRow = plans.row(CUSTOMER);
    await planRow.waitFor();
    const cells = await planRow.innerText();
    for (const shown of [
      `Plan ${planId}`,
      `${CUSTOMER} (#${customer.userInfo.id})`,
      PRODUCT,
      '1,000.00 USDT',
      'of 15 %',
      'In progress',
    ])
      expect(cells).toContain(shown);
    expect(cells).toMatch(/\d+ open of \d+ trades/);
    await expectAccessible(p, 'desktop /admin/smart/plans');
    await screenshotTo(p, 'smart-plans-1366-en');

    // Filters: another state shows none; the product shows it; both kept in the URL.
    await plans.filterState('Expired');
    await p.getByText('No smart plan matches these filters.').waitFor();
    expect(new URL(p.url()).searchParams.get('state')).toBe('expired');
    await plans.filterState('In progress');
    await plans.filterProduct(`${PRODUCT} (${productId})`);
    await planRow.waitFor();
    expect(new URL(p.url()).search).toBe(`?state=in_progress&product=${productId}`);
    await p.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => new URL(p.url()).search).toBe('');

    // The plan's page: every field, its terms as bought, and its customer's page one link away.
    await plans.open(planId);
    expect(await plans.state.innerText()).toBe('In progress');
    const facts = await plans.facts.innerText();
    for (const shown of [CUSTOMER, PRODUCT, 'Moving-average trend', 'BTCUSDT', '1,000.00 USDT'])
      expect(facts).toContain(shown);
    expect(await plans.results.innerText()).toContain('Not yet: no income day posted');
    const bought7 = await plans.planTerms.innerText();
    for (const shown of ['7', '100.00 – 5,000.00 USDT', '15 % of a positive result', '15 %', '2×'])
      expect(bought7).toContain(shown);
    await expectAccessible(p, 'desktop /admin/smart/plans/:id');
    await screenshotTo(p, 'smart-plan-1366-en');
    await plans.facts.getByRole('link', { name: new RegExp(`^${CUSTOMER}`) }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe(`/admin/customers/${customer.userInfo.id}`);

    // The product now holds the plan's amount.
    await products.goto();
    await expect.poll(() => products.row(PRODUCT).innerText()).toContain('1,000.00 of 20,000.00 USDT');

    // The capacity cannot fall below what the plans hold; a new fee applies to new plans only.
    await products.row(PRODUCT).getByRole('link', { name: PRODUCT }).click();
    const edit = products.editForm(PRODUCT);
    await products.fill(edit, { capacity: '500' });
    await edit.getByRole('button', { name: 'Save terms' }).click();
    await edit.getByText('The capacity cannot be below what the plans hold now.').waitFor();
    await products.fill(edit, { capacity: '20000', feeShare: '10' });
    await edit.getByRole('button', { name: 'Save terms' }).click();
    await p.getByText(`Terms of ${PRODUCT} saved.`).waitFor();
    expect((await admin.ok('listSmartProducts'))[0]?.feeShare).toBe('0.1');
    expect((await live().ok('smartPlan', { id: planId })).feeShare).toBe('0.15');
    expect(errors).toEqual([]);
  }, 300_000);

  it('finance reads products and plans without changing them; support is refused', async () => {
    const finance = await staffPage('desktop', financeSession);
    const fp = finance.page;
    const products = new SmartProductsPage(fp);
    await products.goto();
    await fp
      .getByText('Only the admin role creates or changes smart-plan products; you can read them.')
      .waitFor();
    expect(await fp.getByRole('link', { name: 'New product' }).count()).toBe(0);
    await products.row(PRODUCT).getByRole('link', { name: PRODUCT }).click();
    await products.terms.waitFor();
    const readable = await products.terms.innerText();
    for (const shown of ['7, 30, 90', '10 % of a positive result', 'On sale'])
      expect(readable).toContain(shown);
    expect(await fp.getByRole('form').count()).toBe(0);
    await expectAccessible(fp, 'desktop finance /admin/smart/products/:id');
    await fp.goto('/admin/smart/products/new');
    await fp.getByRole('alert').getByText('Only the admin role creates', { exact: false }).waitFor();
    const plans = new SmartPlansPage(fp);
    await plans.goto();
    await plans.row(CUSTOMER).waitFor();
    expect(finance.errors).toEqual([]);
    await finance.context.close();

    const support = await staffPage('desktop', supportSession);
    await support.page.goto('/admin/smart/products');
    await support.page.getByText('Your role does not open this section.').waitFor();
    expect(await support.page.getByRole('link', { name: 'Smart-plan products' }).count()).toBe(0);
    expect(await support.page.getByRole('link', { name: 'Smart-plan monitor' }).count()).toBe(0);
    await support.page.goto('/admin/smart/plans');
    await support.page.getByText('Your role does not open this section.').waitFor();
    await support.context.close();
  }, 120_000);

  it('reads in Arabic, right to left, and passes axe', async () => {
    const { page: p, errors } = await staffPage();
    await p.goto('/admin/smart/products');
    await inLanguage(p, 'ar');
    expect(await p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await p.getByRole('heading', { name: 'منتجات الخطط الذكية', level: 2 }).waitFor();
    await p.getByTestId('smart-products').locator('tbody tr').first().waitFor();
    await expectAccessible(p, 'desktop ar /admin/smart/products');
    await screenshotTo(p, 'smart-products-1366-ar');
    await p.goto(`/admin/smart/products/${productId}`);
    await p.getByTestId('smart-risk').waitFor();
    await expectAccessible(p, 'desktop ar /admin/smart/products/:id');
    await screenshotTo(p, 'smart-product-1366-ar');
    await p.goto('/admin/smart/plans');
    await p.getByTestId('smart-plans').waitFor();
    await expectAccessible(p, 'desktop ar /admin/smart/plans');
    await screenshotTo(p, 'smart-plans-1366-ar');
    await p.goto(`/admin/smart/plans/${planId}`);
    await p.getByTestId('smart-plan-facts').waitFor();
    await expectAccessible(p, 'desktop ar /admin/smart/plans/:id');
    await screenshotTo(p, 'smart-plan-1366-ar');
    expect(errors).toEqual([]);
  }, 120_000);

  it('fits a phone in English and Arabic', async () => {
    for (const language of ['en', 'ar'] as const) {
      const { page: p, errors, context } = await staffPage('mobile');
      await p.goto('/admin/smart/products');
      await inLanguage(p, language);
      await p.getByTestId('smart-products').locator('tbody tr').first().waitFor();
      await expectAccessible(p, `mobile ${language} /admin/smart/products`);
      await screenshotTo(p, `smart-products-390-${language}`);
      await p.goto(`/admin/smart/products/${productId}`);
      await p.getByTestId('smart-risk').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/smart/products/:id`);
      await screenshotTo(p, `smart-product-390-${language}`);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await p.goto('/admin/smart/plans');
      await p.getByTestId('smart-plans').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/smart/plans`);
      await screenshotTo(p, `smart-plans-390-${language}`);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await p.goto(`/admin/smart/plans/${planId}`);
      await p.getByTestId('smart-plan-facts').waitFor();
      await expectAccessible(p, `mobile ${language} /admin/smart/plans/:id`);
      await screenshotTo(p, `smart-plan-390-${language}`);
      // Nothing scrolls sideways on the phone.
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
