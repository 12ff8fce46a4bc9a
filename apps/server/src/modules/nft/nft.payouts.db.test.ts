import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { Hex } from '../../platform/chain.ts';
import type { TestStaff } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';
import type { ChainPayout } from '../products/ports.ts';
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
  payouts = new NftPayouts(s.nft, s.ctx.staff, {
    send: (key, order) => port(key, order),
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
  expect(errors).toEqual([]);
  await expectLedgerSound(s.ctx);
});
afterAll(async () => {
  await chain?.close();
  await t?.close();
});

const account = async (name: 'charity' | 'pending_withdrawals' | 'external_clearing') =>
  (await s.ctx.ledger.account(await s.ctx.ledger.systemAccount('live', 'USDT', name)))?.balance ?? 0n;

async function approved(amount: string) {
  const proposed = await payouts.propose(s.admin.session, { charityId: s.charity.id, asset: 'USDT', amount });
  const decided = await payouts.decide(finance.session, { payoutId: proposed.id, approve: true });
  expect(decided.state).toBe('approved');
  return decided;
}
const shown = async (id: number) => (await payouts.list()).find((p) => p.id === id);
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
    expect(passes.map((p) => p.get(payout.id) ?? 'none')).toContain('pending');
    const sending = await shown(payout.id);
    expect(sending?.state).toBe('sending');
    expect(sending?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await sends(`nft-payout:${payout.id}`)).toBe(1);
    // Mined, but short of the network's 12 confirmations: still sending, nothing logged.
    expect((await payouts.sendDue()).get(payout.id)).toBe('pending');
    await chain.dev.mine(12);
    expect((await payouts.sendDue()).get(payout.id)).toBe('sent');
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
    expect(await markPayoutSending(t.db, payout.id)).toBe(true);
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
    expect((await payouts.sendDue()).get(payout.id)).toBe('sent');
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
    // Mined at once (a block per transaction) and reverted: failed, whatever the confirmations.
    expect((await payouts.sendDue()).get(payout.id)).toBe('failed');
    expect((await chain.chain.receipt((await shown(payout.id))?.txHash as Hex))?.status).toBe('reverted');
    expect(await shown(payout.id)).toMatchObject({ state: 'failed', reason: 'reverted' });
    expect(await account('charity')).toBe(charity);
    expect(await account('pending_withdrawals')).toBe(0n);
    expect(await s.log.size()).toBe(logSize);
    expect(await payouts.sendDue()).toEqual(new Map());
  });

  it('fails a payout when there is no chain: nothing signed, the money back on the charity account', async () => {
    const noChain = new HotPayouts({
      db: t.db,
      chain: null,
      signer: null,
      networks: w.wallet.networks,
      now: () => clock.now,
    });
    port = (key, order) => noChain.send(key, order);
    const charity = await account('charity');
    const payout = await approved('10');
    expect((await payouts.sendDue()).get(payout.id)).toBe('failed');
    expect(await shown(payout.id)).toMatchObject({ state: 'failed', reason: 'no_chain', txHash: null });
    expect(await account('charity')).toBe(charity);
    expect(await sends(`nft-payout:${payout.id}`)).toBe(0);
  });
});
