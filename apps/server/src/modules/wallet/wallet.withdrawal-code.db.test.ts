import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, type TestContext, type TestCustomer } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const USDT = (n: number) => BigInt(n) * 1_000_000n;
const DAY = 86_400_000;

/**
 * The code that confirms a withdrawal, on a real development chain's signer: it is issued only for
 * a pending quote of the customer (not another's, not an expired one), its mail names the quote's
 * amount, asset, network and destination, and it confirms only those figures. Adding the address
 * itself mailed and notified the customer, with a lock link.
 */
describe(`the withdrawal code names what it confirms, ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let chain: TestChain;
  let w: TestWallet;
  let clock = Date.now();
  const now = () => clock;

  beforeAll(async () => {
    [t, chain] = await Promise.all([openTestDatabase(), startTestChain()]);
    ctx = await createTestContext(t.db, { now });
    w = testWallet(ctx, { chain: chain.chain, signer: chain.signer, now });
  }, 60_000);
  afterAll(async () => {
    await chain?.close();
    await t?.close();
  });

  const mailTo = (c: TestCustomer) => ctx.mail.filter((m) => m.to === c.email);
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';
  let n = 0;

  async function customerWithAddress() {
    const c = await ctx.customer({ live: USDT(1000) });
    const address = `0x${String(++n).padStart(40, '5')}`;
    const added = await w.wallet.withdrawals.addAddress(
      'live',
      c.id,
      { network: 'USDT-EVM', address, label: '' },
      { ip: '198.51.100.77', userAgent: 'Mozilla/5.0 (Windows NT 10.0) Firefox/128.0', language: 'en' },
    );
    return { c, address, added };
  }

  it('adding a withdrawal address mails and notifies the customer: which address, when, from where, and a lock link', async () => {
    const { c, address } = await customerWithAddress();
    const mail = mailTo(c).at(-1);
    expect(mail?.subject).toBe('A withdrawal address was added to your SWX account');
    expect(mail?.text).toContain(`The withdrawal address ${address} on`);
    expect(mail?.text).toContain('from Firefox 128, Windows, address 198.51.100.*');
    expect(mail?.text).toMatch(/\/pass\/lock#[a-f0-9]{64}/);
    const [notice] = await ctx.notices.list(c.id, 'de');
    expect(notice?.noticeContent).toContain(`Die Auszahlungsadresse ${address}`);
    expect(notice?.noticeContent).toContain('198.51.100.*');
  });

  it('a code only for a pending quote of this customer; its mail names amount, asset, network and address; it confirms only those figures', async () => {
    const { c, address, added } = await customerWithAddress();
    const other = await customerWithAddress();
    clock += DAY + 60_000;
    const quote = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '200',
    });
    // Another customer's quote is not theirs to confirm; a forged id is no quote.
    await expect(w.wallet.withdrawals.sendCode('live', other.c.id, 'en', quote.quoteId)).rejects.toSatisfy(
      refusedWith(10028),
    );
    await expect(
      w.wallet.withdrawals.sendCode('live', c.id, 'en', `${quote.quoteId.slice(0, -2)}xx`),
    ).rejects.toSatisfy(refusedWith(10026));
    // A quote that ran out is pending no more.
    clock += 61_000;
    await expect(w.wallet.withdrawals.sendCode('live', c.id, 'en', quote.quoteId)).rejects.toSatisfy(
      refusedWith(10032),
    );
    const before = mailTo(c).length;

    const fresh = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '200',
    });
    await w.wallet.withdrawals.sendCode('live', c.id, 'en', fresh.quoteId);
    expect(mailTo(c)).toHaveLength(before + 1);
    const mail = mailTo(c).at(-1);
    expect(mail?.subject).toBe('Confirm your SWX withdrawal');
    // The amount as every screen shows it (formatDisplay), not as stored ("200.000000").
    expect(mail?.text).toMatch(/^Your code is \d{6}\. It confirms the withdrawal of 200\.00 USDT on /);
    expect(mail?.text).toContain(`to the address ${address}`);
    expect(mail?.text).toContain(`USDT on ${(await w.wallet.networks.get('USDT-EVM')).name} to the address`);
    const code = codeIn(mail?.text ?? '');

    // The code of 200 USDT does not confirm a withdrawal of 300 to the same address.
    clock += 60_000;
    const bigger = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '300',
    });
    await expect(
      w.wallet.withdrawals.commit('live', c.id, { quoteId: bigger.quoteId, requestId: 'bigger-0001', code }),
    ).rejects.toSatisfy(refusedWith(10091));
    // It does confirm the figures it named (a renewed quote of the same figures).
    const same = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '200',
    });
    const done = await w.wallet.withdrawals.commit('live', c.id, {
      quoteId: same.quoteId,
      requestId: 'same-000001',
      code,
    });
    expect(done).toMatchObject({ state: 'pending_review', amount: '200.000000', address });
  });

  it('without a quote nothing is mailed', async () => {
    const c = await ctx.customer();
    const before = mailTo(c).length;
    await expect(w.wallet.withdrawals.sendCode('live', c.id, 'en', 'not-a-quote')).rejects.toSatisfy(
      refusedWith(10026),
    );
    expect(mailTo(c)).toHaveLength(before);
  });
});
