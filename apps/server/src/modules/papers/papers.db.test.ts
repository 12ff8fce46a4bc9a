import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Asset, formatMinor, parseMinor } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { createTestContext, deposit, openPosition, type TestContext } from '../../test/context.ts';
import { productBody, testEarn } from '../../test/earn.ts';
import { loanProductBody, testLoans } from '../../test/loans.ts';
import { scriptedSource, smartProductBody, testSmart } from '../../test/smart.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { LedgerFacts } from '../ledger/ledger.facts.ts';
import { SwapService } from '../swap/swap.service.ts';
import { heldWords, productHoldings } from './papers.holdings.ts';
import { parseFeed } from './papers.ics.testing.ts';
import { productObligations } from './papers.module.ts';
import { actualTexts, pdfText } from './papers.pdf.testing.ts';
import { PapersService } from './papers.service.ts';
import { TEXT } from './papers.texts.ts';

/**
 * Papers on the real products: a customer's March 2027 with a deposit, a position opened and
 * closed, a swap, earn income, a loan and two trading plans, each made through its own service on
 * one clock. The statement's every line and total is checked against the ledger's postings, read
 * independently (the posting lines of `entriesOf`); its PDF read back in Arabic and Japanese; the
 * calendar parsed as a calendar client would; another customer's figures and a revoked link give
 * nothing.
 */

let t: TestDatabase;
let ctx: TestContext;
let papers: PapersService;
const clock = { now: Date.parse('2027-02-20T10:00:00Z') };
const now = () => clock.now;
const at = (iso: string) => {
  clock.now = Date.parse(iso);
};
let userId: number;
let otherId: number;
/** The products, kept to read what each says of the customer's holdings. */
let products: {
  trading: Awaited<ReturnType<typeof testSmart>>['trading'];
  smart: Awaited<ReturnType<typeof testSmart>>['smart'];
  earn: ReturnType<typeof testEarn>['earn'];
  loans: Awaited<ReturnType<typeof testLoans>>['loans'];
};
/** Positions opened on March 20 (left open) and March 25 (closed on April 2). */
const held = { open: 0, closedInApril: 0 };
const usdt = (units: number) => BigInt(units) * 1_000_000n;

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db, { now });
  // BTC held at 100,000 (the simulator's spread) so the trade's stops and the swap are at a known price.
  const parts = await testSmart(ctx, { now, source: scriptedSource('BTCUSDT', () => () => 100_000) });
  const { earn, runner: earnRunner } = testEarn(ctx, { now });
  const l = await testLoans(ctx);
  const swap = new SwapService({ db: t.db, ledger: ctx.ledger, market: parts.market, audit: ctx.audit, now });
  papers = new PapersService({
    db: t.db,
    ledger: ctx.ledger,
    facts: new LedgerFacts(t.db),
    customers: new CustomerDirectory(t.db),
    obligations: productObligations({ loans: l.loans, earn, smart: parts.smart }),
    holdings: productHoldings({
      positions: parts.trading,
      earn,
      loans: l.loans,
      smart: parts.smart,
      ledger: ctx.ledger,
    }),
    now,
  });
  products = { trading: parts.trading, smart: parts.smart, earn, loans: l.loans };

  // February: the customer arrives with 60,000 USDT; staff set up the products.
  const customer = await ctx.customer({ name: 'papers-ada', live: usdt(60_000) });
  userId = customer.id;
  otherId = (await ctx.customer({ name: 'papers-bob', live: usdt(1_000) })).id;
  await l.verify(userId);
  const finance = await ctx.staffMember('finance');
  const loanProduct = (await l.loans.createProduct(`staff:${finance.id}`, loanProductBody())).product;
  await l.loans.fundPool(
    `staff:${finance.id}`,
    { asset: 'USDT', amount: '100000', reason: 'pool' },
    'papers-pool',
  );
  const fixed = (await earn.createProduct('staff:1', productBody({ name: 'Fixed 30' }))).product;
  const flexible = (
    await earn.createProduct('staff:1', productBody({ name: 'Flexible', termDays: null, annualRate: '0.08' }))
  ).product;
  for (const p of [fixed, flexible])
    await earn.fundReserve(
      'staff:1',
      { productId: p.id, book: 'live', amount: '10000', reason: 'test' },
      `papers-r${p.id}`,
    );
  const plan = await parts.smart.createProduct('staff:1', smartProductBody({ name: 'BTC trend' }));

  // March.
  at('2027-03-02T09:00:00Z');
  await deposit(ctx.ledger, userId, usdt(5_000), { key: 'papers-march-deposit' });
  at('2027-03-03T10:00:00Z');
  const btc = parts.market.instrument('BTCUSDT');
  const position = await openPosition(
    parts.trading,
    customer,
    {
      marketId: btc?.id ?? 0,
      direction: 'long',
      lots: '0.10',
      leverage: 2,
      stopLoss: '90000.00',
      takeProfit: '120000.00',
      autoCloseAfter: null,
    },
    { book: 'live' },
  );
  at('2027-03-03T11:00:00Z');
  await parts.trading.close(userId, 'live', position.id);
  at('2027-03-04T10:00:00Z');
  const sq = await swap.quote('live', userId, { from: 'USDT', to: 'BTC', amount: '1000' });
  await swap.commit('live', userId, { quoteId: sq.quoteId, requestId: 'papers-swap' });
  at('2027-03-05T10:00:00Z');
  for (const [p, amount] of [
    [flexible, '2000'],
    [fixed, '1000'],
  ] as const) {
    const q = await earn.quote('live', userId, { productId: p.id, amount });
    await earn.apply('live', userId, { quoteId: q.quoteId, requestId: `papers-earn-${p.id}` }, 'fund');
  }
  // The demo book: practice money in the same fixed product (its maturity is in the calendar, labelled).
  await earn.fundReserve(
    'staff:1',
    { productId: fixed.id, book: 'demo', amount: '10000', reason: 'test' },
    'papers-r-demo',
  );
  const dq = await earn.quote('demo', userId, { productId: fixed.id, amount: '500' });
  await earn.apply('demo', userId, { quoteId: dq.quoteId, requestId: 'papers-earn-demo' }, 'fund');
  for (const day of ['06', '07', '08', '09']) {
    at(`2027-03-${day}T00:05:00Z`);
    await earn.runDaily(earnRunner);
  }
  at('2027-03-09T10:00:00Z');
  const lq = await l.loans.quote('live', userId, { productId: loanProduct.id, amount: '1000', termDays: 30 });
  const loan = await l.loans.apply('live', userId, {
    quoteId: lq.quoteId,
    requestId: 'papers-loan',
    signature: await l.signature(userId),
    acceptAgreement: true,
  });
  await l.applications.claim({ staffId: finance.id }, loan.id);
  await l.applications.approve({ staffId: finance.id }, loan.id);
  // The loan's daily booking: what is owed goes to the customer's loan account (not their balance).
  await l.loans.bookReceivables();
  at('2027-03-10T10:00:00Z');
  for (const [days, requestId] of [
    [30, 'papers-plan-long'],
    [1, 'papers-plan-stopped'],
  ] as const) {
    const q = await parts.smart.quote('live', userId, {
      productId: plan.id,
      amount: '1000',
      timeframeDays: days,
    });
    await parts.smart.buy('live', userId, 'en', { quoteId: q.quoteId, requestId });
  }
  at('2027-03-10T12:00:00Z');
  const stopped = (await parts.smart.list('live', userId, 'in_progress')).find((p) => p.timeframeDays === 1);
  if (stopped) await parts.smart.stop('live', userId, stopped.id);
  // Two positions opened later in March, both open at the month's end (one is closed in April).
  for (const [day, direction, lots, stopLoss, takeProfit] of [
    ['20', 'long', '0.10', '90000.00', '120000.00'],
    ['25', 'short', '0.05', '110000.00', '80000.00'],
  ] as const) {
    at(`2027-03-${day}T10:00:00Z`);
    const p = await openPosition(
      parts.trading,
      customer,
      { marketId: btc?.id ?? 0, direction, lots, leverage: 2, stopLoss, takeProfit, autoCloseAfter: null },
      { book: 'live' },
    );
    if (direction === 'long') held.open = p.id;
    else held.closedInApril = p.id;
  }
  at('2027-03-26T08:00:00Z');
}, 300_000);
afterAll(() => t.close());
afterEach(() => expectLedgerSound(ctx));

/** The ledger's own account of one asset, from its posting lines: opening, each entry's net, closing. */
async function ledgerFigures(asset: Asset, from: string) {
  // Every entry that touched the customer's accounts in the asset is a line; what it changed of the
  // balance is its postings to the wallet and the accounts holding their money (as `balances` counts).
  const all = await ctx.ledger.entriesOf('live', userId, { asset, limit: 10_000 });
  const counted = (l: (typeof all)[number]) => ['wallet', 'margin', 'earn', 'smart'].includes(l.accountKind);
  const before = all.filter((l) => l.createdAt < from && counted(l));
  const byEntry = new Map<number, bigint>();
  for (const l of all.filter((x) => x.createdAt >= from))
    byEntry.set(l.entryId, (byEntry.get(l.entryId) ?? 0n) + (counted(l) ? l.amount : 0n));
  const balance = (await ctx.ledger.balances('live', userId)).find((b) => b.asset === asset)?.balance ?? 0n;
  return {
    opening: before.reduce((s, l) => s + l.amount, 0n),
    entries: [...byEntry].sort(([a], [b]) => a - b),
    closing: balance,
  };
}

describe(`papers on ${TEST_DB}`, () => {
  it('a month of every product: each statement line and total equals the ledger’s postings', async () => {
    const s = await papers.statement(
      'live',
      userId,
      { asset: 'USDT', from: '2027-03-01', to: '2027-03-31' },
      'en',
    );
    const ledger = await ledgerFigures('USDT', '2027-03-01T00:00:00.000Z');
    expect(s.opening).toBe(usdt(60_000));
    expect(s.opening).toBe(ledger.opening);
    expect(s.lines.map((l) => [l.entryId, l.amount])).toEqual(ledger.entries);
    expect(s.closing).toBe(ledger.closing);
    expect(s.opening + s.credits - s.debits).toBe(s.closing);
    // Every product of the month is on the statement, in the customer's words.
    const kinds = new Set(s.lines.map((l) => l.kind));
    for (const kind of [
      'deposit',
      'trade_margin',
      'trade_pnl',
      'swap',
      'earn_subscribe',
      'earn_payout',
      'loan',
      'smart_subscribe',
      'smart_end',
    ])
      expect(kinds, kind).toContain(kind);
    expect(s.lines.find((l) => l.kind === 'deposit')?.text).toBe('Deposit');
    // A move between the customer's own accounts is said, with its amount and both accounts.
    expect(s.lines.filter((l) => l.kind === 'earn_subscribe').map((l) => [l.amount, l.text])).toEqual([
      [0n, 'Earn investment · 2000.000000 USDT: Wallet → Earn investments'],
      [0n, 'Earn investment · 1000.000000 USDT: Wallet → Earn investments'],
    ]);
    expect(s.lines.find((l) => l.kind === 'loan')).toMatchObject({
      amount: usdt(1_000),
      text: 'Loan paid out',
    });
    // Running balances: each is the one before plus the line.
    let running = s.opening;
    for (const line of s.lines) {
      running += line.amount;
      expect(line.balance).toBe(running);
    }
    // Fees: what the platform's fee accounts were credited in USDT by this customer's entries.
    const events = await ctx.ledger.eventsOf('live', userId, {
      asset: 'USDT',
      from: '2027-03-01T00:00:00.000Z',
      limit: 500,
    });
    const fees = events
      .flatMap((e) => e.postings)
      .filter((p) => p.account === 'fees' && !p.own && p.asset === 'USDT')
      .reduce((sum, p) => sum + p.amount, 0n);
    expect(fees).toBeGreaterThan(0n);
    expect(s.fees).toBe(fees);
    // At month's end, by account: the wallet, the loan owed, earn and the running plan.
    const held = Object.fromEntries(s.holdings.map((h) => [h.kind, h.amount]));
    expect(held.earn).toBeGreaterThanOrEqual(usdt(3_000));
    expect(held.smart).toBeGreaterThan(0n);
    // The loan owed is stated beside the balance, never added to it.
    expect(held.loan).toBe(usdt(1_000));
    expect(s.holdings.map((h) => h.kind).at(-1)).toBe('loan');
    const counted = s.holdings.filter((h) => h.kind !== 'loan');
    expect(counted.reduce((sum, h) => sum + h.amount, 0n)).toBe(s.closing);
  });

  it('the BTC statement of the same month holds the swap’s receipt; the CSV states the ledger’s figures', async () => {
    const s = await papers.statement(
      'live',
      userId,
      { asset: 'BTC', from: '2027-03-01', to: '2027-03-31' },
      'en',
    );
    const ledger = await ledgerFigures('BTC', '2027-03-01T00:00:00.000Z');
    expect(s.opening).toBe(0n);
    expect(s.lines.map((l) => [l.entryId, l.amount])).toEqual(ledger.entries);
    expect(s.closing).toBe(ledger.closing);
    expect(s.closing).toBeGreaterThan(0n);
    const file = await papers.statementFile(
      'live',
      userId,
      { asset: 'USDT', from: '2027-03-01', to: '2027-03-31', format: 'csv' },
      'en',
    );
    const rows = Buffer.from(file.bytes)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe('date,entry,kind,description,amount,fee,balance');
    expect(rows[1]).toBe('2027-03-01,,opening,Opening balance,,,60000.000000');
    expect(rows.find((r) => r.includes(',closing,'))).toMatch(
      /^2027-03-31,,closing,Closing balance,,\d+\.\d{6},\d+\.\d{6}$/,
    );
    const usdtStatement = await papers.statement(
      'live',
      userId,
      { asset: 'USDT', from: '2027-03-01', to: '2027-03-31' },
      'en',
    );
    expect(rows.length).toBe(usdtStatement.lines.length + 3 + usdtStatement.products.length);
    // After the closing balance: what was open at the end, one row per position and product.
    expect(rows.slice(usdtStatement.lines.length + 3).map((r) => r.split(',')[2])).toEqual(
      usdtStatement.products.map((h) => `held_${h.kind}`),
    );
    // The figures are recorded, for the list.
    const [recorded] = await papers.statements('live', userId);
    expect(recorded).toMatchObject({
      asset: 'USDT',
      from: '2027-03-01',
      to: '2027-03-31',
      opening: '60000.000000',
    });
  });

  it('the PDF reads back in Arabic and in Japanese, its figures the ledger’s', async () => {
    const q = { asset: 'USDT', from: '2027-03-01', to: '2027-03-31', format: 'pdf' } as const;
    const s = await papers.statement('live', userId, q, 'en');
    const closing = formatMinor(s.closing, 6);
    // The isolates that keep figures left to right in Arabic are invisible: a reader ignores them.
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    const squeeze = (text: string) => plain(text).replace(/\s+/g, '');
    const cases = [
      {
        language: 'ar',
        lines: [
          'كشف حساب USDT، دفتر الحقيقي',
          'الرصيد الافتتاحي في 2027-03-01: 60000.000000 USDT',
          `الرصيد الختامي في 2027-03-31: ${closing} USDT`,
          'المراكز والمنتجات في نهاية الفترة',
        ],
        // PDF.js gives a line's runs from left to right, each in reading order: whole words and figures.
        runs: [
          'كشف حساب',
          'الرصيد الافتتاحي في',
          'الرصيد الختامي في',
          'إيداع',
          'صرف القرض',
          'مبادلة',
          'عائد الادخار',
          // Dates and signed figures read left to right inside the Arabic (isolated).
          '2027-03-01',
          '2027-03-04 10:00',
          '-1000.000000',
          '60000.000000',
          closing,
        ],
      },
      {
        language: 'ja',
        lines: [
          'USDT の取引明細書（本番口座）',
          '2027-03-01 の期首残高：60000.000000 USDT',
          `2027-03-31 の期末残高：${closing} USDT`,
          '期末のポジションと商品',
        ],
        runs: [
          'USDT の取引明細書（本番口座）',
          '2027-03-01 の期首残高：60000.000000 USDT',
          '入金',
          'ローンの実行',
          'スワップ',
          '運用収益',
          closing,
        ],
      },
    ] as const;
    for (const c of cases) {
      const file = await papers.statementFile('live', userId, q, c.language);
      expect(file.contentType).toBe('application/pdf');
      // PAPERS_PDF_DIR=<folder>: the PDFs are kept there, to be looked at.
      const keep = process.env.PAPERS_PDF_DIR;
      if (keep) {
        mkdirSync(keep, { recursive: true });
        writeFileSync(join(keep, `statement-${c.language}.pdf`), file.bytes);
      }
      // Each line's text, in logical order, as a reader honouring ActualText copies it.
      const lines = (await actualTexts(file.bytes)).map(plain);
      for (const line of c.lines) expect(lines, `${c.language}: ${line}`).toContain(line);
      // Every event is there with its amount and running balance (a long one wraps onto two lines).
      const all = lines.join(' ');
      for (const l of s.lines) {
        expect(all).toContain(`${formatMinor(l.amount, 6)} USDT`);
        expect(all).toContain(formatMinor(l.balance, 6));
      }
      const text = squeeze((await pdfText(file.bytes)).join(''));
      for (const run of c.runs) expect(text, `${c.language}: ${run}`).toContain(squeeze(run));
    }
  });

  it('the tax export states its method and sums the year per asset', async () => {
    const file = await papers.taxExport('live', userId, 2027, 'en');
    const rows = Buffer.from(file.bytes)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toMatch(/^# Method: UTC calendar year 2027; .*average cost per asset/);
    expect(rows[1]).toBe('asset,category,amount,entries');
    expect(rows).toContain(
      'BTC,Swaps: received,' +
        formatMinor(BigInt((await ledgerFigures('BTC', '2027-01-01')).closing), 8) +
        ',1',
    );
    expect(rows).toContain('USDT,Swaps: given,1000.000000,1');
    expect(rows.some((r) => r.startsWith('USDT,Earn income,'))).toBe(true);
    expect(rows.some((r) => r.startsWith('USDT,Closed positions: realised result,'))).toBe(true);
  });

  it('the calendar feed: a private link, parsed independently, in the customer’s language; rotated and revoked links give nothing', async () => {
    expect(await papers.calendarLink(userId)).toEqual({ active: false, createdAt: null });
    const first = await papers.rotateCalendarLink(userId, 'ja');
    const token = (path: string | undefined) =>
      (path ?? '')
        .split('/')
        .at(-1)
        ?.replace(/\.ics$/, '') ?? '';
    const feed = await papers.calendarFeed(token(first.path));
    if (feed === null) throw new Error('no feed');
    const calendar = parseFeed(feed);
    const summaries = calendar.events.map((e) => e.SUMMARY);
    expect(summaries.some((s) => s?.startsWith('ローン返済期日：Test loan'))).toBe(true);
    expect(summaries.some((s) => s?.startsWith('資産運用の満期：Fixed 30'))).toBe(true);
    expect(summaries.some((s) => s?.startsWith('取引プランの終了：BTC trend'))).toBe(true);
    // The demo book's maturity, labelled by its book, with a UID of its own; the live book's not.
    const maturities = calendar.events.filter((e) => e.SUMMARY?.startsWith('資産運用の満期：Fixed 30'));
    expect(maturities.map((e) => e.SUMMARY).sort()).toEqual([
      '資産運用の満期：Fixed 30、1000.000000 USDT',
      '資産運用の満期：Fixed 30、500.000000 USDT（デモ口座）',
    ]);
    expect(maturities.filter((e) => e.UID?.startsWith('earnMaturity-demo-'))).toHaveLength(1);
    const due = calendar.events.find((e) => e.SUMMARY?.startsWith('ローン'));
    expect(due?.DTSTART).toBe('20270408T000000Z');
    for (const e of calendar.events) expect(e.DTSTART).toMatch(/^\d{8}T\d{6}Z$/);
    // UIDs are stable: the same obligations have the same UIDs when fetched again.
    const again = parseFeed((await papers.calendarFeed(token(first.path))) ?? '');
    expect(again.events.map((e) => e.UID)).toEqual(calendar.events.map((e) => e.UID));
    // Rotating: the old link answers nothing, the new one the feed.
    const second = await papers.rotateCalendarLink(userId, 'en');
    expect(await papers.calendarFeed(token(first.path))).toBeNull();
    expect(await papers.calendarFeed(token(second.path))).toContain('BEGIN:VCALENDAR');
    // Revoking: nothing.
    await papers.revokeCalendarLink(userId);
    expect(await papers.calendarFeed(token(second.path))).toBeNull();
    expect(await papers.calendarLink(userId)).toEqual({ active: false, createdAt: null });
  });

  it('another customer’s statement has none of this customer’s figures', async () => {
    const s = await papers.statement(
      'live',
      otherId,
      { asset: 'USDT', from: '2027-03-01', to: '2027-03-31' },
      'en',
    );
    expect(s.lines).toEqual([]);
    expect(s.opening).toBe(usdt(1_000));
    expect(s.closing).toBe(usdt(1_000));
    expect(await papers.statements('live', otherId)).toEqual([]);
  });

  it('on the 1st, the monthly run records the month before for each customer and asset active in it, in their language', async () => {
    at('2027-04-01T00:01:00Z');
    const made = await papers.monthly(new Date(now()));
    expect(made).toBeGreaterThanOrEqual(2);
    const recorded = (await papers.statements('live', userId)).filter((r) => r.from === '2027-03-01');
    expect(recorded.map((r) => r.asset).sort()).toEqual(['BTC', 'USDT']);
    const usdtMarch = await papers.statement(
      'live',
      userId,
      { asset: 'USDT', from: '2027-03-01', to: '2027-03-31' },
      'en',
    );
    expect(recorded.find((r) => r.asset === 'USDT')).toMatchObject({
      to: '2027-03-31',
      closing: formatMinor(usdtMarch.closing, 6),
      events: usdtMarch.lines.length,
      generatedAt: '2027-04-01T00:01:00.000Z',
    });
    // The other customer did nothing in March: no statement.
    expect(await papers.statements('live', otherId)).toEqual([]);
  });
  it('positions and products at month end, as each product states them; what closed in April is still listed for March', async () => {
    // April 2: the short position is closed and the flexible investment redeemed, after March ended.
    at('2027-04-02T10:00:00Z');
    await products.trading.close(userId, 'live', held.closedInApril);
    const investments = await products.earn.investments('live', userId, {});
    const flexible = investments.find((i) => i.termDays === null);
    if (!flexible) throw new Error('no flexible investment');
    const rq = await products.earn.redeemQuote('live', userId, flexible.id);
    await products.earn.redeem('live', userId, { quoteId: rq.quoteId }, 'fund');
    const march = { asset: 'USDT', from: '2027-03-01', to: '2027-03-31' } as const;
    const s = await papers.statement('live', userId, march, 'en');
    // The positions: the two opened after the 12th (the first, closed on the 3rd, is not).
    const positions = await Promise.all(
      [held.open, held.closedInApril].map((id) => products.trading.get(userId, 'live', id)),
    );
    expect(positions.map((p) => p.status)).toEqual(['open', 'closed']);
    expect(s.products.filter((h) => h.kind === 'position')).toEqual(
      positions.map((p) => ({
        kind: 'position',
        id: p.id,
        asset: 'USDT',
        orderNo: p.orderNo,
        instrument: p.code,
        side: p.direction,
        lots: p.lots,
        openPrice: p.openPrice,
        amount: p.margin,
      })),
    );
    // Earn: both investments (the flexible one redeemed only in April), as earn states them.
    const earnNow = await products.earn.investments('live', userId, {});
    expect(earnNow.find((i) => i.id === flexible.id)?.status).toBe('redeemed');
    expect(s.products.filter((h) => h.kind === 'earn')).toEqual(
      earnNow
        .toSorted((a, b) => a.id - b.id)
        .map((i) => ({
          kind: 'earn',
          id: i.id,
          asset: 'USDT',
          product: i.productName,
          amount: i.amount,
          until: i.expiryTime,
        })),
    );
    // Plans: the running one; the one stopped on the 10th is not.
    const plans = await products.smart.list('live', userId, undefined);
    const running = plans.filter((p) => p.state === 'in_progress');
    expect(running).toHaveLength(1);
    expect(s.products.filter((h) => h.kind === 'plan')).toEqual(
      running.map((p) => ({
        kind: 'plan',
        id: p.id,
        asset: 'USDT',
        product: p.productName,
        amount: p.amount,
        until: p.endTime,
      })),
    );
    // The loan: its principal and due day as loans states them; owed, what the ledger's loan account held.
    const [loan] = await products.loans.loans('live', userId, undefined);
    const loanHeld = s.holdings.find((h) => h.kind === 'loan')?.amount ?? 0n;
    expect(s.products.filter((h) => h.kind === 'loan')).toEqual([
      {
        kind: 'loan',
        id: loan?.id,
        asset: 'USDT',
        product: loan?.productName,
        principal: loan?.amount,
        amount: formatMinor(loanHeld, 6),
        until: loan?.dueDate,
      },
    ]);
    expect(loanHeld).toBe(usdt(1_000));
    // The margin of the listed positions is what the ledger's margin account held at the end.
    const margin = s.holdings.find((h) => h.kind === 'margin')?.amount ?? 0n;
    const listed = s.products.filter((h) => h.kind === 'position');
    expect(listed.reduce((sum, h) => sum + parseMinor(h.amount, 6), 0n)).toBe(margin);
    // In the CSV and the PDF, in the customer's words.
    const csv = Buffer.from(
      (await papers.statementFile('live', userId, { ...march, format: 'csv' }, 'en')).bytes,
    )
      .toString('utf8')
      .split('\r\n');
    const p0 = positions[0];
    const words = `Position ${p0?.orderNo}: BTCUSDT, long (buy), 0.10 lots at ${p0?.openPrice}, margin ${p0?.margin} USDT`;
    expect(csv).toContain(`2027-03-31,,held_position,"${words}",${p0?.margin},,`);
    const firstHeld = s.products[0];
    if (!firstHeld) throw new Error('nothing held');
    expect(heldWords(firstHeld, TEXT.en, 'en')).toBe(words);
    const pdf = await papers.statementFile('live', userId, { ...march, format: 'pdf' }, 'de');
    const lines = await actualTexts(pdf.bytes);
    expect(lines).toContain('Positionen und Produkte am Ende des Zeitraums');
    expect(lines.join(' ')).toContain(`Kredit ${loan?.id}: Test loan, Kreditbetrag 1000.000000 USDT`);
    // At the 15th's end: no position yet (both opened later), both investments, the running plan
    // (the other was stopped on the 10th) and the loan. At the 2nd's end: nothing yet.
    const mid = await papers.statement('live', userId, { ...march, to: '2027-03-15' }, 'en');
    expect(mid.products.map((h) => h.kind)).toEqual(['earn', 'earn', 'plan', 'loan']);
    const early = await papers.statement('live', userId, { ...march, to: '2027-03-02' }, 'en');
    expect(early.products).toEqual([]);
    expect(await papers.statement('live', otherId, march, 'en')).toMatchObject({ products: [] });
  });
});
