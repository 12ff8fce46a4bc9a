import { Code } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { Hex, WithdrawalSigner } from '../../platform/chain.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, type TestContext, type TestCustomer } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';

const USDT = (n: number) => BigInt(n) * 1_000_000n;
const DAY = 86_400_000;

/**
 * A committing withdrawal needs a signer to exist (the platform sends on the network), not to
 * sign: it only holds the amount for staff to review. This one refuses to sign, so nothing here
 * reaches a chain.
 */
const signer: WithdrawalSigner = {
  address: '0x9999999999999999999999999999999999999999' as Hex,
  sign: async () => {
    throw new Error('a committed withdrawal is signed only once approved');
  },
};

/**
 * A withdrawal quote commits once, whatever the request id: 10 commits of one quote at once, each
 * under its own request id and with the quote's valid confirmation code, hold its amount once;
 * the other 9 are refused 10032 `{reason: 'used'}` before they reach the code.
 */
describe(`withdrawal quotes on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let w: TestWallet;
  let clock = Date.parse('2027-05-03T09:00:00Z');
  const now = () => clock;

  beforeAll(async () => {
    t = await openTestDatabase();
    ctx = await createTestContext(t.db, { now });
    w = testWallet(ctx, { signer, now });
  }, 60_000);
  afterEach(() => expectLedgerSound(ctx));
  afterAll(() => t?.close());

  const balanceOf = async (userId: number) => {
    const b = (await ctx.ledger.balances('live', userId)).find((x) => x.asset === 'USDT');
    return { balance: b?.balance ?? 0n, held: b?.held ?? 0n, available: b?.available ?? 0n };
  };
  const mailedCode = (email: string) => {
    const text = ctx.mail.findLast((m) => m.to === email)?.text ?? '';
    return /\b(\d{6})\b/.exec(text)?.[1] ?? '';
  };
  const withdrawalsOf = async (userId: number) =>
    (await t.db.query<{ id: string }>('SELECT id FROM wallet_withdrawals WHERE user_id = $1', [userId])).map(
      (r) => Number(r.id),
    );
  const holdsOf = async (userId: number) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          'SELECT count(*)::text AS n FROM ledger_holds WHERE idempotency_key LIKE $1',
          [`withdrawal:${userId}:%`],
        )
      )[0]?.n,
    );

  /**
   * A customer with 10,000 USDT, an address usable (a day after it was added), a quote of 100
   * USDT and its mailed code: the balance (100 times the amount) and the daily limit of 2,000
   * (20 times) are not what stops a second withdrawal.
   */
  async function quoted(destination: string): Promise<{ c: TestCustomer; quoteId: string; code: string }> {
    const c = await ctx.customer({ live: USDT(10_000) });
    const added = await w.wallet.withdrawals.addAddress('live', c.id, {
      network: 'USDT-EVM',
      address: destination,
      label: '',
    });
    clock += DAY + 60_000;
    const quote = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '100',
    });
    expect(quote).toMatchObject({ amount: '100.000000', fee: '0.500000', confirmation: 'mail' });
    await w.wallet.withdrawals.sendCode('live', c.id, 'en', quote.quoteId);
    return { c, quoteId: quote.quoteId, code: mailedCode(c.email) };
  }

  it('10 commits of one quote at once under 10 request ids: one withdrawal, the other 9 refused as used', async () => {
    const { c, quoteId, code } = await quoted('0x5555555555555555555555555555555555555555');
    const requestIds = Array.from({ length: 10 }, (_, i) => `once-${String(i).padStart(6, '0')}`);
    const results = await Promise.allSettled(
      requestIds.map((requestId) => w.wallet.withdrawals.commit('live', c.id, { quoteId, requestId, code })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const index = results.findIndex((r) => r.status === 'fulfilled');
    const won = results[index];
    if (won?.status !== 'fulfilled') throw new Error('no withdrawal');
    const refused = results.flatMap((r) =>
      r.status === 'rejected'
        ? [r.reason instanceof ApiError ? { code: r.reason.code, data: r.reason.data } : String(r.reason)]
        : [],
    );
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r).toMatchObject({ code: Code.PRICE_CHANGED, data: { reason: 'used' } });
    expect(won.value).toMatchObject({ state: 'pending_review', amount: '100.000000', fee: '0.500000' });
    expect(await withdrawalsOf(c.id)).toEqual([won.value.id]);
    expect(await holdsOf(c.id)).toBe(1);
    expect(await balanceOf(c.id)).toEqual({ balance: USDT(10_000), held: USDT(100), available: USDT(9_900) });

    // The winning request again answers its withdrawal (its code already used); a losing one is
    // still refused; nothing more is held.
    const again = await w.wallet.withdrawals.commit('live', c.id, {
      quoteId,
      requestId: requestIds[index] as string,
      code,
    });
    expect(again.id).toBe(won.value.id);
    await expect(
      w.wallet.withdrawals.commit('live', c.id, {
        quoteId,
        requestId: requestIds[(index + 1) % 10] as string,
        code,
      }),
    ).rejects.toMatchObject({ code: Code.PRICE_CHANGED, data: { reason: 'used' } });
    expect(await withdrawalsOf(c.id)).toEqual([won.value.id]);
    expect(await balanceOf(c.id)).toEqual({ balance: USDT(10_000), held: USDT(100), available: USDT(9_900) });
  });

  // All 10 pass the claim (it is their own request's): the node runs one commit, which uses the
  // code once, and answers all 10 with its withdrawal.
  it('one request sent 10 times at once: one withdrawal, and every answer is it', async () => {
    const { c, quoteId, code } = await quoted('0x6666666666666666666666666666666666666666');
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        w.wallet.withdrawals.commit('live', c.id, { quoteId, requestId: 'retried-000001', code }),
      ),
    );
    const answers = results.map((r) => (r.status === 'fulfilled' ? r.value.id : String(r.reason)));
    const [first] = await withdrawalsOf(c.id);
    expect(answers).toEqual(Array(10).fill(first));
    expect(await withdrawalsOf(c.id)).toHaveLength(1);
    expect(await holdsOf(c.id)).toBe(1);
    expect(await balanceOf(c.id)).toEqual({ balance: USDT(10_000), held: USDT(100), available: USDT(9_900) });
  });
});
