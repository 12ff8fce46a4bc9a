import { type EarnProductBody, uploadFileUrl } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { pngImage } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { uploadedId } from '../support/uploads.ts';

const product = (overrides: Partial<EarnProductBody> = {}): EarnProductBody => ({
  type: 'fund',
  name: 'Stable 30',
  asset: 'USDT',
  income: 'static',
  termDays: 30,
  annualRate: '0.1',
  basket: [],
  minAmount: '100',
  maxAmount: '50000',
  capacity: '1000000',
  penaltyRate: '0.02',
  requiresKyc: false,
  onePerCustomer: false,
  enabled: true,
  ...overrides,
});

describe('earn over HTTP: codes, objects kept to their owner, the purchase by proof', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let admin: StaffApi;
  let finance: StaffApi;
  let financeToken: string;
  let alice: Session;
  let bob: Session;
  const as = (session: Session, book: 'demo' | 'live' = 'demo'): CustomerApi =>
    customerApi(server, session, { book, language: 'en' });

  useServer(
    {
      staff: [
        { email: 'admin@swx.test', role: 'admin' },
        { email: 'finance@swx.test', role: 'finance' },
      ],
    },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    admin = staffApi(
      server,
      await enrolStaffByApi(server.baseUrl, 'admin@swx.test', oneTimePasswords['admin@swx.test'] ?? ''),
    );
    const enrolled = await enrolStaffByApi(
      server.baseUrl,
      'finance@swx.test',
      oneTimePasswords['finance@swx.test'] ?? '',
    );
    financeToken = enrolled.token;
    finance = staffApi(server, enrolled);
    alice = await registerByApi(server, inbox, 'alice.earn@example.com');
    bob = await registerByApi(server, inbox, 'bob.earn@example.com');
  });

  it('answers the spec codes: 10013, 10011, 10024, 10044, 10045, 10043, and 401 without a session', async () => {
    expect((await finance.call('createEarnProduct', product())).code).toBe(10029);
    const fund = (await admin.ok('createEarnProduct', product())).product;
    expect(fund.soldOut).toBe('reserve');
    const vip = (
      await admin.ok(
        'createEarnProduct',
        product({ type: 'vip', name: 'VIP 90', termDays: 90, onePerCustomer: true }),
      )
    ).product;
    const kycOnly = (
      await admin.ok('createEarnProduct', product({ type: 'vip', name: 'VIP KYC', requiresKyc: true }))
    ).product;
    const me = as(alice);
    // Sold out while its reserve is empty, said at the quote; then funded by finance through the ledger.
    expect(await me.call('earnQuote', { productId: fund.id, amount: '1000' })).toMatchObject({
      code: 10044,
      data: { reason: 'reserve' },
    });
    for (const id of [fund.id, vip.id])
      await finance.ok('fundEarnReserve', {
        productId: id,
        book: 'demo',
        amount: '5000',
        reason: 'launch',
        requestId: `launch-${id}`,
      });
    const listed = await customerApi(server).ok('fundItems', {});
    expect(listed.find((p) => p.id === fund.id)).toMatchObject({ soldOut: null, reserveFree: '5000.000000' });

    expect((await me.call('earnQuote', { productId: fund.id, amount: '99.99' })).code).toBe(10013);
    expect((await me.call('earnQuote', { productId: fund.id, amount: '50000.01' })).code).toBe(10013);
    expect((await me.call('earnQuote', { productId: fund.id, amount: '100.0000001' })).code).toBe(10013);
    const buy = async (
      call: 'fundApply' | 'vipInvest',
      productId: number,
      amount: string,
      requestId: string,
    ) => {
      const q = await me.ok('earnQuote', { productId, amount });
      return (await me.call(call, { quoteId: q.quoteId, requestId })).code;
    };
    expect(await buy('vipInvest', vip.id, '50000', 'vip-one-1')).toBe(20004);
    // One VIP investment in progress per customer.
    expect(await buy('vipInvest', vip.id, '100', 'vip-two-1')).toBe(10024);
    expect(await buy('fundApply', fund.id, '50000', 'fund-one-1')).toBe(20004);
    // The demo balance is spent: insufficient balance.
    expect(await buy('fundApply', fund.id, '100', 'fund-two-1')).toBe(10011);
    // A fund quote does not buy through the VIP call, nor the other way round.
    const f = await me.ok('earnQuote', { productId: fund.id, amount: '100' });
    expect((await me.call('vipInvest', { quoteId: f.quoteId, requestId: 'wrong-call' })).code).toBe(10028);
    // VIP for verified customers only, in the live book.
    expect((await as(alice, 'live').call('earnQuote', { productId: kycOnly.id, amount: '100' })).code).toBe(
      10045,
    );
    const proof = await uploadedId(server.baseUrl, alice.token, 'fund_proof', await pngImage());
    expect(
      (await me.call('fundApplyWithProof', { quoteId: f.quoteId, proof, txHash: 'cd'.repeat(32) })).code,
    ).toBe(10043);
    for (const name of [
      'earnQuote',
      'fundApply',
      'fundUserProjects',
      'myInvestment',
      'fundWallet',
    ] as const) {
      const anonymous = await customerApi(server).call(name, {} as never);
      expect(anonymous.code).toBe(401);
    }
    await expectLedgerSound(server);
  });

  it("keeps every investment to its owner and book: another customer's id gets nothing", async () => {
    const fund = (await admin.ok('createEarnProduct', product({ name: 'Owned 10', termDays: 10 }))).product;
    await finance.ok('fundEarnReserve', {
      productId: fund.id,
      book: 'demo',
      amount: '1000',
      reason: 'owner test',
    });
    const quote = await as(bob).ok('earnQuote', { productId: fund.id, amount: '1000' });
    // Alice cannot commit Bob's quote.
    expect(
      (await as(alice).call('fundApply', { quoteId: quote.quoteId, requestId: 'alice-steals' })).code,
    ).toBe(10028);
    const mine = await as(bob).ok('fundApply', { quoteId: quote.quoteId, requestId: 'bob-buys-1' });
    // A retry of the same request answers the same investment.
    expect((await as(bob).ok('fundApply', { quoteId: quote.quoteId, requestId: 'bob-buys-1' })).id).toBe(
      mine.id,
    );
    expect((await as(alice).call('earnInvestment', { id: mine.id })).code).toBe(10028);
    expect((await as(bob, 'live').call('earnInvestment', { id: mine.id })).code).toBe(10028);
    expect((await as(alice).call('earnRedeemQuote', { id: mine.id })).code).toBe(10028);
    expect((await as(alice).ok('fundUserProjects', {})).map((i) => i.id)).not.toContain(mine.id);
    const redeem = await as(bob).ok('earnRedeemQuote', { id: mine.id });
    expect((await as(alice).call('fundRedeem', { quoteId: redeem.quoteId })).code).toBe(10028);
    expect((await as(alice).call('vipRedeem', { quoteId: redeem.quoteId })).code).toBe(10028);
    // A fund's redemption does not go through the VIP call either.
    expect((await as(bob).call('vipRedeem', { quoteId: redeem.quoteId })).code).toBe(10028);
    expect((await as(alice).ok('vipUserProjects', {})).map((i) => i.id)).not.toContain(mine.id);
    expect(redeem).toMatchObject({
      amount: '1000.000000',
      penalty: '20.000000',
      incomeToDate: '0.000000',
      receive: '980.000000',
    });
    const done = await as(bob).call('fundRedeem', { quoteId: redeem.quoteId });
    expect(done).toMatchObject({ code: 20005, data: { status: 'redeemed', received: '980.000000' } });
    const detail = await as(bob).ok('earnInvestment', { id: mine.id });
    expect(detail.incomes).toEqual([]);
    await expectLedgerSound(server);
  });

  it('buys by a transfer with a payment proof: finance see the image and approve; the investment starts', async () => {
    const fund = (await admin.ok('createEarnProduct', product({ name: 'Proof 30' }))).product;
    await finance.ok('fundEarnReserve', {
      productId: fund.id,
      book: 'live',
      amount: '100',
      reason: 'live launch',
    });
    const me = as(bob, 'live');
    const wallet = await me.ok('fundWallet');
    expect(wallet.payIn?.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const quote = await me.ok('earnQuote', { productId: fund.id, amount: '2000' });
    expect(quote.estimatedProfit).toBe('16.438356');
    const proof = await uploadedId(server.baseUrl, bob.token, 'fund_proof', await pngImage());
    const sent = await me.call('fundApplyWithProof', {
      quoteId: quote.quoteId,
      proof,
      txHash: `0x${'ef'.repeat(32)}`,
    });
    expect(sent).toMatchObject({ code: 20001, data: { status: 'pending', payWith: 'proof' } });
    const id = sent.data.id;
    // The reserve now promises the term's interest to this investment.
    const admin1 = (await finance.ok('listEarnProducts')).find((p) => p.product.id === fund.id);
    expect(admin1?.books.find((b) => b.book === 'live')).toMatchObject({
      reservedInterest: '16.438356',
      reserveFree: '83.561644',
    });
    const aliceSees = await fetch(`${server.baseUrl}${uploadFileUrl(proof)}`, {
      headers: { authorization: alice.token },
    });
    expect(aliceSees.status).toBe(404);
    expect((await finance.ok('earnProofQueue', {})).map((p) => p.id)).toContain(id);
    const item = await finance.ok('getEarnProof', { id });
    expect(item).toMatchObject({ proof, payInAddress: wallet.payIn?.address, amount: '2000.000000' });
    const image = await fetch(`${server.baseUrl}${uploadFileUrl(proof)}`, {
      headers: { authorization: financeToken },
    });
    expect(image.status).toBe(200);
    await finance.ok('claimEarnProof', { id });
    expect((await finance.ok('approveEarnProof', { id })).status).toBe('in_progress');
    const started = await me.ok('earnInvestment', { id });
    expect(started.status).toBe('in_progress');
    expect(started.accrualStart).toMatch(/T00:00:00.000Z$/);
    // The same transaction hash cannot buy twice.
    const second = await me.ok('earnQuote', { productId: fund.id, amount: '100' });
    const proof2 = await uploadedId(server.baseUrl, bob.token, 'fund_proof', await pngImage());
    expect(
      (
        await me.call('fundApplyWithProof', {
          quoteId: second.quoteId,
          proof: proof2,
          txHash: 'ef'.repeat(32),
        })
      ).data,
    ).toMatchObject({ id });
    await expectLedgerSound(server);
  });
});
