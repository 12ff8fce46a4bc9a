import type { RechargeBody } from '@swx/contract';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { pngImage } from '../../../../../tests/support/images.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const HASH = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe(`deposits declared with a proof on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let w: TestWallet;
  let finance: { staffId: number };
  let png: Buffer;
  beforeAll(async () => {
    t = await openTestDatabase();
    ctx = await createTestContext(t.db);
    w = testWallet(ctx);
    finance = { staffId: (await ctx.staffMember('finance')).id };
    png = await pngImage();
  });
  afterEach(() => expectLedgerSound(ctx));
  afterAll(() => t.close());

  async function declaration(userId: number, overrides: Partial<RechargeBody> = {}): Promise<RechargeBody> {
    const proof = (await w.uploads.store(userId, 'deposit_proof', async () => png)).id;
    const { address } = await w.wallet.deposits.address('live', userId, 'BTC-BTC');
    return {
      network: 'BTC-BTC',
      amount: '0.02',
      txHash: HASH(1),
      lastSix: 'a1b2c3',
      proof,
      address,
      ...overrides,
    };
  }

  const balanceOf = async (userId: number, asset: string) =>
    (await ctx.ledger.balances('live', userId)).find((b) => b.asset === asset);

  it('gives each customer their own address, derived from the public key, the same every time', async () => {
    const a = await ctx.customer();
    const b = await ctx.customer();
    const first = await w.wallet.deposits.address('live', a.id, 'USDT-EVM');
    // Shown in its EIP-55 checksummed form (kept lowercase).
    expect(first.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(first.address).toBe(getAddress(first.address));
    expect(await w.wallet.deposits.address('live', a.id, 'ETH-EVM')).toEqual({
      ...first,
      network: 'ETH-EVM',
    });
    expect((await w.wallet.deposits.address('live', b.id, 'USDT-EVM')).address).not.toBe(first.address);
    expect((await w.wallet.deposits.address('live', a.id, 'BTC-BTC')).address).toMatch(/^bc1q[0-9a-z]{38}$/);
    await expect(w.wallet.deposits.address('demo', a.id, 'USDT-EVM')).rejects.toSatisfy(refusedWith(10043));
    await expect(w.wallet.deposits.address('live', a.id, 'XRP-XRP')).rejects.toSatisfy(refusedWith(10025));
  });

  it('refuses below the minimum naming the asset and its limit, and a receive address not the customer’s', async () => {
    const a = await ctx.customer();
    const below = w.wallet.deposits.declare('live', a.id, await declaration(a.id, { amount: '0.0149' }));
    await expect(below).rejects.toSatisfy(
      (e: unknown) =>
        refusedWith(10038)(e) &&
        JSON.stringify((e as ApiError).data) === '{"asset":"BTC","minimum":"0.01500000"}',
    );
    const other = await ctx.customer();
    const { address } = await w.wallet.deposits.address('live', other.id, 'BTC-BTC');
    await expect(
      w.wallet.deposits.declare('live', a.id, await declaration(a.id, { address })),
    ).rejects.toSatisfy(refusedWith(10026));
  });

  it('holds the declared amount on clearing until staff approve, then credits exactly it, once per transaction', async () => {
    const a = await ctx.customer();
    const declared = await w.wallet.deposits.declare(
      'live',
      a.id,
      await declaration(a.id, { txHash: HASH(2) }),
    );
    expect(declared).toMatchObject({ state: 'pending_review', amount: '0.02000000', source: 'proof' });
    expect((await balanceOf(a.id, 'BTC'))?.balance).toBe(0n);
    // The same transaction again, by anyone, in any case or prefix form: refused.
    const b = await ctx.customer();
    await expect(
      w.wallet.deposits.declare(
        'live',
        b.id,
        await declaration(b.id, { txHash: HASH(2).slice(2).toUpperCase() }),
      ),
    ).rejects.toSatisfy(refusedWith(10042));

    const queue = await w.deposits.list(finance, null);
    expect(queue.map((i) => i.id)).toContain(declared.id);
    await w.deposits.claim(finance, declared.id);
    const approved = await w.deposits.approve(finance, declared.id);
    expect(approved).toMatchObject({ state: 'available', review: { state: 'approved' } });
    expect((await balanceOf(a.id, 'BTC'))?.available).toBe(2_000_000n);
    expect((await w.wallet.deposits.list('live', a.id))[0]).toMatchObject({
      state: 'available',
      amount: '0.02000000',
    });
    const notices = await ctx.notices.list(a.id, 'en');
    expect(notices[0]?.noticeContent).toContain('0.02 BTC');
    // Decided: a second approval is refused, and the hash stays used.
    await expect(w.deposits.approve(finance, declared.id)).rejects.toSatisfy(refusedWith(10020));
    await expect(
      w.wallet.deposits.declare('live', a.id, await declaration(a.id, { txHash: HASH(2) })),
    ).rejects.toSatisfy(refusedWith(10042));
  });

  it('releases the hold on rejection, tells the customer why, and frees the hash for a corrected declaration', async () => {
    const a = await ctx.customer();
    const declared = await w.wallet.deposits.declare(
      'live',
      a.id,
      await declaration(a.id, { txHash: HASH(3) }),
    );
    await w.deposits.claim(finance, declared.id);
    await w.deposits.reject(finance, declared.id, 'The proof shows another amount');
    expect((await w.wallet.deposits.list('live', a.id))[0]).toMatchObject({
      state: 'rejected',
      reason: 'The proof shows another amount',
    });
    expect((await balanceOf(a.id, 'BTC'))?.balance).toBe(0n);
    expect((await ctx.notices.list(a.id, 'en'))[0]?.noticeContent).toContain(
      'The proof shows another amount',
    );
    const again = await w.wallet.deposits.declare('live', a.id, await declaration(a.id, { txHash: HASH(3) }));
    expect(again.state).toBe('pending_review');
  });

  it('keeps each customer to their own deposits and proofs', async () => {
    const a = await ctx.customer();
    const b = await ctx.customer();
    await w.wallet.deposits.declare('live', a.id, await declaration(a.id, { txHash: HASH(4) }));
    expect(await w.wallet.deposits.list('live', b.id)).toEqual([]);
    // B cannot declare with A's proof upload.
    const proofOfA = (await w.uploads.store(a.id, 'deposit_proof', async () => png)).id;
    await expect(
      w.wallet.deposits.declare('live', b.id, await declaration(b.id, { txHash: HASH(5), proof: proofOfA })),
    ).rejects.toSatisfy(refusedWith(10028));
    await expect(w.wallet.deposits.list('demo', a.id)).rejects.toSatisfy(refusedWith(10043));
  });
});
