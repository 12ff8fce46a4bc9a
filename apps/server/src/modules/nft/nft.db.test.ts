import { Code } from '@swx/contract';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { TestCustomer } from '../../test/context.ts';
import { NftPayouts } from './nft.payouts.ts';
import { refusal, type TestNft, testNft } from './nft.testing.ts';

/**
 * Sales on the real ledger, notices and chain, on an injected clock: a bid is a hold and an
 * outbid one is voided with a notice; a late bid extends the end; buy-now and fixed prices end
 * the sale; the reserve decides sold or unsold; settlement posts once however often it runs; a
 * customer reaches only their own quotes, book and NFTs.
 */
let t: TestDatabase;
let chain: TestChain;
let s: TestNft;
const clock = { now: Date.parse('2027-03-01T12:00:00Z') };
const USDT = 1_000_000n;
let ada: TestCustomer;
let bo: TestCustomer;
let cy: TestCustomer;

beforeAll(async () => {
  t = await openTestDatabase();
  chain = await startTestChain();
  s = await testNft(t.db, clock, chain);
  [ada, bo, cy] = (await Promise.all([1, 2, 3].map(() => s.ctx.customer({ live: 100_000n * USDT })))) as [
    TestCustomer,
    TestCustomer,
    TestCustomer,
  ];
}, 180_000);
afterAll(async () => {
  await chain?.close();
  await t?.close();
});
afterEach(() => expectLedgerSound({ db: t.db, ledger: s.ctx.ledger, audit: s.ctx.audit }));

const pending = async (userId: number) =>
  (
    await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
       WHERE a.owner_id = $1 AND h.status = 'pending'`,
      [userId],
    )
  )[0]?.n;

describe(`charity NFT sales on ${TEST_DB}`, () => {
  it('mints on the chain, holds bids, voids the outbid one with a notice, extends a late end, sells once', async () => {
    const drop = await s.drop({ saleType: 'auction', reserve: '150' });
    // Shown EIP-55 checksummed (kept lowercase).
    expect(drop.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(drop.contractAddress).toBe(getAddress(drop.contractAddress as string));
    expect(drop.tokenId).toBe(String(drop.id));
    expect(drop.rules.minIncrementBps).toBe(500);
    // The artwork, uploaded by staff through the uploads module, is public once minted.
    expect(await s.uploads.filePublic(drop.artworkUploadId)).not.toBeNull();
    expect(await refusal(s.bid(ada.id, drop.id, '99'))).toBe(Code.NFT_BID_TOO_LOW);
    await s.bid(ada.id, drop.id, '120');
    expect(await pending(ada.id)).toBe('1');
    // 120 + 5 % = 126: 125 is too low, 126 beats it.
    expect(await refusal(s.bid(bo.id, drop.id, '125.99'))).toBe(Code.NFT_BID_TOO_LOW);
    expect(await refusal(s.bid(ada.id, drop.id, '200'))).toBe(Code.NFT_ALREADY_LEADING);
    await s.bid(bo.id, drop.id, '126');
    expect(await pending(ada.id)).toBe('0');
    expect(await pending(bo.id)).toBe('1');
    const notices = await s.ctx.notices.list(ada.id, 'en');
    expect(
      notices.some((n) => n.noticeContent.includes('outbid') && n.noticeContent.includes(drop.name)),
    ).toBe(true);
    const detail = await s.nft.detail('live', Number(drop.id), bo.id);
    expect(detail.nft.reserveMet).toBe(false);
    expect(detail.bids.map((b) => [b.amount, b.state, b.mine])).toEqual([
      ['126.000000', 'leading', true],
      ['120.000000', 'outbid', false],
    ]);
    // A bid 5 minutes before the end moves it to 10 minutes after the bid.
    const end = Date.parse(detail.nft.endsAt as string);
    clock.now = end - 5 * 60_000;
    await s.bid(cy.id, drop.id, '160');
    const extended = (await s.nft.detail('live', Number(drop.id), null)).nft;
    expect(Date.parse(extended.endsAt as string)).toBe(clock.now + 10 * 60_000);
    expect(extended.reserveMet).toBe(true);
    expect(await s.nft.settleDue()).toBe(0);
    clock.now = Date.parse(extended.endsAt as string);
    const charity = await s.ctx.ledger.systemAccount('live', 'USDT', 'charity');
    const before = (await s.ctx.ledger.account(charity))?.balance ?? 0n;
    // Two runs at once and a third after: one sale, one entry.
    expect((await Promise.all([s.nft.settleDue(), s.nft.settleDue()])).reduce((a, b) => a + b)).toBe(1);
    expect(await s.nft.settleDue()).toBe(0);
    expect(((await s.ctx.ledger.account(charity))?.balance ?? 0n) - before).toBe(160n * USDT);
    const mine = await s.nft.myNfts('live', cy.id);
    expect(mine.map((m) => [m.dropId, m.price, m.donation, m.state])).toEqual([
      [drop.id, '160.000000', '160.000000', 'held'],
    ]);
    expect(await s.nft.myNfts('live', bo.id)).toEqual([]);
    // The donation is a leaf of the public log, written with the sale; the page's cumulative comes from the log.
    const [leaf] = await s.log.leaves(null, 1);
    expect(leaf && [leaf.kind, leaf.dropId, leaf.tokenId, leaf.asset, leaf.amount]).toEqual([
      'sale',
      Number(drop.id),
      String(drop.id),
      'USDT',
      String(160n * USDT),
    ]);
    expect((await s.nft.detail('live', Number(drop.id), null)).nft.cumulativeDonation).toBe('160.000000');
    expect(await pending(cy.id)).toBe('0');
    expect(await refusal(s.bid(ada.id, drop.id, '500'))).toBe(Code.NFT_SALE_CLOSED);
  });

  it('closes an auction without a bid at the reserve unsold, and voids its last hold', async () => {
    const drop = await s.drop({ saleType: 'auction', reserve: '1000' });
    await s.bid(ada.id, drop.id, '500');
    clock.now += 61 * 60_000;
    expect(await s.nft.settleDue()).toBe(1);
    expect(await s.nft.settleDue()).toBe(0);
    const view = (await s.nft.detail('live', Number(drop.id), ada.id)).nft;
    expect([view.state, view.reserveMet, view.currentBid]).toEqual(['unsold', false, '500.000000']);
    expect(await pending(ada.id)).toBe('0');
    expect(await s.nft.myNfts('live', ada.id)).toHaveLength(0);
  });

  it('buy-now ends the auction at once; a fixed price sells to one of two buyers at once', async () => {
    const auction = await s.drop({ saleType: 'auction', buyNow: '900' });
    await s.bid(bo.id, auction.id, '200');
    const order = await s.bid(ada.id, auction.id, '900', { kind: 'buy' });
    expect(order.state).toBe('bought');
    expect(await pending(bo.id)).toBe('0');
    const fixed = await s.drop({ saleType: 'fixed', startPrice: '250' });
    const [first, second] = await Promise.allSettled([
      s.bid(bo.id, fixed.id, '', { kind: 'buy' }),
      s.bid(cy.id, fixed.id, '', { kind: 'buy' }),
    ]);
    const outcomes = [first, second].map((o) => (o.status === 'fulfilled' ? o.value.state : 'refused'));
    expect(outcomes.sort()).toEqual(['bought', 'refused']);
    expect(await pending(bo.id)).toBe('0');
    expect(await pending(cy.id)).toBe('0');
    expect((await s.nft.detail('live', Number(fixed.id), null)).nft.state).toBe('sold');
  });

  it('refuses an artwork another drop took', async () => {
    const made = await s.drop({ saleType: 'fixed' });
    const draft = await s.desk
      .createDrop(s.admin.session, {
        book: 'live',
        name: 'Second use',
        description: '',
        creator: 'Mia, 9',
        artworkUploadId: made.artworkUploadId,
        charityId: Number(s.charity.id),
        asset: 'USDT',
        saleType: 'fixed',
        startPrice: '10',
      })
      .catch((e) => e);
    expect([draft.code, draft.data]).toEqual([
      Code.INVALID_INPUT,
      [{ path: 'artworkUploadId', issue: 'used' }],
    ]);
  });

  it('pays the charity account out with four eyes: never by the proposer, never beyond its balance', async () => {
    const payouts = new NftPayouts(s.nft, s.ctx.staff, {
      send: null,
      appendLeaf: (tx, leaf) => s.log.append(tx, leaf),
    });
    const second = await s.ctx.staffMember('finance');
    const charity = await s.ctx.ledger.systemAccount('live', 'USDT', 'charity');
    const held = (await s.ctx.ledger.account(charity))?.balance ?? 0n;
    expect(held > 0n).toBe(true);
    const over = await payouts
      .propose(s.admin.session, {
        charityId: Number(s.charity.id),
        asset: 'USDT',
        amount: String(held / USDT + 1n),
      })
      .catch((e) => e.code);
    expect(over).toBe(Code.NFT_PAYOUT_OVER_BALANCE);
    const proposed = await payouts.propose(s.admin.session, {
      charityId: Number(s.charity.id),
      asset: 'USDT',
      amount: '100',
    });
    expect(proposed.state).toBe('proposed');
    expect(
      await refusal(payouts.decide(s.admin.session, { payoutId: Number(proposed.id), approve: true })),
    ).toBe(Code.OWN_PROPOSAL);
    const approved = await payouts.decide(second.session, { payoutId: Number(proposed.id), approve: true });
    expect([approved.state, approved.decidedBy]).toEqual(['approved', second.email]);
    expect((await s.ctx.ledger.account(charity))?.balance).toBe(held - 100n * USDT);
    expect(
      await refusal(payouts.decide(second.session, { payoutId: Number(proposed.id), approve: true })),
    ).toBe(Code.NFT_DROP_STATE);
  });

  it('gives a customer nothing of another customer or of the other book', async () => {
    const drop = await s.drop({ saleType: 'auction' });
    const quote = await s.nft.quote('live', ada.id, { dropId: Number(drop.id), kind: 'bid', amount: '300' });
    expect(
      await refusal(s.nft.commit('live', bo.id, { quoteId: quote.quoteId, requestId: 'steal-quote-1' })),
    ).toBe(Code.NOT_FOUND);
    expect(
      await refusal(s.nft.commit('demo', ada.id, { quoteId: quote.quoteId, requestId: 'other-book-1' })),
    ).toBe(Code.NOT_FOUND);
    expect(await refusal(s.nft.detail('demo', Number(drop.id), ada.id))).toBe(Code.NOT_FOUND);
    expect(await s.nft.market('demo', {}, ada.id)).toEqual([]);
    // The market's filters: the drop is live, an auction, not upcoming nor ended.
    const ids = async (q: Parameters<typeof s.nft.market>[1]) =>
      (await s.nft.market('live', q, null)).map((d) => d.id);
    expect(await ids({ state: 'live', saleType: 'auction' })).toContain(drop.id);
    expect(await ids({ state: 'upcoming' })).not.toContain(drop.id);
    expect(await ids({ state: 'ended' })).not.toContain(drop.id);
    expect(await ids({ saleType: 'fixed' })).not.toContain(drop.id);
    // Demo money cannot bid on a live drop: the live book's wallet holds the bid.
    expect(await refusal(s.bid(ada.id, drop.id, '300', { book: 'demo' }))).toBe(Code.NOT_FOUND);
  });
});
