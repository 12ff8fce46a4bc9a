import { assetsMessage } from '@swx/contract';
import { getAddress, verifyMessage } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { DEV_DEPOSIT_XPUB_EVM } from '../../platform/chain/derive.ts';
import type { Hex } from '../../platform/chain.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';
import { chainAssets } from './proofs.assets.ts';

/**
 * Proof of assets on a development chain: the hot wallet and a customer's deposit address read at
 * one block, each signing the day's text with its own key (the sandbox's published keys).
 */
let t: TestDatabase;
let chain: TestChain;
let ctx: TestContext;
let w: TestWallet;

beforeAll(async () => {
  [t, chain] = await Promise.all([openTestDatabase(), startTestChain()]);
  ctx = await createTestContext(t.db);
  w = testWallet(ctx, { chain: chain.chain, signer: chain.signer });
}, 60_000);
afterAll(async () => {
  await chain?.close();
  await t?.close();
});

describe(`proof of assets on ${TEST_DB}`, () => {
  it('reads every address at one block and each signs with its key', async () => {
    const customer = await ctx.customer();
    const address = (await w.wallet.deposits.address('live', customer.id, 'USDT-EVM')).address as Hex;
    const sent = await chain.dev.send({ to: address, asset: 'USDT', amount: 75_000_000n });
    while (!(await chain.chain.receipt(sent))) await new Promise((r) => setTimeout(r, 20));
    const read = chainAssets({ chain, config: { depositXpubs: { evm: DEV_DEPOSIT_XPUB_EVM } } }, w.wallet);
    const usdt = await read?.('2027-05-01', 'USDT', [customer.id]);
    expect(usdt?.chain).toBe('development');
    const deposit = usdt?.addresses.find((a) => a.role === 'deposit');
    expect(deposit).toMatchObject({ address: getAddress(address), amountMinor: '75000000' });
    const hot = usdt?.addresses.find((a) => a.role === 'hot_wallet');
    expect(BigInt(usdt?.totalMinor ?? 0)).toBe(75_000_000n + BigInt(hot?.amountMinor ?? 0));
    const message = assetsMessage('2027-05-01', 'USDT', usdt?.block ?? '');
    for (const a of usdt?.addresses ?? [])
      expect(await verifyMessage({ address: a.address as Hex, message, signature: a.signature as Hex })).toBe(
        true,
      );
    // The day's block stays the block of every asset read that day, whatever was mined since.
    await chain.dev.send({ to: address, asset: 'USDT', amount: 1_000_000n });
    const again = await read?.('2027-05-01', 'USDT', [customer.id]);
    expect(again?.block).toBe(usdt?.block);
    expect(again?.addresses.find((a) => a.role === 'deposit')?.amountMinor).toBe('75000000');
    expect((await read?.('2027-05-01', 'BTC', [customer.id]))?.chain).toBe('none');
  });
});
