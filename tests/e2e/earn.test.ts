import { ASSET_SCALES, type EarnProductAdmin, parseMinor } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { productBody } from '../../apps/server/src/test/earn.ts';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import { EarnListPage, EarnProductPage, MyInvestPage, TransactionsPage } from '../support/pages/index.ts';
import { advanceClock } from '../support/server.ts';

/**
 * The earn screens on a real server: a customer buys a static fund from the demo balance at the
 * figures its confirm step showed (the investment and the ledger record say the same), redeems it
 * early for what the redemption dialog said, and every earn screen passes axe, in English and
 * Arabic, on the desktop and at 390 px. The clock is movable: the last test moves it a day at a
 * time until a reserve runs short.
 */
const app = useApp({ env: { SWX_CLOCK: 'movable' }, staff: { email: 'earn.admin@swx.test', role: 'admin' } });
const SHOTS = process.env.SCREENSHOT_DIR;
const USDT = ASSET_SCALES.USDT;

let fixed: EarnProductAdmin;
let flexible: EarnProductAdmin;
let dynamic: EarnProductAdmin;
let vip: EarnProductAdmin;
let buyer: Session;

/** An amount of USDT in minor units, from the wire. */
const usdt = (text: string) => parseMinor(text, USDT);

/** The staff session of beforeAll (a new sign-in would need another authenticator step). */
let adminToken = '';

beforeAll(async () => {
  adminToken = (await app.staff.session()).token;
  const admin = staffApi(app.server, adminToken);
  const create = async (overrides: Parameters<typeof productBody>[0]) => {
    const made = await admin.ok('createEarnProduct', productBody(overrides));
    return admin.ok('fundEarnReserve', {
      productId: made.product.id,
      book: 'demo',
      amount: '5000',
      reason: 'Reserve for the browser tests',
    });
  };
  fixed = await create({ name: 'USDT 30-day fixed' });
  flexible = await create({ name: 'USDT flexible', termDays: null, annualRate: '0.05', penaltyRate: '0' });
  dynamic = await create({
    name: 'Crypto majors basket',
    income: 'dynamic',
    annualRate: null,
    basket: ['BTCUSDT', 'ETHUSDT'],
    termDays: null,
    penaltyRate: '0',
  });
  vip = await create({
    type: 'vip',
    name: 'VIP 90-day',
    termDays: 90,
    annualRate: '0.15',
    minAmount: '1000',
    requiresKyc: true,
    onePerCustomer: true,
  });
  buyer = await app.customer('earn.buyer@example.com');
  await readAllNotices(app.server, buyer.token);
}, 180_000);

describe('earn', () => {
  it('buys a static fund from the balance at the confirmed figures, which the investment and the record show', async () => {
    const { page, errors } = await app.open('desktop', { as: buyer, quiet: true });
    const api = customerApi(app.server, buyer);
    const before = (await api.ok('getBalances')).balances.find((b) => b.asset === 'USDT');

    await page.goto('/financial/cryptoInvest');
    const list = new EarnListPage(page);
    const card = list.card('USDT 30-day fixed');
    await card.waitFor();
    // The card states the rate (annual and daily), the lock, the reserve promised to current investors.
    expect(await card.innerText()).toContain('12.00%');
    expect(await card.innerText()).toContain('30 days');
    expect(await card.getByTestId('reserved-interest').getAttribute('data-value')).toMatch(/^0(\.0+)?$/);
    await list.open('USDT 30-day fixed');
    await list.waitForPath('/financial/cryptoInvestDetail');

    const product = new EarnProductPage(page);
    await product.enter('1000');
    const quoted = await product.quoteFigures();
    expect(usdt(quoted.amount?.value ?? '')).toBe(1_000_000_000n);
    expect(quoted.estimatedProfit?.value).toBeTruthy();
    // Early redemption day by day, collapsed until asked for.
    await product.redemption.locator('summary').click();
    expect(await product.redemption.locator('tbody tr').count()).toBeGreaterThanOrEqual(30);
    await expectAccessible(page, 'desktop product page with a quote');

    const confirm = await product.review();
    await expectAccessible(page, 'desktop confirm dialog');
    // The confirm step shows exactly the figures of the quote on the page.
    for (const name of ['amount', 'rate', 'dailyProfit', 'estimatedProfit', 'accrualStart', 'expiryTime'])
      expect(confirm[name]?.value, name).toBe(quoted[name]?.value);
    await product.confirmPurchase();
    await product.waitForPath('/financial/myInvest/fund');

    // The investment the server made is the one confirmed.
    const [investment] = await api.ok('fundUserProjects', { itemType: 'fund' });
    if (!investment) throw new Error('no investment');
    expect(investment).toMatchObject({
      productId: fixed.product.id,
      status: 'in_progress',
      payWith: 'balance',
    });
    expect(usdt(investment.amount)).toBe(usdt(confirm.amount?.value ?? ''));
    expect(usdt(investment.totalInterest ?? '')).toBe(usdt(confirm.estimatedProfit?.value ?? ''));
    expect(investment.annualRate).toBe(confirm.rate?.value);
    expect(investment.accrualStart).toBe(confirm.accrualStart?.value);
    expect(investment.expiryTime).toBe(confirm.expiryTime?.value);

    // The balance lost exactly the amount, and the record says where it went.
    const after = (await api.ok('getBalances')).balances.find((b) => b.asset === 'USDT');
    expect(usdt(before?.available ?? '0') - usdt(after?.available ?? '0')).toBe(usdt(investment.amount));
    const record = await api.ok('listTransactions', { kind: 'earn_subscribe' });
    const entry = record.items[0];
    expect(entry?.postings.find((p) => p.account === 'wallet')?.amount).toBe(`-${investment.amount}`);
    expect(entry?.postings.find((p) => p.account === 'earn')?.amount).toBe(investment.amount);

    const mine = new MyInvestPage(page);
    await expect.poll(() => mine.status(investment.id).innerText()).toBe('In progress');
    await expectAccessible(page, 'desktop my investments');
    await mine.openDetail(investment.id);
    await expectAccessible(page, 'desktop investment detail');
    await page.keyboard.press('Escape');

    const transactions = new TransactionsPage(page);
    await transactions.goto();
    const line = transactions.firstEntry();
    expect(await transactions.what(line).innerText()).toBe('Earn investment');
    const postings = await transactions.openPostings(line);
    expect(await postings.innerText()).toContain('Your earn investments');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('redeems early and pays what the dialog said, beside what holding to the end would pay', async () => {
    const api = customerApi(app.server, buyer);
    const [investment] = await api.ok('fundUserProjects', { itemType: 'fund', status: 'in_progress' });
    if (!investment) throw new Error('no investment in progress');
    const before = (await api.ok('getBalances')).balances.find((b) => b.asset === 'USDT');

    const { page, errors } = await app.open('mobile', { as: buyer, quiet: true });
    await page.goto('/financial/myInvest/fund');
    const mine = new MyInvestPage(page);
    const said = await mine.askRedeem(investment.id);
    // Paid now = principal − penalty (2 %) − income already paid; at maturity: principal + interest.
    const amount = usdt(investment.amount);
    expect(usdt(said.penalty?.value ?? '')).toBe((amount * 2n) / 100n);
    expect(usdt(said.receive?.value ?? '')).toBe(
      amount - usdt(said.penalty?.value ?? '') - usdt(said.incomeToDate?.value ?? ''),
    );
    expect(usdt(said.atMaturity?.value ?? '')).toBe(amount + usdt(investment.totalInterest ?? '0'));
    await expectAccessible(page, 'mobile redeem dialog');
    await screenshotTo(page, 'earn-redeem-390-en');
    await mine.confirmRedeem();
    await expect.poll(() => mine.status(investment.id).innerText()).toBe('Redeemed early');
    // The shell's live region says what was paid, as the dialog showed it.
    const shown = (said.receive?.text ?? '').split('\n').pop() ?? '';
    await expect.poll(() => page.getByTestId('announcer').innerText()).toContain(shown);

    const done = await api.ok('earnInvestment', { id: investment.id });
    expect(done.status).toBe('redeemed');
    expect(usdt(done.received ?? '')).toBe(usdt(said.receive?.value ?? ''));
    const after = (await api.ok('getBalances')).balances.find((b) => b.asset === 'USDT');
    expect(usdt(after?.available ?? '0') - usdt(before?.available ?? '0')).toBe(
      usdt(said.receive?.value ?? ''),
    );
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('buys by a transfer with a payment proof in the live book: sent for review, and said so', async () => {
    const admin = staffApi(app.server, (await app.staff.session()).token);
    await admin.ok('fundEarnReserve', {
      productId: fixed.product.id,
      book: 'live',
      amount: '100',
      reason: 'Live reserve for the browser tests',
    });
    const { page, errors, context } = await app.open('desktop', { as: buyer, quiet: true });
    await context.addInitScript(() => localStorage.setItem('virtual', '0'));
    await page.goto(`/financial/cryptoInvestDetail?id=${fixed.product.id}`);
    const product = new EarnProductPage(page);
    await product.enter('200');
    await product.payByProof(await pngImage(), `0x${'ab'.repeat(32)}`);
    expect(await product.payInAddress.innerText()).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await expectAccessible(page, 'desktop purchase by proof');
    const confirm = await product.review();
    expect(usdt(confirm.amount?.value ?? '')).toBe(200_000_000n);
    await product.confirmPurchase();
    await product.waitForPath('/financial/myInvest/fund');

    const live = customerApi(app.server, buyer, { book: 'live' });
    const [investment] = await live.ok('fundUserProjects', { itemType: 'fund' });
    expect(investment).toMatchObject({ status: 'pending', payWith: 'proof', productId: fixed.product.id });
    const mine = new MyInvestPage(page);
    await expect.poll(() => mine.status(investment?.id ?? 0).innerText()).toBe('Proof under review');
    // Nothing to redeem while staff check the transfer.
    expect(
      await mine
        .card(investment?.id ?? 0)
        .getByTestId('redeem')
        .count(),
    ).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('passes axe on every earn screen, desktop and 390 px, in English and Arabic', async () => {
    const screens = [
      ['list', '/financial/cryptoInvest'],
      ['vip', '/financial/vipInvest'],
      ['fixed', `/financial/cryptoInvestDetail?id=${fixed.product.id}`],
      ['flexible', `/financial/cryptoInvestDetail?id=${flexible.product.id}`],
      ['dynamic', `/financial/cryptoInvestDetail?id=${dynamic.product.id}`],
      ['vip-detail', `/financial/vipInvestDetail/${vip.product.id}`],
      ['mine', '/financial/myInvest/fund'],
      ['mine-vip', '/financial/myInvest/vip'],
    ] as const;
    for (const layout of ['desktop', 'mobile'] as const)
      for (const language of ['en', 'ar'] as const) {
        const { page, errors } = await app.open(layout, { as: buyer, language, quiet: true });
        for (const [name, path] of screens) {
          await page.goto(path);
          await page.locator('.earn-page .page-title').waitFor();
          await page.locator('.earn-page [data-loading]').first().waitFor({ state: 'detached' });
          await expectAccessible(page, `${layout} ${language} ${path}`);
          if (layout === 'mobile') await screenshotTo(page, `earn-${name}-390-${language}`);
        }
        if (layout === 'mobile') {
          // The purchase with its quote, at 390 px.
          await page.goto(`/financial/cryptoInvestDetail?id=${fixed.product.id}`);
          await new EarnProductPage(page).amount.fill('250');
          await page.getByTestId('quote-figures').waitFor();
          await expectAccessible(page, `${layout} ${language} quote`);
          await screenshotTo(page, `earn-quote-390-${language}`);
        }
        expect(errors).toEqual([]);
        await page.context().close();
      }
  }, 300_000);

  it('a fund whose reserve ran short: the investment says paused with what is owed, the product is off sale; the page states what can still be invested', async () => {
    const admin = staffApi(app.server, adminToken);
    const made = await admin.ok(
      'createEarnProduct',
      productBody({ name: 'USDT flexible short', termDays: null, annualRate: '0.08', penaltyRate: '0' }),
    );
    // 10,000 at 8 % earns 2.191780 on its first day: a reserve of 3 pays that day and no more.
    await admin.ok('fundEarnReserve', {
      productId: made.product.id,
      book: 'demo',
      amount: '3',
      reason: 'Short reserve',
    });
    const api = customerApi(app.server, buyer);
    const q = await api.ok('earnQuote', { productId: made.product.id, amount: '10000' });
    const bought = await api.ok('fundApply', { quoteId: q.quoteId, requestId: 'short-reserve-buy' });
    for (let day = 0; day < 3; day++) await advanceClock(app.server, '1d');
    const [paused] = (await api.ok('fundUserProjects', { itemType: 'fund' })).filter(
      (i) => i.id === bought.id,
    );
    expect(paused?.paused).toMatchObject({ reason: 'reserve_short', owed: '2.191781' });
    // Told once, in words.
    const notices = await api.ok('getNoticeList');
    expect(notices.filter((n) => n.noticeContent.includes('could not pay the interest'))).toHaveLength(1);

    // Every layout and language when the screens are being looked at; else one of each.
    const views = SHOTS
      ? (['desktop', 'mobile'] as const).flatMap((l) => (['en', 'ar'] as const).map((g) => [l, g] as const))
      : ([
          ['desktop', 'en'],
          ['mobile', 'ar'],
        ] as const);
    for (const [layout, language] of views) {
      const { page, errors } = await app.open(layout, { as: buyer, language, quiet: true });
      const size = layout === 'desktop' ? '1366' : '390';
      const mine = new MyInvestPage(page);
      await page.goto('/financial/myInvest/fund');
      await mine.paused(bought.id).waitFor();
      expect(await mine.status(bought.id).getAttribute('data-state')).toBe('paused');
      expect(await mine.paused(bought.id).getAttribute('data-owed')).toBe('2.191781');
      if (language === 'en') {
        expect(await mine.status(bought.id).innerText()).toBe('Paused: reserve short');
        // The VIP summary holds VIP investments only: this customer has none.
        await page.goto('/financial/myInvest/vip');
        await expect.poll(() => mine.summary.innerText()).toContain('Nothing invested yet.');
        await page.goto('/financial/myInvest/fund');
        await mine.paused(bought.id).waitFor();
      }
      await expectAccessible(page, `${layout} ${language} paused investment`);
      await screenshotTo(page, `earn-paused-${size}-${language}`);

      const product = new EarnProductPage(page);
      await page.goto(`/financial/cryptoInvestDetail?id=${made.product.id}`);
      expect(await product.soldOut.getAttribute('data-reason')).toBe('reserve_short');
      expect(await product.purchase.count()).toBe(0);
      await screenshotTo(page, `earn-short-product-${size}-${language}`);
      // A flexible product is redeemable, not "fixed for the term"; a fixed one states what it can still take.
      await page.goto(`/financial/cryptoInvestDetail?id=${flexible.product.id}`);
      await page.locator('.earn-page [data-loading]').first().waitFor({ state: 'detached' });
      await screenshotTo(page, `earn-flexible-${size}-${language}`);
      await product.investable.waitFor();
      if (language === 'en') {
        expect(await product.rateLabel.innerText()).not.toContain('term');
        expect(await product.explain.innerText()).toContain('redeemable any day');
      }
      await page.goto(`/financial/cryptoInvestDetail?id=${fixed.product.id}`);
      await product.investable.waitFor();
      const shown = await admin.ok('listEarnProducts');
      const fixedNow = await customerApi(app.server).ok('earnProduct', { id: fixed.product.id });
      expect(await product.investable.getAttribute('data-value')).toBe(fixedNow.investable);
      expect(
        shown.find((x) => x.product.id === made.product.id)?.books.find((b) => b.book === 'demo')?.shortSince,
      ).toBeTruthy();
      await screenshotTo(page, `earn-investable-${size}-${language}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  }, 300_000);
});
