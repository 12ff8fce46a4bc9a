import { Code } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { rpcClient } from '../../platform/chain/rpc.ts';
import { feesOf } from '../../platform/chain/signer.ts';
import type { Hex } from '../../platform/chain.ts';
import type { TestStaff } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';
import type { ChainPayout, ChainPayoutAssets } from '../products/ports.ts';
import { BUMP_BLOCKS, STUCK_BLOCKS } from '../wallet/wallet.hot.ts';
import { HotPayouts } from '../wallet/wallet.payouts.ts';
import { markPayoutSending } from './nft.payouts.repository.ts';
import { NftPayouts } from './nft.payouts.ts';
import { type TestNft, testNft } from './nft.testing.ts';

/**
 * A charity payout really sent: four eyes approve it (charity → pending withdrawals), the payout
 * job sends it from the hot wallet through the wallet's port `ChainPayout` to the charity's own
 * address on a real development chain, once (two passes at once, or a send made before a crash,
 * give one transaction), and at the network's confirmations it is sent: the charity's address
 * holds exactly the payout more and the donation log has its leaf with that transaction hash. A
 * reverted transaction, or no chain, fails it and the money is back on the charity account.
 */
const USDT = 1_000_000n;
let t: TestDatabase;
let chain: TestChain;
let s: TestNft;
let w: TestWallet;
let finance: TestStaff;
let payouts: NftPayouts;
let port: ChainPayout;
let sendable: ChainPayoutAssets;
/** What a pass could not move on (the node did not answer): none here. */
const errors: unknown[] = [];
const clock = { now: Date.parse('2027-08-01T12:00:00Z') };
const sends = async (key: string) =>
  Number(
    (
      await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM wallet_hot_sends WHERE key = $1', [
        key,
      ])
    )[0]?.n,
  );

beforeAll(async () => {
  [t, chain] = await Promise.all([openTestDatabase(), startTestChain()]);
  s = await testNft(t.db, clock, chain);
  w = testWallet(s.ctx, { chain: chain.chain, signer: chain.signer, now: () => clock.now });
  port = (key, order) => w.wallet.payouts.send(key, order);
  sendable = () => w.wallet.payouts.assets();
  payouts = new NftPayouts(s.nft, s.ctx.staff, {
    send: (key, order) => port(key, order),
    assets: () => sendable(),
    appendLeaf: (tx, leaf) => s.log.append(tx, leaf),
    onError: (_id, error) => errors.push(error),
  });
  finance = await s.ctx.staffMember('finance');
  // The charity account holds a sale's donation: 1,000 USDT.
  const buyer = await s.ctx.customer({ live: 5_000n * USDT });
  const drop = await s.drop({ saleType: 'fixed', startPrice: '1000' });
  expect((await s.bid(buyer.id, drop.id, '', { kind: 'buy' })).state).toBe('bought');
}, 180_000);
afterEach(async () => {
  await rpc('evm_setAutomine', [true]);
  expect(errors).toEqual([]);
  await expectLedgerSound(s.ctx);
});
afterAll(async () => {
  await chain?.close();
  await t?.close();
});

const account = async (
  name: 'charity' | 'pending_withdrawals' | 'external_clearing' | 'fees',
  asset: 'USDT' | 'ETH' = 'USDT',
) => (await s.ctx.ledger.account(await s.ctx.ledger.systemAccount('live', asset, name)))?.balance ?? 0n;
/** The node's own calls: mining switched off, a transaction dropped from its pool (never mined). */
const rpc = (method: string, params: unknown[]) =>
  rpcClient(chain.url).request({ method: method as never, params: params as never });
const hotSend = async (key: string) =>
  (
    await t.db.query<{ replaced: string[]; bumps: number; state: string; raw_tx: string }>(
      'SELECT replaced, bumps, state, raw_tx FROM wallet_hot_sends WHERE key = $1',
      [key],
    )
  )[0];
/** The payout's transaction in the node's pool, then dropped from it (as a node that lost it): never mined. */
async function sendingThenLost(amount: string) {
  const payout = await approved(amount);
  await rpc('evm_setAutomine', [false]);
  expect((await payouts.sendDue()).get(Number(payout.id))).toBe('pending');
  const first = (await shown(payout.id))?.txHash as Hex;
  const firstRaw = (await hotSend(`nft-payout:${payout.id}`))?.raw_tx as Hex;
  await rpc('anvil_dropTransaction', [first]);
  return { payout, first, firstRaw };
}

async function approved(amount: string) {
  const proposed = await payouts.propose(s.admin.session, {
    charityId: Number(s.charity.id),
    asset: 'USDT',
    amount,
  });
  const decided = await payouts.decide(finance.session, { payoutId: Number(proposed.id), approve: true });
  expect(decided.state).toBe('approved');
  return decided;
}
const hotDeps = () => ({
  db: t.db,
  chain: chain.chain,
  signer: chain.signer,
  networks: w.wallet.networks,
  ledger: s.ctx.ledger,
  now: () => clock.now,
});
const shown = async (id: string) => (await payouts.list()).find((p) => p.id === id);
/** Until the payout's transaction is in a block (at most 10 s: a budget, not a timing check). */
const minedOf = async (id: string) => {
  for (let i = 0; i < 100; i++) {
    const hash = (await shown(id))?.txHash;
    if (hash && (await chain.chain.receipt(hash as Hex))) return;
    await new Promise((done) => setTimeout(done, 100));
  }
};
const charityAddress = () => s.charity.address.toLowerCase() as Hex;

describe(`charity payouts sent on the chain, ${TEST_DB}`, () => {
  it('sends an approved payout once to the charity address; sent, its leaf carries the hash', async () => {
    const before = await chain.chain.balanceOf(charityAddress(), 'USDT');
    const charity = await account('charity');
    const clearing = await account('external_clearing');
    const payout = await approved('100');
    expect(await account('charity')).toBe(charity - 100n * USDT);
    // Two passes at once: one transaction stored and broadcast, the payout sending with its hash.
    const passes = await Promise.all([payouts.sendDue(), payouts.sendDue()]);
    expect(passes.map((p) => p.get(Number(payout.id)) ?? 'none')).toContain('pending');
    const sending = await shown(payout.id);
    expect(sending?.state).toBe('sending');
    expect(sending?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await sends(`nft-payout:${payout.id}`)).toBe(1);
    // Mined, but short of the network's 12 confirmations: still sending, nothing logged.
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('pending');
    await chain.dev.mine(12);
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('sent');
    expect(await payouts.sendDue()).toEqual(new Map());
    const sent = await shown(payout.id);
    expect(sent).toMatchObject({ state: 'sent', txHash: sending?.txHash, reason: null });
    // The chain: the charity's own address holds exactly the payout more, by that transaction.
    expect((await chain.chain.balanceOf(charityAddress(), 'USDT')) - before).toBe(100n * USDT);
    expect((await chain.chain.receipt(sent?.txHash as Hex))?.status).toBe('success');
    // The log: the payout's leaf with the transaction hash; the log's sums count it as paid out.
    const [leaf] = await s.log.leaves(null, 1);
    expect(leaf).toMatchObject({
      index: sent?.logIndex,
      kind: 'payout',
      asset: 'USDT',
      amount: (100n * USDT).toString(),
      txHash: sent?.txHash,
    });
    expect((await s.log.cumulative('USDT')).paidOut).toBe(100n * USDT);
    expect((await s.desk.account()).donated.find((d) => d.asset === 'USDT')?.paidOut).toBe('100.000000');
    const proof = await s.log.inclusion(sent?.logIndex as number, await s.log.size());
    expect(proof.leaf.txHash).toBe(sent?.txHash);
    // The ledger: the money left through external clearing, nothing waits in pending withdrawals.
    expect(await account('charity')).toBe(charity - 100n * USDT);
    expect(await account('external_clearing')).toBe(clearing + 100n * USDT);
  });

  it('after a crash between the send and its record, sends the same transaction, not a second', async () => {
    const before = await chain.chain.balanceOf(charityAddress(), 'USDT');
    const payout = await approved('40');
    // A node marked it sending and the hot wallet signed, stored and broadcast it, then the node died.
    expect(await markPayoutSending(t.db, Number(payout.id))).toBe(true);
    const first = await w.wallet.payouts.send(`nft-payout:${payout.id}`, {
      asset: 'USDT',
      to: s.charity.address,
      amount: 40n * USDT,
    });
    expect(first.state).toBe('pending');
    expect((await shown(payout.id))?.txHash).toBeNull();
    // The next pass takes up the same transaction.
    await payouts.sendDue();
    expect((await shown(payout.id))?.txHash).toBe(first.state === 'pending' ? first.txHash : '');
    await chain.dev.mine(12);
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('sent');
    expect(await sends(`nft-payout:${payout.id}`)).toBe(1);
    expect((await chain.chain.balanceOf(charityAddress(), 'USDT')) - before).toBe(40n * USDT);
    // The same key for another order is refused: a key is one send.
    await expect(
      w.wallet.payouts.send(`nft-payout:${payout.id}`, {
        asset: 'USDT',
        to: s.charity.address,
        amount: 41n * USDT,
      }),
    ).rejects.toThrow(/another order/);
  });

  it('refuses, when proposed, a payout in an asset the hot wallet cannot send (10068)', async () => {
    expect(w.wallet.payouts.assets()).toEqual(['USDT', 'ETH']);
    const usdc = await payouts
      .propose(s.admin.session, { charityId: Number(s.charity.id), asset: 'USDC', amount: '1' })
      .catch((e) => e);
    expect([usdc.code, usdc.data]).toEqual([Code.NFT_PAYOUT_ASSET, { sendable: ['USDT'] }]);
    // Without a chain nothing can be sent: refused at once, not approved and then failed.
    const noChain = new HotPayouts({ ...hotDeps(), chain: null, signer: null });
    sendable = () => noChain.assets();
    expect(payouts.sendable()).toEqual([]);
    const refused = await payouts
      .propose(s.admin.session, { charityId: Number(s.charity.id), asset: 'USDT', amount: '1' })
      .catch((e) => e.code);
    expect(refused).toBe(Code.NFT_PAYOUT_ASSET);
    sendable = () => w.wallet.payouts.assets();
    expect(payouts.sendable()).toEqual(['USDT']);
  });

  it('replaces a transaction never mined at a higher fee, same nonce; paid once, its gas booked', async () => {
    const before = await chain.chain.balanceOf(charityAddress(), 'USDT');
    const [fees, clearing] = [await account('fees', 'ETH'), await account('external_clearing', 'ETH')];
    const { payout, first, firstRaw } = await sendingThenLost('30');
    const key = `nft-payout:${payout.id}`;
    // The treasury counts the payout on its way out (the ledger moved it; the chain not yet).
    const outgoing = async () => (await w.wallet.treasury()).find((r) => r.asset === 'USDT')?.outgoing;
    expect(await outgoing()).toBe('30.000000');
    // Short of BUMP_BLOCKS: broadcast again (the node has lost it), not replaced.
    await chain.dev.mine(Number(BUMP_BLOCKS));
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('pending');
    expect((await hotSend(key))?.bumps).toBe(0);
    await rpc('anvil_dropTransaction', [first]);
    await chain.dev.mine(1);
    // BUMP_BLOCKS unmined: signed again with the same nonce at a fee 12.5 % higher, stored, broadcast.
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('pending');
    const replaced = await hotSend(key);
    expect([replaced?.bumps, replaced?.replaced, replaced?.state]).toEqual([1, [first], 'pending']);
    const second = (await shown(payout.id))?.txHash as Hex;
    expect(second).not.toBe(first);
    const [was, now] = [feesOf(firstRaw), feesOf(replaced?.raw_tx as Hex)];
    expect(now.maxFeePerGas * 8n >= was.maxFeePerGas * 9n).toBe(true);
    expect(now.maxPriorityFeePerGas * 8n >= was.maxPriorityFeePerGas * 9n).toBe(true);
    await chain.dev.mine(12);
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('sent');
    expect((await shown(payout.id))?.txHash).toBe(second);
    expect(await outgoing()).toBe('0.000000');
    // Paid once: the charity's address holds exactly the payout more, by the replacement.
    expect((await chain.chain.balanceOf(charityAddress(), 'USDT')) - before).toBe(30n * USDT);
    expect(await chain.chain.receipt(first)).toBeNull();
    // The gas it cost: ONE entry from the fees account to external clearing, as the chain says.
    const gas = (await chain.chain.receipt(second))?.fee ?? 0n;
    expect(gas > 0n).toBe(true);
    expect(await account('fees', 'ETH')).toBe(fees - gas);
    expect(await account('external_clearing', 'ETH')).toBe(clearing + gas);
    expect((await hotSend(key))?.state).toBe('confirmed');
  });

  it('leaves a payout unmined long after its replacements stuck for staff, then sends it when mined', async () => {
    const { payout } = await sendingThenLost('5');
    await chain.dev.mine(Number(STUCK_BLOCKS) + 1);
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('pending');
    expect((await shown(payout.id))?.state).toBe('stuck');
    // Still followed: its replacement mined, it is sent (never failed while its nonce was unused).
    await chain.dev.mine(12);
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('sent');
  });

  it('fails a payout whose nonce another transaction used: certain it is never mined, the money back', async () => {
    const before = await chain.chain.balanceOf(charityAddress(), 'USDT');
    const charity = await account('charity');
    const { payout } = await sendingThenLost('7');
    const nonce = (
      await t.db.query<{ nonce: number }>('SELECT nonce FROM wallet_hot_sends WHERE key = $1', [
        `nft-payout:${payout.id}`,
      ])
    )[0]?.nonce as number;
    // Another transaction of the hot wallet with that nonce is mined and confirmed.
    const other = await chain.signer?.sign({
      asset: 'ETH',
      to: '0x3333333333333333333333333333333333333333',
      amount: 1n,
      nonce,
    });
    await chain.chain.broadcast(other?.raw as Hex);
    await chain.dev.mine(1);
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('pending');
    await chain.dev.mine(12);
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('failed');
    expect(await shown(payout.id)).toMatchObject({ state: 'failed', reason: 'dropped' });
    expect(await account('charity')).toBe(charity);
    expect(await chain.chain.balanceOf(charityAddress(), 'USDT')).toBe(before);
    expect((await hotSend(`nft-payout:${payout.id}`))?.state).toBe('dropped');
  });

  it('fails a reverted payout and gives the money back to the charity account', async () => {
    // The hot wallet sends all its USDT away: the next transfer of USDT from it reverts.
    const hot = chain.signer?.address as Hex;
    const drain = await w.wallet.payouts.send('test-drain', {
      asset: 'USDT',
      to: '0x2222222222222222222222222222222222222222',
      amount: await chain.chain.balanceOf(hot, 'USDT'),
    });
    expect(drain.state).toBe('pending');
    const charity = await account('charity');
    const logSize = await s.log.size();
    const payout = await approved('50');
    // Mined in a block of its own and reverted: failed, whatever the confirmations. Anvil may answer
    // the send before it mines it (on a busy machine): the pass after the receipt exists fails it.
    const first = (await payouts.sendDue()).get(Number(payout.id));
    await minedOf(payout.id);
    expect(first === 'failed' ? first : (await payouts.sendDue()).get(Number(payout.id))).toBe('failed');
    expect((await chain.chain.receipt((await shown(payout.id))?.txHash as Hex))?.status).toBe('reverted');
    expect(await shown(payout.id)).toMatchObject({ state: 'failed', reason: 'reverted' });
    expect(await account('charity')).toBe(charity);
    expect(await account('pending_withdrawals')).toBe(0n);
    expect(await s.log.size()).toBe(logSize);
    expect(await payouts.sendDue()).toEqual(new Map());
  });

  it('fails a payout when there is no chain: nothing signed, the money back on the charity account', async () => {
    const noChain = new HotPayouts({ ...hotDeps(), chain: null, signer: null });
    port = (key, order) => noChain.send(key, order);
    const charity = await account('charity');
    const payout = await approved('10');
    expect((await payouts.sendDue()).get(Number(payout.id))).toBe('failed');
    expect(await shown(payout.id)).toMatchObject({ state: 'failed', reason: 'no_chain', txHash: null });
    expect(await account('charity')).toBe(charity);
    expect(await sends(`nft-payout:${payout.id}`)).toBe(0);
  });
});
