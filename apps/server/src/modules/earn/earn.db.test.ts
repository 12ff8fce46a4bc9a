import { Code } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FULL_LENGTH,
  openTestDatabase,
  TEST_DB,
  type TestDatabase,
} from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { productBody, testEarn } from '../../test/earn.ts';
import { AuditService } from '../audit/audit.service.ts';
import { EARN, LedgerService } from '../ledger/ledger.service.ts';
import { NoticesService } from '../notices/notices.service.ts';
import { addDays, ppmOf, utcDay } from '../products/figures.ts';
import { dynamicPayment, interestOfDay } from './earn.figures.ts';

/**
 * Earn against the real ledger on an injected clock: 400 days of purchases, daily settlement,
 * (130 in the suite, 400 with `npm run test:long`; purchases stop 100 days before the end),
 * early redemptions and maturities over static and dynamic products, every figure checked to the
 * minor unit; an empty reserve; 50 purchases racing for room for 10.
 */
const DAYS = FULL_LENGTH ? 400 : 130;
const BUYING_DAYS = DAYS - 100;
let t: TestDatabase;
let ledger: LedgerService;
let audit: AuditService;
let notices: NoticesService;
let e: ReturnType<typeof testEarn>;
const clock = { now: Date.parse('2027-01-01T00:05:00Z') };
const DEMO_USDT = 100_000_000_000n;

/** A deterministic basket: between −1 % and +1 % a day, some days exactly 0. */
const basketRate = (_basket: readonly string[], day: string) => {
  const n = [...day].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 100_003, 7);
  return BigInt((n % 2001) - 1000) * 10n;
};

async function users(n: number, prefix: string): Promise<number[]> {
  const rows = await t.db.query<{ id: string }>(
    `INSERT INTO users (user_name, password_hash)
     SELECT $1 || g, '$argon2id$test' FROM generate_series(1, ${n}) g RETURNING id`,
    [prefix],
  );
  const ids = rows.map((r) => Number(r.id));
  for (const id of ids) await ledger.openCustomerBooks(id);
  return ids;
}

/**
 * What 10 commits of one quote, each under its own request id, answer: exactly one commit (its
 * index and result), every other refused 10032 `{reason: 'used'}`.
 */
function oneCommit<R>(results: PromiseSettledResult<R>[]): { index: number; value: R } {
  const index = results.findIndex((r) => r.status === 'fulfilled');
  const won = results[index];
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  if (won?.status !== 'fulfilled') throw new Error('no commit');
  const refusals = results.flatMap((r) =>
    r.status === 'rejected'
      ? [r.reason instanceof ApiError ? { code: r.reason.code, data: r.reason.data } : String(r.reason)]
      : [],
  );
  expect(refusals).toHaveLength(results.length - 1);
  for (const refusal of refusals)
    expect(refusal).toMatchObject({ code: Code.PRICE_CHANGED, data: { reason: 'used' } });
  return { index, value: won.value };
}

const count = async (sql: string, params: unknown[]) =>
  Number((await t.db.query<{ n: string }>(sql, params))[0]?.n);

const available = async (userId: number) =>
  (await ledger.balances('demo', userId)).find((b) => b.asset === 'USDT')?.available ?? 0n;
const units = (text: string) => BigInt(text.replace('.', ''));

beforeAll(async () => {
  t = await openTestDatabase();
  audit = new AuditService(t.db);
  ledger = new LedgerService(t.db, audit);
  notices = new NoticesService(t.db);
  await ledger.ensureSystemAccounts();
  e = testEarn({ db: t.db, ledger, audit, notices }, { now: () => clock.now, basketRate });
}, 120_000);
afterAll(() => t.close());

describe(`earn on ${TEST_DB}`, () => {
  it(`${DAYS} days of static and dynamic investments: every posting exact, reruns change nothing, the owed account always equals the interest still owed`, async () => {
    const { earn, runner } = e;
    clock.now = Date.parse('2027-01-01T00:05:00Z');
    const fixed = (await earn.createProduct('staff:1', productBody({ name: 'Fixed 30' }))).product;
    const flexible = (
      await earn.createProduct(
        'staff:1',
        productBody({ name: 'Flexible', termDays: null, annualRate: '0.08' }),
      )
    ).product;
    const dynamic = (
      await earn.createProduct(
        'staff:1',
        productBody({
          name: 'Basket 45',
          income: 'dynamic',
          annualRate: null,
          termDays: 45,
          basket: ['BTC'],
        }),
      )
    ).product;
    for (const p of [fixed, flexible, dynamic])
      await earn.fundReserve(
        'staff:1',
        { productId: p.id, book: 'demo', amount: '200000', reason: 'test' },
        `fund-all:${p.id}`,
      );
    const customers = await users(12, 'saver');
    const bought: { id: number; userId: number; amount: bigint; productId: number }[] = [];
    const redeemed = new Map<number, bigint>();
    const products = [fixed, flexible, dynamic];
    let seq = 0;
    const start = '2027-01-01';
    for (let d = 0; d < DAYS; d++) {
      const day = addDays(start, d);
      clock.now = Date.parse(`${day}T00:05:00Z`);
      expect(await earn.runDaily(runner)).toEqual([]);
      // Running the day again writes nothing.
      const before = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger_entries');
      await earn.runDaily(runner);
      const after = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger_entries');
      expect(after[0]?.n).toBe(before[0]?.n);
      // Purchases on most days but the last 100, one redemption every fifth day.
      if (d < BUYING_DAYS && d % 3 !== 2) {
        const userId = customers[d % customers.length] as number;
        const product = products[d % products.length] as (typeof products)[number];
        const amount = `${100 + ((d * 37) % 900)}.${String((d * 7919) % 1_000_000).padStart(6, '0')}`;
        const quote = await earn.quote('demo', userId, { productId: product.id, amount });
        const wallet = await available(userId);
        const inv = await earn.apply(
          'demo',
          userId,
          { quoteId: quote.quoteId, requestId: `buy-${seq++}-x` },
          'fund',
        );
        expect(inv.amount).toBe(quote.amount);
        expect(inv.totalInterest).toBe(quote.estimatedProfit);
        expect(await available(userId)).toBe(wallet - units(quote.amount));
        bought.push({ id: inv.id, userId, amount: units(inv.amount), productId: product.id });
      }
      if (d % 5 === 4) {
        const open = (
          await Promise.all(bought.map(async (b) => ({ b, row: await earn.investmentRow(b.id) })))
        ).find(
          ({ row }) => row?.status === 'in_progress' && row.accrualStart !== null && row.accrualStart <= day,
        );
        if (open) {
          const quote = await earn.redeemQuote('demo', open.b.userId, open.b.id);
          const wallet = await available(open.b.userId);
          const done = await earn.redeem('demo', open.b.userId, { quoteId: quote.quoteId }, 'fund');
          expect(done.status).toBe('redeemed');
          expect(done.received).toBe(quote.receive);
          // The dialog's figures are what moved: a fixed term gives principal − penalty − income to
          // date (never below zero); a flexible one gives the principal and keeps its income.
          const kept = units(quote.amount) - units(quote.penalty) - units(quote.incomeToDate);
          expect(units(quote.receive)).toBe(
            open.row?.termDays === null ? units(quote.amount) : kept > 0n ? kept : 0n,
          );
          expect(await available(open.b.userId)).toBe(wallet + units(quote.receive));
          redeemed.set(open.b.id, units(quote.receive));
        }
      }
      // The fixed product's owed account holds exactly the interest still owed to its investors.
      const owed = await ledger.account(await earn.owedAccount('demo', { id: fixed.id, asset: 'USDT' }));
      const rows = await Promise.all(
        bought.filter((b) => b.productId === fixed.id).map((b) => earn.investmentRow(b.id)),
      );
      const stillOwed = rows
        .filter((r) => r?.status === 'in_progress')
        .reduce((s, r) => s + ((r?.totalInterest ?? 0n) - (r?.paid ?? 0n)), 0n);
      expect(owed?.balance ?? 0n).toBe(stillOwed);
    }
    // By the last day every fixed investment has ended; the flexible ones run on.
    const incomes = await t.db.query<{ investment_id: string; day: string; amount_minor: string }>(
      'SELECT investment_id, day::text AS day, amount_minor FROM earn_incomes ORDER BY investment_id, day',
    );
    const byInvestment = new Map<number, { day: string; amount: bigint }[]>();
    for (const r of incomes) {
      const list = byInvestment.get(Number(r.investment_id)) ?? [];
      list.push({ day: r.day, amount: BigInt(r.amount_minor) });
      byInvestment.set(Number(r.investment_id), list);
    }
    const rates = new Map((await earn.price(dynamic.id)).days.map((x) => [x.day, ppmOf(x.rate)] as const));
    const returned = new Map<number, bigint>();
    for (const b of bought) {
      const row = await earn.investmentRow(b.id);
      if (!row || row.accrualStart === null) throw new Error('no investment');
      const paid = byInvestment.get(b.id) ?? [];
      for (const p of paid) {
        const k = Math.round((Date.parse(p.day) - Date.parse(row.accrualStart)) / 86_400_000) + 1;
        if (row.income === 'static')
          expect(p.amount).toBe(interestOfDay(row.amount, row.annualRatePpm ?? 0n, k));
        else expect(p.amount).toBe(dynamicPayment(row.amount, rates.get(p.day) ?? 0n));
      }
      if (row.productId === fixed.id && row.status === 'expired') {
        expect(paid.reduce((s, p) => s + p.amount, 0n)).toBe(row.totalInterest);
        expect(paid.length).toBe(30);
      }
      if (row.productId !== flexible.id) expect(['expired', 'redeemed']).toContain(row.status);
      const income = paid.reduce((s, p) => s + p.amount, 0n);
      const back =
        row.status === 'expired' ? row.amount : row.status === 'redeemed' ? (redeemed.get(b.id) ?? -1n) : 0n;
      returned.set(b.userId, (returned.get(b.userId) ?? 0n) + back + income - row.amount);
    }
    // Each customer's balance is the demo funding, less what they invested, plus what came back and every income.
    for (const userId of customers) {
      expect(await available(userId)).toBe(DEMO_USDT + (returned.get(userId) ?? 0n));
      // What is still invested sits in the customer's earn account.
      const earnAccount = await ledger.account(await ledger.accountId('demo', userId, 'USDT', EARN));
      const open = (await earn.investments('demo', userId, { status: 'in_progress' })).reduce(
        (s, i) => s + units(i.amount),
        0n,
      );
      expect(earnAccount?.balance ?? 0n).toBe(open);
    }
    expect(await ledger.invariants()).toEqual({ unbalanced: [], negativeCustomers: [] });
    expect(utcDay(clock.now)).toBe(addDays(start, DAYS - 1));
  }, 900_000);

  it('an empty reserve: the quote is refused as sold out; a reserve emptied after a quote refuses its commit, no customer money moves, staff are alerted once', async () => {
    const { earn } = e;
    const p = (await earn.createProduct('staff:1', productBody({ name: 'Unfunded' }))).product;
    expect(p.soldOut).toBe('reserve');
    const [userId, other] = await users(2, 'empty');
    await expect(earn.quote('demo', userId as number, { productId: p.id, amount: '500' })).rejects.toSatisfy(
      (e: unknown) =>
        e instanceof ApiError &&
        e.code === Code.SOLD_OUT &&
        (e.data as { reason: string }).reason === 'reserve',
    );
    // Funded for the interest of one 500 (30 days at 12 %: 4.931506): two quotes, the first commit takes it.
    await earn.fundReserve(
      'staff:1',
      { productId: p.id, book: 'demo', amount: '4.931506', reason: 'test' },
      `fund-one:${p.id}`,
    );
    const quote = await earn.quote('demo', userId as number, { productId: p.id, amount: '500' });
    const first = await earn.quote('demo', other as number, { productId: p.id, amount: '500' });
    await earn.apply('demo', other as number, { quoteId: first.quoteId, requestId: 'empty-first' }, 'fund');
    const wallet = await available(userId as number);
    for (const requestId of ['empty-one', 'empty-two'])
      await expect(
        earn.apply('demo', userId as number, { quoteId: quote.quoteId, requestId }, 'fund'),
      ).rejects.toSatisfy(
        (e: unknown) =>
          e instanceof ApiError &&
          e.code === Code.SOLD_OUT &&
          (e.data as { reason: string }).reason === 'reserve',
      );
    expect(await available(userId as number)).toBe(wallet);
    const alerts = await t.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM staff_alerts WHERE kind = 'earn.reserve' AND (data::jsonb)->>'productId' = $1`,
      [String(p.id)],
    );
    expect(alerts[0]?.n).toBe('1');
    expect(await earn.investments('demo', userId as number, {})).toEqual([]);
  });

  it('50 concurrent purchases against a product with room for 10: exactly 10', async () => {
    const { earn } = e;
    const p = (await earn.createProduct('staff:1', productBody({ name: 'Ten seats', capacity: '1000' })))
      .product;
    await earn.fundReserve(
      'staff:1',
      { productId: p.id, book: 'demo', amount: '10000', reason: 'test' },
      `fund-ten:${p.id}`,
    );
    const buyers = await users(50, 'racer');
    const quotes = await Promise.all(
      buyers.map((u) => earn.quote('demo', u, { productId: p.id, amount: '100' })),
    );
    const results = await Promise.allSettled(
      buyers.map((u, i) =>
        earn.apply('demo', u, { quoteId: quotes[i]?.quoteId ?? '', requestId: `race-${u}-x` }, 'fund'),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won.length).toBe(10);
    for (const r of lost)
      expect(r.status === 'rejected' && r.reason instanceof ApiError && r.reason.code).toBe(Code.SOLD_OUT);
    expect((await earn.product('demo', p.id)).invested).toBe('1000.000000');
    // The losers' money never moved.
    const balances = await Promise.all(buyers.map(available));
    expect(balances.filter((b) => b === DEMO_USDT).length).toBe(40);
  }, 120_000);

  /** A product with room and reserve for many purchases, so neither is what stops a second commit. */
  async function roomyProduct(name: string) {
    const { earn } = e;
    const p = (await earn.createProduct('staff:1', productBody({ name, capacity: '1000000' }))).product;
    await earn.fundReserve(
      'staff:1',
      { productId: p.id, book: 'demo', amount: '100000', reason: 'test' },
      `fund-${name}:${p.id}`,
    );
    return p;
  }
  const investmentsOf = (userId: number, productId: number) =>
    count('SELECT count(*)::text AS n FROM earn_investments WHERE user_id = $1 AND product_id = $2', [
      userId,
      productId,
    ]);
  const entriesOf = (productId: number, kind: string) =>
    count(
      `SELECT count(*)::text AS n FROM ledger_entries
       WHERE kind = $1 AND (reference = $2 OR reference LIKE $2 || ':%')`,
      [kind, `earn:${productId}`],
    );

  it('a purchase quote commits once, whatever the request id: 10 at once under 10 ids make one investment', async () => {
    const { earn } = e;
    clock.now = Date.parse('2028-06-01T10:00:00Z');
    const p = await roomyProduct('Quoted once');
    const [userId] = (await users(1, 'quote-once')) as [number];
    // 1,000 USDT a purchase against 100,000: the balance could pay for the quote 100 times over.
    const quote = await earn.quote('demo', userId, { productId: p.id, amount: '1000' });
    const wallet = await available(userId);
    const requestIds = Array.from({ length: 10 }, (_, i) => `quote-once-${i}`);
    const results = await Promise.allSettled(
      requestIds.map((requestId) =>
        earn.apply('demo', userId, { quoteId: quote.quoteId, requestId }, 'fund'),
      ),
    );
    const { index, value: inv } = oneCommit(results);
    expect(inv).toMatchObject({ amount: quote.amount, totalInterest: quote.estimatedProfit });
    expect(await investmentsOf(userId, p.id)).toBe(1);
    expect(await entriesOf(p.id, 'earn_subscribe')).toBe(1);
    expect(await available(userId)).toBe(wallet - units(quote.amount));
    const invested = await ledger.account(await ledger.accountId('demo', userId, 'USDT', EARN));
    expect(invested?.balance).toBe(units(quote.amount));
    // The winning request again answers its investment; a losing one is still refused.
    const again = await earn.apply(
      'demo',
      userId,
      { quoteId: quote.quoteId, requestId: requestIds[index] as string },
      'fund',
    );
    expect(again.id).toBe(inv.id);
    const loser = requestIds[(index + 1) % requestIds.length] as string;
    await expect(
      earn.apply('demo', userId, { quoteId: quote.quoteId, requestId: loser }, 'fund'),
    ).rejects.toMatchObject({ code: Code.PRICE_CHANGED, data: { reason: 'used' } });
    expect(await investmentsOf(userId, p.id)).toBe(1);
    expect(await available(userId)).toBe(wallet - units(quote.amount));
  }, 60_000);

  it('a purchase quote sent 10 times at once under one request id: one investment, all 10 answer it', async () => {
    const { earn } = e;
    clock.now = Date.parse('2028-06-01T11:00:00Z');
    const p = await roomyProduct('Retried');
    const [userId] = (await users(1, 'quote-retry')) as [number];
    const quote = await earn.quote('demo', userId, { productId: p.id, amount: '1000' });
    const wallet = await available(userId);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        earn.apply('demo', userId, { quoteId: quote.quoteId, requestId: 'quote-retry-1' }, 'fund'),
      ),
    );
    expect(results.map((r) => (r.status === 'fulfilled' ? 'fulfilled' : String(r.reason)))).toEqual(
      Array(10).fill('fulfilled'),
    );
    const ids = new Set(results.map((r) => (r.status === 'fulfilled' ? r.value.id : null)));
    expect(ids.size).toBe(1);
    expect(await investmentsOf(userId, p.id)).toBe(1);
    expect(await entriesOf(p.id, 'earn_subscribe')).toBe(1);
    expect(await available(userId)).toBe(wallet - units(quote.amount));
  }, 60_000);

  it('a redemption quote commits once: 10 at once make one redemption, all answering the redeemed investment', async () => {
    const { earn } = e;
    clock.now = Date.parse('2028-06-01T12:00:00Z');
    const p = await roomyProduct('Redeemed once');
    const [userId] = (await users(1, 'redeem-once')) as [number];
    const bought = await earn.apply(
      'demo',
      userId,
      {
        quoteId: (await earn.quote('demo', userId, { productId: p.id, amount: '1000' })).quoteId,
        requestId: 'redeem-once-buy',
      },
      'fund',
    );
    const quote = await earn.redeemQuote('demo', userId, bought.id);
    const wallet = await available(userId);
    // A redemption names no request id (one redemption per investment): every commit is the same request.
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => earn.redeem('demo', userId, { quoteId: quote.quoteId }, 'fund')),
    );
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.id : String(r.reason)))).toEqual(
      Array(10).fill(bought.id),
    );
    for (const r of results) if (r.status === 'fulfilled') expect(r.value.status).toBe('redeemed');
    expect(await entriesOf(p.id, 'earn_redeem')).toBe(1);
    expect(await available(userId)).toBe(wallet + units(quote.receive));
    // Again later: the same investment, nothing more moved.
    expect((await earn.redeem('demo', userId, { quoteId: quote.quoteId }, 'fund')).id).toBe(bought.id);
    expect(await entriesOf(p.id, 'earn_redeem')).toBe(1);
    expect(await available(userId)).toBe(wallet + units(quote.receive));
  }, 60_000);
});
