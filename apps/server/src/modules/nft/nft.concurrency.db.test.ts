import { Code } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { TestCustomer } from '../../test/context.ts';
import { type TestNft, testNft } from './nft.testing.ts';

/**
 * The last second of a hot auction: 200 bidders send 1,000 bids at once (quoted just before, all
 * committed together, in the last second before the end). Whatever order the ledger's batches take
 * them in: every accepted bid beat the one it displaced by the 5 % increment, exactly one leads,
 * every other hold is voided, the end is extended to 10 minutes after the burst, settlement pays
 * the charity the winner's bid once, and the ledger is sound.
 */
const BIDDERS = 200;
const BIDS = 1000;
const USDT = 1_000_000n;
let t: TestDatabase;
let chain: TestChain;
let s: TestNft;
const clock = { now: Date.parse('2027-04-01T12:00:00Z') };
const bidders: TestCustomer[] = [];

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
}

beforeAll(async () => {
  t = await openTestDatabase();
  chain = await startTestChain();
  s = await testNft(t.db, clock, chain);
  for (let i = 0; i < BIDDERS; i += 20)
    bidders.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, BIDDERS - i) }, () => s.ctx.customer({ live: 5_000_000n * USDT })),
      )),
    );
}, 600_000);
afterAll(async () => {
  await chain?.close();
  await t?.close();
});

describe(`a hot auction on ${TEST_DB}`, () => {
  it('1,000 bids from 200 bidders in the last second: one winner, every other hold voided', async () => {
    const drop = await s.drop({ saleType: 'auction', startPrice: '100', reserve: '500' });
    const endsAt = Date.parse(drop.endsAt as string);
    clock.now = endsAt - 900;
    const next = random(34);
    const asks = Array.from({ length: BIDS }, (_, i) => ({
      bidder: bidders[i % BIDDERS] as TestCustomer,
      // 100 to 1,000,000 USDT, in cents: most are too low by the time they land.
      cents: 10_000n + BigInt(Math.floor(next() * 99_990_000)),
    }));
    const quotes = await Promise.all(
      asks.map((a) =>
        s.nft.quote('live', a.bidder.id, {
          dropId: Number(drop.id),
          kind: 'bid',
          amount: `${a.cents / 100n}.${(a.cents % 100n).toString().padStart(2, '0')}`,
        }),
      ),
    );
    const results = await Promise.allSettled(
      quotes.map((q, i) =>
        s.nft.commit('live', (asks[i] as (typeof asks)[number]).bidder.id, {
          quoteId: q.quoteId,
          requestId: `hot-${i}-bid`,
        }),
      ),
    );
    const codes = results.map((r) =>
      r.status === 'fulfilled' ? 'placed' : (r.reason as { code?: number }).code,
    );
    expect(
      codes.every((c) => c === 'placed' || c === Code.NFT_BID_TOO_LOW || c === Code.NFT_ALREADY_LEADING),
    ).toBe(true);
    const bids = await t.db.query<{
      id: string;
      user_id: string;
      amount: string;
      state: string;
      hold_state: string;
    }>('SELECT id, user_id, amount, state, hold_state FROM nft_bids WHERE drop_id = $1 ORDER BY id', [
      drop.id,
    ]);
    expect(bids).toHaveLength(BIDS);
    const accepted = bids.filter((b) => b.state !== 'refused');
    expect(accepted.length).toBe(codes.filter((c) => c === 'placed').length);
    // In the order they were written, each accepted bid beat the one before by 5 % (rounded up).
    for (let i = 1; i < accepted.length; i++) {
      const before = BigInt((accepted[i - 1] as (typeof accepted)[number]).amount);
      expect(
        BigInt((accepted[i] as (typeof accepted)[number]).amount) >=
          before + (before * 500n + 9_999n) / 10_000n,
      ).toBe(true);
    }
    const leading = bids.filter((b) => b.state === 'leading');
    expect(leading).toHaveLength(1);
    const top = leading[0] as (typeof bids)[number];
    expect(top).toEqual(accepted.at(-1));
    // The end moved to 10 minutes after the burst's second.
    const view = (await s.nft.detail('live', Number(drop.id), null)).nft;
    expect(Date.parse(view.endsAt as string)).toBe(clock.now + 600_000);
    const charity = await s.ctx.ledger.systemAccount('live', 'USDT', 'charity');
    const before = (await s.ctx.ledger.account(charity))?.balance ?? 0n;
    clock.now = Date.parse(view.endsAt as string);
    expect(
      (await Promise.all([s.nft.settleDue(), s.nft.settleDue(), s.nft.settleDue()])).reduce((a, b) => a + b),
    ).toBe(1);
    const after = await t.db.query<{ state: string; hold_state: string; n: string }>(
      'SELECT state, hold_state, count(*) AS n FROM nft_bids WHERE drop_id = $1 GROUP BY 1, 2 ORDER BY 1, 2',
      [drop.id],
    );
    expect(after.filter((r) => r.state === 'won').map((r) => [r.hold_state, r.n])).toEqual([['posted', '1']]);
    expect(after.filter((r) => r.state !== 'won').every((r) => r.hold_state === 'voided')).toBe(true);
    const pending = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ledger_holds WHERE status = 'pending' AND reference = $1`,
      [`nft:${drop.id}`],
    );
    expect(pending[0]?.n).toBe('0');
    expect(((await s.ctx.ledger.account(charity))?.balance ?? 0n) - before).toBe(BigInt(top.amount));
    expect((await s.nft.myNfts('live', Number(top.user_id))).map((m) => m.dropId)).toEqual([drop.id]);
    await expectLedgerSound({ db: t.db, ledger: s.ctx.ledger, audit: s.ctx.audit });
  }, 600_000);
});
