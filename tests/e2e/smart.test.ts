import { ASSET_SCALES, parseMinor, type SmartProduct, type SmartProductBody } from '@swx/contract';
import type { BrowserContext } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo, watchRequests } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { fundLive } from '../support/funding.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import { MySmartPlansPage, SmartListPage, SmartPlanPage, SmartProductPage } from '../support/pages/index.ts';
import { advanceClock } from '../support/server.ts';

/**
 * The smart trading screens on a real server: staff create the products over the staff API; a
 * customer with live USDT (a deposit proof approved by staff) reads a product's strategy, risk
 * limits and past year's backtest, creates a plan at the figures its confirm step showed, follows
 * it on its page and stops it, and the balance receives exactly the principal ± result the page
 * shows. The demo book is refused with the offer to switch; every smart screen passes axe in
 * English and Arabic, on the desktop and at 390 px.
 *
 * The server is a sandbox with a movable clock (SWX_CLOCK=movable): once the plan is made, the
 * operator's `clock:advance` moves time on hours at a time and runs the jobs, so the page shows the
 * plan's first trades and then its first income day (the next 00:00 UTC) before the customer stops
 * it. The drawdown stop and the replay against the backtest are proven by smart.db.test.ts.
 */
const app = useApp({
  staff: { email: 'smart.admin@swx.test', role: 'admin' },
  env: { SWX_CLOCK: 'movable' },
});
const USDT = ASSET_SCALES.USDT;
/** A signed decimal string in USDT minor units (results and income days may be losses). */
const usdt = (text: string) =>
  text.startsWith('-') ? -parseMinor(text.slice(1), USDT) : parseMinor(text, USDT);

let trend: SmartProduct;
let gold: SmartProduct;
/** EURUSD's mean reversion: a market with closed hours (the last test's refusal). */
let euro: SmartProduct;
let buyer: Session;

const body = (overrides: Partial<SmartProductBody>): SmartProductBody => ({
  name: 'BTC trend',
  strategy: 'ma_trend',
  instruments: ['BTCUSDT'],
  timeframes: [1, 7, 30],
  minAmount: '100',
  maxAmount: '5000',
  capacity: '100000',
  feeShare: '0.2',
  enabled: true,
  ...overrides,
});

/** The page opened in the live book (the choice the book switch keeps). */
async function live(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => localStorage.setItem('virtual', '0'));
}

const liveBalance = async () =>
  usdt(
    (await customerApi(app.server, buyer, { book: 'live' }).ok('getBalances')).balances.find(
      (b) => b.asset === 'USDT',
    )?.available ?? '0',
  );

beforeAll(async () => {
  buyer = await app.customer('smart.buyer@example.com');
  await fundLive(app.server, buyer, (await app.staff.session()).token, '2000');
  // The deposit's notice (and the welcome) would open over the screens.
  await readAllNotices(app.server, buyer.token);
}, 240_000);

describe('smart trading', () => {
  it('says smart trading is not enabled while no product is offered, then staff open products', async () => {
    const { page, errors, context } = await app.open('mobile', { quiet: true });
    const list = new SmartListPage(page);
    await list.goto();
    await list.notEnabled.waitFor();
    expect(await list.notEnabled.innerText()).toContain('Smart trading is not enabled');
    await expectAccessible(page, 'mobile /trading, not enabled');
    await screenshotTo(page, 'smart-not-enabled-390-en');
    expect(errors).toEqual([]);
    await context.close();

    const admin = staffApi(app.server, (await app.staff.session()).token);
    trend = await admin.ok('createSmartProduct', body({}));
    gold = await admin.ok(
      'createSmartProduct',
      body({ name: 'Gold breakout', strategy: 'breakout', instruments: ['XAUUSD'], enabled: false }),
    );
    euro = await admin.ok(
      'createSmartProduct',
      body({ name: 'Euro reversion', strategy: 'mean_reversion', instruments: ['EURUSD'] }),
    );
    expect(trend.realised).toBeNull();
  }, 60_000);

  it('refuses the demo book with the spec’s message and the offer to switch to live', async () => {
    const { page, errors, context } = await app.open('desktop', { as: buyer, quiet: true });
    const list = new SmartListPage(page);
    await list.goto();
    await list.demo.waitFor();
    expect(await list.demo.innerText()).toContain('Demo accounts cannot use smart trading');
    // Products are shown (past, realised: none yet), and a closed product says so in words.
    expect(await list.realised('BTC trend').getAttribute('data-value')).toBe('');
    expect(await list.realised('BTC trend').innerText()).toContain('No record yet');
    expect(await list.card('Gold breakout').getByTestId('smart-closed').innerText()).toBe(
      'Not open for new plans at the moment.',
    );
    await expectAccessible(page, 'desktop /trading (demo)');

    // The product page shows everything but offers no plan in the demo book.
    const product = new SmartProductPage(page);
    await product.goto(trend.id);
    await product.demo.waitFor();
    expect(await product.create.count()).toBe(0);
    // The server says the same (10043), whatever a screen does.
    const demo = customerApi(app.server, buyer, { book: 'demo' });
    expect(
      (await demo.call('smartQuote', { productId: trend.id, amount: '500', timeframeDays: 7 })).code,
    ).toBe(10043);
    // The offered switch leads to the form.
    await product.switchToLive();
    await product.create.waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('documents the strategy, its risk limits and its past year beside the live record, and words refusals', async () => {
    const { page, errors, context } = await app.open('desktop', { as: buyer, quiet: true });
    await live(context);
    const product = new SmartProductPage(page);
    // The page asks for the product with the app's first requests (routes.ts firstCall), signed in
    // on the live book, and the screen takes that answer rather than asking again.
    const asked = watchRequests(page, '/order/smart/products/');
    await product.goto(trend.id);
    await product.strategy.waitFor();
    expect(asked).toEqual([expect.stringMatching(new RegExp(`/order/smart/products/${trend.id}$`))]);
    await product.backtestFigures.waitFor({ timeout: 60_000 });
    expect(await product.strategy.innerText()).toContain('Moving-average trend follower');
    expect(await product.strategy.innerText()).toContain('a fast one of 20 bars and a slow one of 50 bars');
    const risk = await product.riskLimits();
    expect(risk.stopLoss?.value).toBe(trend.strategy.risk.stopLoss);
    expect(risk.takeProfit?.value).toBe(trend.strategy.risk.takeProfit);
    expect(risk.leverage?.value).toBe(String(trend.strategy.risk.leverage));
    expect(risk.drawdownStop?.value).toBe(trend.strategy.risk.drawdownStop);
    // The backtest shown is the server's, figure for figure, with a point of the curve per day.
    const detail = await customerApi(app.server, buyer).ok('smartProduct', { id: trend.id });
    const report = await product.backtestReport();
    for (const name of ['totalReturn', 'annualisedReturn', 'maxDrawdown', 'fees', 'marketChange'] as const)
      expect(report[name]?.value, name).toBe(detail.backtest?.[name]);
    expect(report.trades?.value).toBe(String(detail.backtest?.trades));
    expect(Number(await product.chart.getAttribute('data-points'))).toBe(detail.backtest?.equity.length);
    expect(await product.backtest.innerText()).toContain('they say what the rule did, not what it will do');
    expect(await product.live.innerText()).toContain('No record yet');
    await expectAccessible(page, 'desktop product page');
    await screenshotTo(page, 'smart-product-1366-en');

    // Refusals in words: an amount outside the range (before asking), a balance too small (10011).
    await product.choose('50', 7);
    await expect
      .poll(() => product.create.locator('.field-error').innerText())
      .toMatch(
        /^Incorrect purchase amount: enter from \u2066100\.00 USDT\u2069 to \u20665,000\.00 USDT\u2069\.$/,
      );
    await product.choose('4000', 7);
    await product.refusal.waitFor();
    expect(await product.refusal.getAttribute('data-code')).toBe('10011');
    expect(await product.refusal.innerText()).toContain('Insufficient balance');
    expect(await product.refusal.getByRole('link', { name: 'Deposit' }).getAttribute('href')).toBe(
      '/profile/deposit',
    );
    // A closed product offers no form; the server refuses it (10015).
    await product.goto(gold.id);
    await page.getByTestId('smart-closed').waitFor();
    expect(await product.create.count()).toBe(0);
    const me = customerApi(app.server, buyer, { book: 'live' });
    expect((await me.call('smartQuote', { productId: gold.id, amount: '500', timeframeDays: 7 })).code).toBe(
      10015,
    );
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('creates a plan at the confirmed figures, watches its first trades and income day, stops it, and the balance receives what the page shows', async () => {
    const { page, errors, context } = await app.open('desktop', { as: buyer, quiet: true });
    await live(context);
    const before = await liveBalance();

    const list = new SmartListPage(page);
    await list.goto();
    await list.open('BTC trend');
    await list.waitForPath(`/trading/${trend.id}`);
    const product = new SmartProductPage(page);
    const quoted = await product.enter('1000', 30);
    expect(usdt(quoted.amount?.value ?? '')).toBe(1_000_000_000n);
    expect(quoted.fee?.value).toBe('0.2');
    expect(quoted.backtestMaxDrawdown?.value).toMatch(/^\d/);

    const confirm = await product.review();
    // The confirm step: amount, timeframe, fee, times, the backtest's worst drawdown, and the risk limits.
    // Every rate before the commit: the platform's fee share and each trade's trading fee and spread.
    expect(quoted.tradingFee?.value).toBe(trend.tradingFeeRate);
    expect(quoted.spread?.value).toBe(trend.spreadRate);
    for (const name of [
      'amount',
      'timeframe',
      'fee',
      'tradingFee',
      'spread',
      'backtestMaxDrawdown',
      'startTime',
      'endTime',
      'marketOpen',
    ])
      expect(confirm.figures[name]?.value, name).toBe(quoted[name]?.value);
    // A crypto market never closes: all 30 days' minutes can trade, and nothing warns.
    expect(confirm.figures.marketOpen?.value).toBe(String(30 * 1440));
    expect(await product.confirm.getByTestId('partly-closed').count()).toBe(0);
    expect(confirm.risk.drawdownStop?.value).toBe(trend.strategy.risk.drawdownStop);
    expect(await product.confirm.getByTestId('book-badge').getAttribute('data-book')).toBe('live');
    await expectAccessible(page, 'desktop confirm a plan');
    await screenshotTo(page, 'smart-confirm-1366-en');
    await product.confirmPlan();
    await product.waitForPath(/^\/trading\/plans\/\d+$/);
    const planId = Number(product.pathname().split('/').pop());

    // The plan the server made is the one confirmed; the amount left the balance exactly.
    const me = customerApi(app.server, buyer, { book: 'live' });
    const [made] = await me.ok('listSmartOrder', {});
    expect(made).toMatchObject({
      id: planId,
      productId: trend.id,
      timeframeDays: 30,
      state: 'in_progress',
    });
    expect(usdt(made?.amount ?? '')).toBe(1_000_000_000n);
    expect(made?.startTime).toBe(confirm.figures.startTime?.value);
    expect(before - (await liveBalance())).toBe(1_000_000_000n);

    // The plan's page: every field of spec §3, its trades and income days as the server lists them.
    const plan = new SmartPlanPage(page);
    await plan.facts.waitFor();
    await expect.poll(() => plan.status.innerText()).toBe('In progress');
    const facts = await plan.planFacts();
    for (const name of [
      'product',
      'timeframe',
      'amount',
      'range',
      'dailyYield',
      'runningTime',
      'startTime',
      'nextIncomeTime',
      'incomeToDate',
    ])
      expect(facts[name], name).toBeDefined();
    // No day has made a profit yet: no "days of profit share: 0 days".
    expect(facts.profitShareDays).toBeUndefined();
    expect(facts.amount?.value).toBe(made?.amount);
    expect(facts.nextIncomeTime?.value).toBe(made?.nextIncomeTime);
    let detail = await me.ok('smartPlan', { id: planId });
    expect(detail.trades).toEqual([]);
    expect(await plan.incomes.innerText()).toContain('The first income day is posted at');
    await expectAccessible(page, 'desktop plan in progress');

    // Time passes (the sandbox's clock, moved by the operator command): the plan trades on the
    // platform's prices, each trade listed on its page as the server lists it. The simulated price
    // is a function of the time, so how long a trend strategy waits for its first signal depends on
    // the day the test runs: from 2026-11-30 12:00 UTC the first crossing came 128 hours later
    // (at most 5.3 days over the two weeks after it), so the clock may move up to 14 days.
    for (let hours = 0; detail.trades.length === 0 && hours < 14 * 24; hours += 3) {
      await advanceClock(app.server, '3h');
      detail = await me.ok('smartPlan', { id: planId });
    }
    expect(detail.state).toBe('in_progress');
    expect(detail.trades.length).toBeGreaterThan(0);
    await page.reload();
    await plan.facts.waitFor();
    await expect.poll(() => plan.tradeRows.count()).toBe(detail.trades.length);
    const [first] = detail.trades;
    // The row's figures as written, without grouping commas and bidi isolation marks.
    const firstRow = (await plan.tradeRows.first().innerText()).replace(/[,\u2066-\u2069]/g, '');
    for (const figure of [first?.openPrice, first?.size]) expect(firstRow).toContain(figure);
    // Lots say what they are: "0.05 lots (0.05 BTC)", the lot size of the trading terms.
    expect(first?.unit).toBe('BTC');
    expect(firstRow).toContain(`lots (${first?.units} BTC)`);
    await screenshotTo(page, 'smart-trades-1366-en');

    // Income days, each posted at the next 00:00 UTC: the day's closed trades' results less their
    // fees, exactly (a close belongs to the day its one-minute bar ends in: the bar ending 00:00:00
    // to the day before). On until a day whose trades closed has been posted.
    const closeDay = (at: string) => new Date(Date.parse(at) - 1000).toISOString().slice(0, 10);
    const closedOn = (d: string) => detail.trades.filter((t) => t.closedAt && closeDay(t.closedAt) === d);
    const traded = () => detail.incomes.find((income) => closedOn(income.day).length > 0);
    for (let hours = 0; !traded() && hours < 7 * 24; hours += 3) {
      await advanceClock(app.server, '3h');
      detail = await me.ok('smartPlan', { id: planId });
    }
    expect(detail.state).toBe('in_progress');
    const day = traded();
    if (!day) throw new Error('no income day with closed trades was posted');
    for (const income of detail.incomes)
      expect(usdt(income.amount), income.day).toBe(
        closedOn(income.day).reduce((sum, t) => sum + usdt(t.result ?? '0') - usdt(t.fee), 0n),
      );
    // A day with closed trades is told in a notice (how a notice is shown is the notices screens' own).
    const told = (await customerApi(app.server, buyer).ok('getNoticeList', { readState: 0 })).map(
      (notice) => notice.noticeContent,
    );
    expect(told.some((text) => text.includes('BTC trend') && text.includes(day.day))).toBe(true);
    await readAllNotices(app.server, buyer.token);
    await page.reload();
    await plan.facts.waitFor();
    await expect.poll(() => plan.incomeRows.count()).toBe(detail.incomes.length);
    expect(
      await plan.incomes.locator(`tr[data-day="${day.day}"] td[data-value]`).getAttribute('data-value'),
    ).toBe(day.amount);
    expect((await plan.planFacts()).incomeToDate?.value).toBe(detail.incomeToDate);
    await expectAccessible(page, 'desktop plan with trades and income');
    await screenshotTo(page, 'smart-income-1366-en');

    // Stop: the dialog says what happens, then the page shows what came back.
    const asked = await plan.askStop();
    expect(asked.text).toContain('plus or minus the result of all its trades, comes back to your balance');
    expect(asked.text).toContain('No fee is taken from a result of zero or a loss.');
    expect(asked.figures.amount?.value).toBe(made?.amount);
    await expectAccessible(page, 'desktop stop dialog');
    const beforeStop = await liveBalance();
    await plan.confirmStop();
    const settled = await plan.settled();
    await expect.poll(() => plan.status.innerText()).toBe('Stopped');
    const returned = usdt(settled.returned?.value ?? '');
    const result = usdt(settled.result?.value ?? '');
    const fee = usdt(settled.fee?.value ?? '');
    // Principal ± result − fee (only from a positive result) is what the page says came back…
    expect(returned).toBe(usdt(settled.amount?.value ?? '') + result - fee);
    if (result <= 0n) expect(fee).toBe(0n);
    // …and exactly what the balance received.
    expect((await liveBalance()) - beforeStop).toBe(returned);
    // The end posted the plan's days: each income day is listed, and the income is its trades' results less their fees, exactly.
    const ended = await me.ok('smartPlan', { id: planId });
    expect(await plan.incomeRows.count()).toBe(ended.incomes.length);
    expect(await plan.tradeRows.count()).toBe(ended.trades.length);
    const income = ended.incomes.reduce((sum, day) => sum + usdt(day.amount), 0n);
    const trades = ended.trades.reduce((sum, t) => sum + usdt(t.result ?? '0') - usdt(t.fee), 0n);
    expect(income).toBe(trades);
    expect(result).toBe(income);
    // The shell's live region says it, as the page shows it.
    await expect.poll(() => page.getByTestId('announcer').innerText()).toContain('Plan stopped');
    await screenshotTo(page, 'smart-stopped-1366-en');

    // My plans: the card in words, with what came back.
    const plans = new MySmartPlansPage(page);
    await plans.goto();
    await expect.poll(() => plans.status(planId).innerText()).toBe('Stopped');
    expect((await plans.figures(planId)).returned?.value).toBe(settled.returned?.value);
    await expectAccessible(page, 'desktop my plans');
    expect(errors).toEqual([]);
    await context.close();
    await expectLedgerSound(app.server);
  }, 240_000);

  it('passes axe on every smart screen, desktop and 390 px, in English and Arabic', async () => {
    // The plan's end notice would open over the screens.
    await readAllNotices(app.server, buyer.token);
    const me = customerApi(app.server, buyer, { book: 'live' });
    const [plan] = await me.ok('listSmartOrder', {});
    const screens = [
      ['list', '/trading'],
      ['product', `/trading/${trend.id}`],
      ['closed', `/trading/${gold.id}`],
      ['plans', '/trading/plans'],
      ['plan', `/trading/plans/${plan?.id ?? 1}`],
    ] as const;
    for (const layout of ['desktop', 'mobile'] as const)
      for (const language of ['en', 'ar'] as const) {
        const { page, errors, context } = await app.open(layout, { as: buyer, language, quiet: true });
        await live(context);
        for (const [name, path] of screens) {
          await page.goto(path);
          await new SmartListPage(page).ready();
          if (name === 'product') await page.getByTestId('backtest-figures').waitFor({ timeout: 60_000 });
          await expectAccessible(page, `${layout} ${language} ${path}`);
          await screenshotTo(page, `smart-${name}-${layout === 'mobile' ? 390 : 1366}-${language}`);
        }
        // The quote and the confirm step at this size.
        const product = new SmartProductPage(page);
        await product.goto(trend.id);
        await product.backtestFigures.waitFor();
        await product.enter('250', 1);
        await expectAccessible(page, `${layout} ${language} quote`);
        await product.review();
        await expectAccessible(page, `${layout} ${language} confirm`);
        await screenshotTo(page, `smart-confirm-${layout === 'mobile' ? 390 : 1366}-${language}`, {
          fullPage: false,
        });
        await page.keyboard.press('Escape');
        expect(errors).toEqual([]);
        await context.close();
      }
  }, 400_000);

  it('words a plan its market cannot trade: refused with the reason and when the market opens', async () => {
    // The sandbox clock moved on to the next Saturday 10:00 UTC: EURUSD's market is closed until Sunday 22:00.
    const me = customerApi(app.server, buyer, { book: 'live' });
    const now = Date.parse(
      (await me.ok('smartQuote', { productId: trend.id, amount: '250', timeframeDays: 1 })).startTime,
    );
    const saturday = new Date(now);
    saturday.setUTCDate(saturday.getUTCDate() + ((6 - saturday.getUTCDay() + 7) % 7 || 7));
    saturday.setUTCHours(10, 0, 0, 0);
    await advanceClock(app.server, `${Math.ceil((saturday.getTime() - now) / 60_000)}m`);
    for (const [layout, language] of [
      ['desktop', 'en'],
      ['mobile', 'ar'],
    ] as const) {
      const { page, errors, context } = await app.open(layout, { as: buyer, language, quiet: true });
      await live(context);
      const product = new SmartProductPage(page);
      await product.goto(euro.id);
      await product.choose('250', 1);
      await product.refusal.waitFor();
      expect(await product.refusal.getAttribute('data-code')).toBe('10015');
      if (language === 'en')
        expect(await product.refusal.innerText()).toMatch(
          /EURUSD's market is closed for the whole of this plan's time, from .+: it could make no trade\. It opens again at .+10:00 PM UTC\./,
        );
      await expectAccessible(page, `${layout} ${language} market closed`);
      await screenshotTo(page, `smart-market-closed-${layout === 'mobile' ? 390 : 1366}-${language}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
