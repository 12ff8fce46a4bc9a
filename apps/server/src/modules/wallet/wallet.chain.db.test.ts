import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { pngImage } from '../../../../../tests/support/images.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { DEV_ACCOUNTS } from '../../platform/chain/accounts.ts';
import { rpcClient } from '../../platform/chain/rpc.ts';
import type { Hex } from '../../platform/chain.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, type TestContext, type TestCustomer } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';
import { AuditService } from '../audit/audit.service.ts';
import { base32Decode, totpCode } from '../identity/identity.totp.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { BUMP_BLOCKS } from './wallet.hot.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const USDT = (n: number) => BigInt(n) * 1_000_000n;
const DAY = 86_400_000;

/**
 * Deposits and withdrawals on a real development chain (anvil from the npm registry): the watcher
 * credits exactly once at the network's confirmations, unlocks at its depth, reverses a deposit
 * whose block is replaced; an approved withdrawal arrives on chain with the amount less the fee.
 */
describe(`the wallet on a development chain, ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let chain: TestChain;
  let w: TestWallet;
  let clock = Date.now();
  const now = () => clock;
  let finance: { staffId: number };
  let secondFinance: { staffId: number };

  beforeAll(async () => {
    [t, chain] = await Promise.all([openTestDatabase(), startTestChain()]);
    ctx = await createTestContext(t.db, { now });
    w = testWallet(ctx, { chain: chain.chain, signer: chain.signer, now });
    finance = { staffId: (await ctx.staffMember('finance')).id };
    secondFinance = { staffId: (await ctx.staffMember('admin')).id };
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
  const depositsOf = (userId: number) => w.wallet.deposits.list('live', userId);
  const addressOf = async (userId: number) =>
    (await w.wallet.deposits.address('live', userId, 'USDT-EVM')).address as Hex;

  it('credits a token deposit once at 12 confirmations, locked until 24, through restarts and a second node', async () => {
    const a = await ctx.customer();
    const hash = await chain.dev.send({ to: await addressOf(a.id), asset: 'USDT', amount: USDT(150) });
    // Mined in its own block (a block per transaction), which the watcher then reads.
    while (!(await chain.chain.receipt(hash))) await new Promise((r) => setTimeout(r, 20));
    await w.wallet.deposits.watch();
    const [seen] = await depositsOf(a.id);
    expect(seen).toMatchObject({
      state: 'confirming',
      amount: '150.000000',
      confirmations: 1,
      creditConfirmations: 12,
    });
    // 11 confirmations left at the network's 12 seconds a block.
    expect(seen?.etaSeconds).toBe(11 * 12);
    // Its sender is kept (the faucet sends the tests' deposits), beside the customer's deposit address.
    expect((await w.wallet.knownAddresses([a.id])).get(a.id)).toEqual({
      withdrawal: [],
      depositSources: [DEV_ACCOUNTS.faucet.address],
      deposit: [(await addressOf(a.id)).toLowerCase()],
    });

    await chain.dev.mine(11);
    // Two nodes watch the same chain at once: one credit, one lock.
    const otherNode = { ...ctx, ledger: new LedgerService(t.db, new AuditService(t.db)) };
    const second = testWallet(otherNode, { chain: chain.chain, signer: chain.signer, now });
    await Promise.all([w.wallet.deposits.watch(), second.wallet.deposits.watch()]);
    await w.wallet.deposits.watch();
    expect((await depositsOf(a.id))[0]).toMatchObject({ state: 'credited', confirmations: 12 });
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: USDT(150), held: USDT(150), available: 0n });
    expect(await ctx.ledger.entriesOf('live', a.id, { kind: 'deposit', limit: 10 })).toHaveLength(1);

    await chain.dev.mine(12);
    await w.wallet.deposits.watch();
    expect((await depositsOf(a.id))[0]).toMatchObject({ state: 'available', etaSeconds: null });
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: USDT(150), held: 0n, available: USDT(150) });
    // A proof naming the same transaction is refused.
    const proof = (await w.uploads.store(a.id, 'deposit_proof', async () => pngImage())).id;
    await expect(
      w.wallet.deposits.declare('live', a.id, {
        network: 'USDT-EVM',
        amount: '150',
        txHash: (await depositsOf(a.id))[0]?.txHash ?? '',
        lastSix: 'abcdef',
        proof,
        address: await addressOf(a.id),
      }),
    ).rejects.toSatisfy(refusedWith(10042));
  });

  it('counts the waiting time down by the block time and the confirmations left; withdrawable is said', async () => {
    // A development chain of 2-second blocks: minutes would say "about 1 minute" at 5 of 12 and at 11 of 12.
    await w.wallet.networks.followBlockTime(2);
    try {
      const a = await ctx.customer();
      await chain.dev.send({ to: await addressOf(a.id), asset: 'USDT', amount: USDT(130) });
      await chain.dev.mine(4);
      await w.wallet.deposits.watch();
      expect((await depositsOf(a.id))[0]).toMatchObject({
        state: 'confirming',
        confirmations: 5,
        etaSeconds: 14,
      });
      await chain.dev.mine(6);
      await w.wallet.deposits.watch();
      expect((await depositsOf(a.id))[0]).toMatchObject({ confirmations: 11, etaSeconds: 2 });
      await chain.dev.mine(1);
      await w.wallet.deposits.watch();
      // Credited: the wait is now to the unlock depth (24), 12 blocks away.
      expect((await depositsOf(a.id))[0]).toMatchObject({ state: 'credited', etaSeconds: 24 });
      await chain.dev.mine(12);
      await w.wallet.deposits.watch();
      expect((await depositsOf(a.id))[0]).toMatchObject({ state: 'available', etaSeconds: null });
      // Withdrawable is said once, in the customer's notices.
      const said = (await ctx.notices.list(a.id, 'en')).filter((n) =>
        n.noticeContent.includes('now withdrawable'),
      );
      expect(said.map((n) => n.noticeContent)).toEqual([
        'Your deposit of 130.00 USDT is confirmed deeply enough and is now withdrawable: it is no longer held.',
      ]);
      await w.wallet.deposits.watch();
      expect(
        (await ctx.notices.list(a.id, 'en')).filter((n) => n.noticeContent.includes('now withdrawable')),
      ).toHaveLength(1);
    } finally {
      await w.wallet.networks.followBlockTime(12);
    }
  });

  it('credits native ether, and records below-minimum deposits without crediting them', async () => {
    const a = await ctx.customer();
    const to = await addressOf(a.id);
    await chain.dev.send({ to, asset: 'ETH', amount: 250_000_000_000_000_000n });
    await chain.dev.send({ to, asset: 'USDT', amount: USDT(100) });
    await chain.dev.mine(30);
    await w.wallet.deposits.watch();
    await w.wallet.deposits.watch();
    const deposits = await depositsOf(a.id);
    expect(deposits.find((d) => d.asset === 'ETH')).toMatchObject({
      state: 'available',
      amount: '0.250000000000000000',
    });
    expect(deposits.find((d) => d.asset === 'USDT')).toMatchObject({
      state: 'below_minimum',
      minimum: '120.000000',
    });
    expect((await balanceOf(a.id, 'ETH')).available).toBe(250_000_000_000_000_000n);
    expect((await balanceOf(a.id, 'USDT')).balance).toBe(0n);
    const notices = await ctx.notices.list(a.id, 'en');
    expect(notices.some((n) => n.noticeContent.includes('below the minimum deposit of 120.00 USDT'))).toBe(
      true,
    );
  });

  it('reverses a credited deposit whose block is replaced before the unlock depth', async () => {
    const a = await ctx.customer();
    const before = await chain.dev.snapshot();
    await chain.dev.send({ to: await addressOf(a.id), asset: 'USDT', amount: USDT(500) });
    await chain.dev.mine(12);
    await w.wallet.deposits.watch();
    expect((await depositsOf(a.id))[0]?.state).toBe('credited');
    // The chain reorganises: the deposit's block and those after it are replaced by empty ones.
    await chain.dev.revert(before);
    await chain.dev.mine(20);
    await w.wallet.deposits.watch();
    expect((await depositsOf(a.id))[0]).toMatchObject({ state: 'reversed' });
    expect(await balanceOf(a.id, 'USDT')).toEqual({ balance: 0n, held: 0n, available: 0n });
    expect((await ctx.notices.list(a.id, 'en'))[0]?.noticeContent).toContain('reorganisation');
  });

  async function fundedCustomer(amount: bigint): Promise<TestCustomer> {
    const c = await ctx.customer();
    await chain.dev.send({ to: await addressOf(c.id), asset: 'USDT', amount });
    await chain.dev.mine(24);
    await w.wallet.deposits.watch();
    await w.wallet.deposits.watch();
    expect((await balanceOf(c.id, 'USDT')).available).toBe(amount);
    return c;
  }

  const mailedCode = (email: string) => {
    const text = ctx.mail.findLast((m) => m.to === email)?.text ?? '';
    return /\b(\d{6})\b/.exec(text)?.[1] ?? '';
  };

  it('sends an approved withdrawal on chain: the fee quoted is the fee posted, the address receives the rest', async () => {
    const c = await fundedCustomer(USDT(1000));
    const destination = '0x1111111111111111111111111111111111111111';
    const added = await w.wallet.withdrawals.addAddress('live', c.id, {
      network: 'USDT-EVM',
      address: destination,
      label: 'My wallet',
    });
    // A new address waits a day.
    await expect(
      w.wallet.withdrawals.quote('live', c.id, { network: 'USDT-EVM', addressId: added.id, amount: '200' }),
    ).rejects.toSatisfy(refusedWith(10041));
    clock += DAY + 60_000;
    const quote = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '200',
    });
    expect(quote).toMatchObject({
      amount: '200.000000',
      fee: '1.000000',
      receive: '199.000000',
      feeRate: '0.005',
    });
    expect(quote.confirmation).toBe('mail');
    await w.wallet.withdrawals.sendCode('live', c.id, 'en', quote.quoteId);
    const body = { quoteId: quote.quoteId, requestId: 'request-000001', code: mailedCode(c.email) };
    await expect(w.wallet.withdrawals.commit('live', c.id, { ...body, code: '000000' })).rejects.toSatisfy(
      refusedWith(10091),
    );
    const requested = await w.wallet.withdrawals.commit('live', c.id, body);
    expect(requested).toMatchObject({ state: 'pending_review', amount: '200.000000', fee: '1.000000' });
    expect(await balanceOf(c.id, 'USDT')).toMatchObject({ held: USDT(200), available: USDT(800) });
    // The same request again answers the same withdrawal.
    expect((await w.wallet.withdrawals.commit('live', c.id, body)).id).toBe(requested.id);

    await w.withdrawals.claim(finance, requested.id);
    await w.withdrawals.approve(finance, requested.id);
    // The node loses the transaction (never mined): after BUMP_BLOCKS it is replaced, same nonce, higher fee.
    const rpc = (method: string, params: unknown[]) =>
      rpcClient(chain.url).request({ method: method as never, params: params as never });
    const ethFees = async () =>
      (await ctx.ledger.account(await ctx.ledger.systemAccount('live', 'ETH', 'fees')))?.balance ?? 0n;
    const gasBefore = await ethFees();
    await rpc('evm_setAutomine', [false]);
    try {
      await w.wallet.tick();
      const [sent] = await w.wallet.withdrawals.list('live', c.id);
      expect(sent?.state).toBe('sent');
      await rpc('anvil_dropTransaction', [sent?.txHash]);
      await chain.dev.mine(Number(BUMP_BLOCKS) + 1);
      await w.wallet.tick();
      const [replaced] = await t.db.query<{ bumps: number; replaced: string[]; tx_hash: string }>(
        'SELECT bumps, replaced, tx_hash FROM wallet_withdrawals WHERE id = $1',
        [requested.id],
      );
      expect([replaced?.bumps, replaced?.replaced]).toEqual([1, [sent?.txHash]]);
      expect(replaced?.tx_hash).not.toBe(sent?.txHash);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    await chain.dev.mine(12);
    await w.wallet.tick();
    const [done] = await w.wallet.withdrawals.list('live', c.id);
    expect(done).toMatchObject({ state: 'completed' });
    expect(done?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.chain.balanceOf(destination, 'USDT')).toBe(USDT(199));
    // Its gas booked once, as the chain says: the fees account (ETH) to external clearing.
    const gas = (await chain.chain.receipt(done?.txHash as Hex))?.fee ?? 0n;
    expect(gas > 0n).toBe(true);
    expect(await ethFees()).toBe(gasBefore - gas);
    expect(await balanceOf(c.id, 'USDT')).toEqual({ balance: USDT(800), held: 0n, available: USDT(800) });
    const fees = await ctx.ledger.account(await ctx.ledger.systemAccount('live', 'USDT', 'fees'));
    expect(fees?.balance).toBeGreaterThanOrEqual(USDT(1));
  });

  it('needs a second approver above the threshold, and releases the hold on rejection', async () => {
    await t.db.query("UPDATE system_params SET value = '100' WHERE key = 'fourEyesAbove.withdrawal.USDT'");
    const c = await fundedCustomer(USDT(500));
    const added = await w.wallet.withdrawals.addAddress('live', c.id, {
      network: 'USDT-EVM',
      address: '0x2222222222222222222222222222222222222222',
      label: '',
    });
    clock += DAY + 60_000;
    // With two-step sign-in on, the authenticator confirms: each code once (a new 30-second step each time).
    const session = await ctx.sessionOf(c);
    const { secret } = await ctx.identity.setupTotp(session);
    const client = { ip: '10.9.9.9', userAgent: 'wallet-test', language: 'en' as const };
    await ctx.identity.enableTotp(session, { code: totpCode(base32Decode(secret), now()) }, client);
    const request = async (amount: string, requestId: string) => {
      clock += 31_000;
      const quote = await w.wallet.withdrawals.quote('live', c.id, {
        network: 'USDT-EVM',
        addressId: added.id,
        amount,
      });
      expect(quote.confirmation).toBe('totp');
      const code = totpCode(base32Decode(secret), now());
      return w.wallet.withdrawals.commit('live', c.id, { quoteId: quote.quoteId, requestId, code });
    };
    const big = await request('150', 'request-000002');
    await w.withdrawals.claim(finance, big.id);
    const first = await w.withdrawals.approve(finance, big.id);
    expect(first.review).toMatchObject({ state: 'pending', fourEyes: true });
    await w.withdrawals.claim(finance, big.id);
    await expect(w.withdrawals.approve(finance, big.id)).rejects.toSatisfy(refusedWith(10037));
    await w.withdrawals.release(finance, big.id);
    await w.withdrawals.claim(secondFinance, big.id);
    expect((await w.withdrawals.approve(secondFinance, big.id)).state).toBe('approved');

    const small = await request('50', 'request-000003');
    await w.withdrawals.claim(finance, small.id);
    await w.withdrawals.reject(finance, small.id, 'Address under investigation');
    expect((await w.wallet.withdrawals.list('live', c.id))[0]).toMatchObject({
      state: 'rejected',
      reason: 'Address under investigation',
    });
    expect((await balanceOf(c.id, 'USDT')).held).toBe(USDT(150));
    await t.db.query("UPDATE system_params SET value = '10000' WHERE key = 'fourEyesAbove.withdrawal.USDT'");
  });

  it('holds at most the balance when 64 withdrawals of all of it arrive at once', async () => {
    const c = await fundedCustomer(USDT(300));
    const added = await w.wallet.withdrawals.addAddress('live', c.id, {
      network: 'USDT-EVM',
      address: '0x3333333333333333333333333333333333333333',
      label: '',
    });
    clock += DAY + 60_000;
    const quote = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '300',
    });
    await w.wallet.withdrawals.sendCode('live', c.id, 'en', quote.quoteId);
    const code = mailedCode(c.email);
    const results = await Promise.allSettled(
      Array.from({ length: 64 }, (_, i) =>
        w.wallet.withdrawals.commit('live', c.id, {
          quoteId: quote.quoteId,
          requestId: `race-${String(i).padStart(6, '0')}`,
          code,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await balanceOf(c.id, 'USDT')).toEqual({ balance: USDT(300), held: USDT(300), available: 0n });
  });

  it('keeps addresses and withdrawals to their owner', async () => {
    const a = await ctx.customer();
    const b = await ctx.customer();
    const added = await w.wallet.withdrawals.addAddress('live', a.id, {
      network: 'ETH-EVM',
      address: '0x4444444444444444444444444444444444444444',
      label: '',
    });
    expect(await w.wallet.withdrawals.addresses('live', b.id)).toEqual([]);
    await expect(w.wallet.withdrawals.removeAddress('live', b.id, added.id)).rejects.toSatisfy(
      refusedWith(10028),
    );
    clock += DAY + 60_000;
    await expect(
      w.wallet.withdrawals.quote('live', b.id, { network: 'ETH-EVM', addressId: added.id, amount: '0.1' }),
    ).rejects.toSatisfy(refusedWith(10021));
    // A bad checksum and a Bitcoin address on an EVM network are refused as input.
    await expect(
      w.wallet.withdrawals.addAddress('live', a.id, {
        network: 'ETH-EVM',
        address: '0x52908400098527886E0F7030069857D2E4169EE7'.replace('E7', 'e7'),
        label: '',
      }),
    ).rejects.toSatisfy(refusedWith(10026));
    await expect(
      w.wallet.withdrawals.addAddress('live', a.id, {
        network: 'ETH-EVM',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
        label: '',
      }),
    ).rejects.toSatisfy(refusedWith(10026));
  });

  it('dates deposits, withdrawals and the address book by the service clock, not the database’s (issue 41 #20)', async () => {
    // The service's clock ten days from the database's: every time the customer reads is the service's.
    clock += 10 * DAY;
    const at = () => new Date(clock).toISOString();
    const c = await ctx.customer();
    const hash = await chain.dev.send({ to: await addressOf(c.id), asset: 'USDT', amount: USDT(400) });
    while (!(await chain.chain.receipt(hash))) await new Promise((r) => setTimeout(r, 20));
    await w.wallet.deposits.watch();
    const seenAt = at();
    expect((await depositsOf(c.id))[0]).toMatchObject({
      state: 'confirming',
      createdAt: seenAt,
      creditedAt: null,
    });
    clock += 60_000;
    await chain.dev.mine(11);
    await w.wallet.deposits.watch();
    const creditedAt = at();
    expect((await depositsOf(c.id))[0]).toMatchObject({ state: 'credited', createdAt: seenAt, creditedAt });
    await chain.dev.mine(12);
    await w.wallet.deposits.watch();
    expect((await depositsOf(c.id))[0]).toMatchObject({ state: 'available', createdAt: seenAt, creditedAt });

    clock += 60_000;
    const added = await w.wallet.withdrawals.addAddress('live', c.id, {
      network: 'USDT-EVM',
      address: '0x5555555555555555555555555555555555555555',
      label: '',
    });
    expect(added.createdAt).toBe(at());
    const spare = await w.wallet.withdrawals.addAddress('live', c.id, {
      network: 'USDT-EVM',
      address: '0x6666666666666666666666666666666666666666',
      label: '',
    });
    clock += 60_000;
    await w.wallet.withdrawals.removeAddress('live', c.id, spare.id);
    expect((await w.wallet.withdrawals.address(spare.id))?.removedAt).toBe(at());

    clock += DAY + 60_000;
    const quote = await w.wallet.withdrawals.quote('live', c.id, {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '100',
    });
    await w.wallet.withdrawals.sendCode('live', c.id, 'en', quote.quoteId);
    const requested = await w.wallet.withdrawals.commit('live', c.id, {
      quoteId: quote.quoteId,
      requestId: 'clock-000001',
      code: mailedCode(c.email),
    });
    const requestedAt = at();
    expect(requested).toMatchObject({ state: 'pending_review', createdAt: requestedAt, completedAt: null });
    await w.withdrawals.claim(finance, requested.id);
    await w.withdrawals.approve(finance, requested.id);
    await w.wallet.tick();
    clock += 60_000;
    await chain.dev.mine(12);
    await w.wallet.tick();
    expect((await w.wallet.withdrawals.list('live', c.id))[0]).toMatchObject({
      state: 'completed',
      createdAt: requestedAt,
      completedAt: at(),
    });
  });
});
