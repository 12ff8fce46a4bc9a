import type { RechargeBody } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { pngImage } from '../../../../../tests/support/images.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { ChainAsset, Hex } from '../../platform/chain.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const refusedBecause = (verdict: string) => (e: unknown) =>
  refusedWith(10047)(e) && JSON.stringify((e as ApiError).data) === JSON.stringify({ verdict });
const USDT = (n: number) => BigInt(n) * 1_000_000n;

/**
 * Deposit proofs on a network the platform watches, checked against a real development chain
 * (anvil): staff can approve only a mined transfer of at least the declared amount to the
 * customer's own deposit address; approved, it is credited with a lock and unlocked at depth as the
 * watcher's deposits are; a proof still pending when the watcher credits its transaction is closed.
 */
describe(`deposit proofs checked on the watched chain, ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let chain: TestChain;
  let w: TestWallet;
  let finance: { staffId: number };

  beforeAll(async () => {
    [t, chain] = await Promise.all([openTestDatabase(), startTestChain()]);
    ctx = await createTestContext(t.db);
    w = testWallet(ctx, { chain: chain.chain, signer: chain.signer });
    finance = { staffId: (await ctx.staffMember('finance')).id };
  }, 60_000);
  afterEach(() => expectLedgerSound(ctx));
  afterAll(async () => {
    await chain?.close();
    await t?.close();
  });

  const balanceOf = async (userId: number, asset: string) => {
    const b = (await ctx.ledger.balances('live', userId)).find((x) => x.asset === asset);
    return { balance: b?.balance ?? 0n, held: b?.held ?? 0n, available: b?.available ?? 0n };
  };
  const addressOf = async (userId: number) =>
    (await w.wallet.deposits.address('live', userId, 'USDT-EVM')).address as Hex;
  const depositsOf = (userId: number) => w.wallet.deposits.list('live', userId);

  /** Sends on chain and waits until it is mined (a block per transaction). */
  async function send(to: Hex, amount: bigint, asset: ChainAsset = 'USDT'): Promise<Hex> {
    const hash = await chain.dev.send({ to, asset, amount });
    while (!(await chain.chain.receipt(hash))) await new Promise((r) => setTimeout(r, 20));
    return hash;
  }

  async function declare(userId: number, txHash: string, amount: string) {
    const proof = (await w.uploads.store(userId, 'deposit_proof', async () => pngImage())).id;
    const body: RechargeBody = {
      network: 'USDT-EVM',
      amount,
      txHash,
      lastSix: txHash.slice(-6),
      proof,
      address: await addressOf(userId),
    };
    return w.wallet.deposits.declare('live', userId, body);
  }

  it('refuses a made-up transaction hash: the chain has no such transfer, nothing is credited', async () => {
    const a = await ctx.customer();
    const made = `0x${'7c3e'.repeat(16)}`;
    const declared = await declare(a.id, made, '5000');
    await w.deposits.claim(finance, declared.id);
    await expect(w.deposits.approve(finance, declared.id)).rejects.toSatisfy(refusedBecause('not_found'));
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: 0n, held: 0n, available: 0n });
    // Staff read why: what the chain says, beside the proof.
    expect(await w.deposits.get(finance, declared.id)).toMatchObject({
      onChain: true,
      chain: { verdict: 'not_found', amount: null, confirmations: 0, blockNumber: null },
      review: { fourEyes: false },
    });
    expect((await depositsOf(a.id))[0]).toMatchObject({ id: declared.id, state: 'pending_review' });
    expect((await w.deposits.list(finance, null)).map((i) => i.id)).toContain(declared.id);
    // Staff may still reject it: the declaration's hold is released.
    await w.deposits.reject(finance, declared.id, 'No such transaction on the blockchain');
    expect((await depositsOf(a.id))[0]?.state).toBe('rejected');
  });

  it('approves a real transfer of enough to the customer: credited held, unlocked at depth, credited once', async () => {
    const a = await ctx.customer();
    const hash = await send(await addressOf(a.id), USDT(150));
    await chain.dev.mine(11);
    // Declared for less than was sent: the chain covers it.
    const declared = await declare(a.id, hash, '140');
    await w.deposits.claim(finance, declared.id);
    const approved = await w.deposits.approve(finance, declared.id);
    expect(approved).toMatchObject({ state: 'credited', review: { state: 'approved' } });
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: USDT(140), held: USDT(140), available: 0n });
    expect(approved.chain).toMatchObject({
      verdict: 'matches',
      amount: '150.000000',
      confirmations: 12,
      creditConfirmations: 12,
      unlockConfirmations: 24,
    });
    expect(approved.chain?.blockNumber).toMatch(/^\d+$/);
    expect((await depositsOf(a.id))[0]).toMatchObject({
      state: 'credited',
      source: 'proof',
      confirmations: 12,
    });

    // The watcher reads the same transaction: it is the proof's, not credited a second time.
    await w.wallet.deposits.watch();
    await chain.dev.mine(11);
    await w.wallet.deposits.watch();
    expect((await depositsOf(a.id))[0]?.state).toBe('credited');
    expect((await balanceOf(a.id, 'USDT')).available).toBe(0n);
    await chain.dev.mine(1);
    await w.wallet.deposits.watch();
    expect(await depositsOf(a.id)).toHaveLength(1);
    expect((await depositsOf(a.id))[0]).toMatchObject({ state: 'available', confirmations: 24 });
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: USDT(140), held: 0n, available: USDT(140) });
    expect(await ctx.ledger.entriesOf('live', a.id, { kind: 'deposit', limit: 10 })).toHaveLength(1);
  });

  it('refuses a transfer of less than declared, to another address, or of another asset', async () => {
    const a = await ctx.customer();
    const b = await ctx.customer();
    const short = await send(await addressOf(a.id), USDT(130));
    const elsewhere = await send(await addressOf(b.id), USDT(500));
    const ether = await send(await addressOf(a.id), 300_000_000_000_000_000n, 'ETH');
    const cases = [
      { hash: short, amount: '131', verdict: 'short', seen: '130.000000' },
      { hash: elsewhere, amount: '500', verdict: 'other_address', seen: '0.000000' },
      { hash: ether, amount: '300', verdict: 'no_transfer', seen: '0.000000' },
    ];
    for (const c of cases) {
      const declared = await declare(a.id, c.hash, c.amount);
      await w.deposits.claim(finance, declared.id);
      await expect(w.deposits.approve(finance, declared.id)).rejects.toSatisfy(refusedBecause(c.verdict));
      expect((await w.wallet.deposits.one(a.id, declared.id)).state).toBe('pending_review');
      expect((await w.deposits.get(finance, declared.id)).chain).toMatchObject({
        verdict: c.verdict,
        amount: c.seen,
      });
      await w.deposits.reject(finance, declared.id, 'The chain does not show this deposit');
    }
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: 0n, held: 0n, available: 0n });
  });

  it('closes a proof still pending when the watcher credits its transaction, with the reason for both sides', async () => {
    const a = await ctx.customer();
    const hash = await send(await addressOf(a.id), USDT(200));
    const declared = await declare(a.id, hash, '200');
    const clearing = await ctx.ledger.systemAccount('live', 'USDT', 'external_clearing');
    const heldOnClearing = async () => (await ctx.ledger.account(clearing))?.held ?? 0n;
    const heldBefore = await heldOnClearing();
    // Seen (confirming): the proof waits; credited at 12 confirmations: the proof is closed.
    await w.wallet.deposits.watch();
    expect((await w.wallet.deposits.one(a.id, declared.id)).state).toBe('pending_review');
    await chain.dev.mine(11);
    await w.wallet.deposits.watch();
    const proof = await w.wallet.deposits.one(a.id, declared.id);
    expect(proof).toMatchObject({ state: 'rejected', reason: 'credited_on_chain' });
    expect(await heldOnClearing()).toBe(heldBefore - USDT(200));
    expect((await w.deposits.list(finance, null)).map((i) => i.id)).not.toContain(declared.id);
    const seenByStaff = await w.deposits.get(finance, declared.id);
    expect(seenByStaff).toMatchObject({
      state: 'rejected',
      reason: 'credited_on_chain',
      review: { state: 'rejected' },
    });
    const notices = await ctx.notices.list(a.id, 'en');
    expect(notices.some((n) => n.noticeContent.includes('was closed without a decision'))).toBe(true);
    // Credited once, by the watcher, held until the unlock depth.
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: USDT(200), held: USDT(200), available: 0n });
    await w.deposits.claim(finance, declared.id).catch(() => undefined);
    await expect(w.deposits.approve(finance, declared.id)).rejects.toSatisfy(refusedWith(10020));
    // A second pass changes nothing.
    await w.wallet.deposits.watch();
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: USDT(200), held: USDT(200), available: 0n });
  });

  it('keeps proofs of a network without a node manual, with four eyes above the threshold', async () => {
    await t.db.query(
      `INSERT INTO system_params (key, value, description)
       VALUES ('fourEyesAbove.depositProof.BTC', '0.01', 'test')
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    );
    const a = await ctx.customer();
    const proof = (await w.uploads.store(a.id, 'deposit_proof', async () => pngImage())).id;
    const { address } = await w.wallet.deposits.address('live', a.id, 'BTC-BTC');
    const declared = await w.wallet.deposits.declare('live', a.id, {
      network: 'BTC-BTC',
      amount: '0.02',
      txHash: '3d'.repeat(32),
      lastSix: '3d3d3d',
      proof,
      address,
    });
    await w.deposits.claim(finance, declared.id);
    expect((await w.deposits.approve(finance, declared.id)).review).toMatchObject({ state: 'pending' });
    expect((await balanceOf(a.id, 'BTC')).balance).toBe(0n);
    const queued = (await w.deposits.list(finance, null)).find((i) => i.id === declared.id);
    expect(queued).toMatchObject({ onChain: false, review: { fourEyes: true } });
    expect(await w.deposits.get(finance, declared.id)).toMatchObject({ chain: null, onChain: false });
    await w.deposits.claim(finance, declared.id);
    await expect(w.deposits.approve(finance, declared.id)).rejects.toSatisfy(refusedWith(10037));
    await w.deposits.release(finance, declared.id);
    const second = { staffId: (await ctx.staffMember('admin')).id };
    await w.deposits.claim(second, declared.id);
    expect((await w.deposits.approve(second, declared.id)).state).toBe('available');
    expect((await balanceOf(a.id, 'BTC')).available).toBe(2_000_000n);
  });
});
