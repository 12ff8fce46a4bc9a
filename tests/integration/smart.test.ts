import type { SmartProductBody } from '@swx/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { pngImage } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { uploadedId } from '../support/uploads.ts';

const product = (overrides: Partial<SmartProductBody> = {}): SmartProductBody => ({
  name: 'BTC trend',
  strategy: 'ma_trend',
  instruments: ['BTCUSDT'],
  timeframes: [7, 30],
  minAmount: '1000',
  maxAmount: '20000',
  capacity: '100000',
  feeShare: '0.2',
  enabled: true,
  ...overrides,
});

describe('smart plans over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let anonymous: CustomerApi;
  let alice: Session;
  let bob: Session;
  let admin: StaffApi;
  let finance: StaffApi;
  let support: StaffApi;
  let financeToken: string;
  const as = (session: Session, book: 'demo' | 'live' = 'live') =>
    customerApi(server, session, { language: 'en', book });

  useServer(
    {
      staff: [
        { email: 'admin@swx.test', role: 'admin' },
        { email: 'finance@swx.test', role: 'finance' },
        { email: 'support@swx.test', role: 'support' },
      ],
    },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    anonymous = customerApi(server, null, { language: 'en' });
    alice = await registerByApi(server, inbox, 'alice.smart@example.com');
    bob = await registerByApi(server, inbox, 'bob.smart@example.com');
    const enrol = async (email: string) =>
      enrolStaffByApi(server.baseUrl, email, oneTimePasswords[email] ?? '');
    admin = staffApi(server, await enrol('admin@swx.test'));
    const financeSession = await enrol('finance@swx.test');
    financeToken = financeSession.token;
    finance = staffApi(server, financeSession);
    support = staffApi(server, await enrol('support@swx.test'));
  });
  afterEach(() => expectLedgerSound(server), 60_000);

  /** Live USDT for a customer, as the product books it: a deposit declared with a proof, approved by finance. */
  async function fundLive(session: Session, amount: string, hashByte: string) {
    const me = as(session);
    const { address } = await me.ok('getDepositAddress', { network: 'USDT-EVM' });
    const proof = await uploadedId(server.baseUrl, session.token, 'deposit_proof', await pngImage());
    const declared = await me.ok('recharge', {
      network: 'USDT-EVM',
      amount,
      txHash: hashByte.repeat(32),
      lastSix: '123456',
      proof,
      address,
    });
    await finance.ok('claimDeposit', { id: declared.id });
    await finance.ok('approveDeposit', { id: declared.id });
  }

  it('staff manage products by role: admin creates and changes, finance reads, support is refused; none are seeded', async () => {
    expect(await anonymous.ok('smartProducts')).toEqual([]);
    expect((await support.call('listSmartProducts')).code).toBe(10029);
    expect((await finance.call('createSmartProduct', product())).code).toBe(10029);
    expect((await admin.call('createSmartProduct', product({ instruments: ['EURUSD'] }))).code).toBe(10026);
    const created = await admin.ok('createSmartProduct', product());
    expect(created).toMatchObject({
      name: 'BTC trend',
      feeShare: '0.2',
      timeframes: [7, 30],
      enabled: true,
      tradingFeeRate: '0.001',
    });
    expect(created.strategy).toMatchObject({
      key: 'ma_trend',
      barMinutes: 15,
      risk: { leverage: 2, stopLoss: '0.02' },
    });
    const changed = await admin.ok('updateSmartProduct', {
      ...product({ name: 'BTC trend 2' }),
      id: created.id,
    });
    expect(changed.name).toBe('BTC trend 2');
    expect((await finance.ok('listSmartProducts')).map((p) => p.id)).toContain(created.id);
    expect((await support.call('smartPlanMonitor', {})).code).toBe(10029);
    expect(await finance.ok('smartPlanMonitor', {})).toEqual([]);
    expect(financeToken).not.toBe('');
  });

  it('a product page shows the past year’s backtest beside the live record', async () => {
    const [p] = await anonymous.ok('smartProducts');
    if (!p) throw new Error('no product');
    const detail = await anonymous.ok('smartProduct', { id: p.id });
    expect(detail.backtest).not.toBeNull();
    expect(detail.backtest?.bars).toBeGreaterThan(500_000);
    expect(detail.backtest?.equity.length).toBeGreaterThanOrEqual(364);
    expect(detail.live).toMatchObject({ plans: 0, running: 0, realised: null, items: [] });
    expect((await anonymous.call('smartProduct', { id: 999_999 })).code).toBe(10010);
  }, 120_000);

  it('joins with quote then buySmart (20004), lists it, hides it from others (10028) and stops it (20005) with principal back', async () => {
    expect(
      (await anonymous.call('smartQuote', { productId: 1, amount: '1000', timeframeDays: 7 })).status,
    ).toBe(401);
    expect((await anonymous.call('listSmartOrder', {})).code).toBe(401);
    const [p] = await anonymous.ok('smartProducts');
    if (!p) throw new Error('no product');
    const body = { productId: p.id, amount: '1500', timeframeDays: 7 };
    expect((await as(alice, 'demo').call('smartQuote', body)).code).toBe(10043);
    expect((await as(alice).call('smartQuote', body)).code).toBe(10011);
    expect((await as(alice).call('smartQuote', { ...body, productId: 999_999 })).code).toBe(10010);
    expect((await as(alice).call('smartQuote', { ...body, timeframeDays: 8 })).code).toBe(10012);
    expect((await as(alice).call('smartQuote', { ...body, amount: '999' })).code).toBe(10016);
    await fundLive(alice, '2000', 'a1');
    const me = as(alice);
    const quote = await me.ok('smartQuote', body);
    expect(quote).toMatchObject({
      amount: '1500.000000',
      timeframeDays: 7,
      feeShare: '0.2',
      strategy: 'ma_trend',
    });
    expect(quote.backtestMaxDrawdown).not.toBeNull();
    const bought = await me.call('buySmart', { quoteId: quote.quoteId, requestId: 'smart-alice-1' });
    expect(bought.code).toBe(20004);
    expect(bought.data).toMatchObject({
      state: 'in_progress',
      amount: '1500.000000',
      incomeToDate: '0.000000',
    });
    const again = await me.call('buySmart', { quoteId: quote.quoteId, requestId: 'smart-alice-1' });
    expect(again.data.id).toBe(bought.data.id);
    expect((await me.ok('listSmartOrder', {})).map((x) => x.id)).toEqual([bought.data.id]);
    expect((await as(bob).call('smartPlan', { id: bought.data.id })).code).toBe(10028);
    expect((await as(bob).call('stopSmart', { planId: bought.data.id })).code).toBe(10028);
    expect((await as(alice, 'demo').call('smartPlan', { id: bought.data.id })).code).toBe(10028);
    const monitor = await finance.ok('smartPlanMonitor', { state: 'in_progress' });
    expect(monitor.map((x) => x.id)).toContain(bought.data.id);
    const stopped = await me.call('stopSmart', { planId: bought.data.id });
    expect(stopped.code).toBe(20005);
    expect(stopped.data).toMatchObject({ state: 'stopped', endReason: 'stopped', openTrades: 0 });
    const returned = stopped.data.returned ?? '0';
    const usdt = (await me.ok('getBalances')).balances.find((b) => b.asset === 'USDT');
    // 2,000 deposited, 1,500 into the plan, and what the plan returned: to the minor unit.
    const minor = (text: string) => BigInt(text.replace('.', ''));
    expect(minor(usdt?.available ?? '0')).toBe(minor('500.000000') + minor(returned));
  }, 120_000);
});
