import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { TestCustomer } from '../../test/context.ts';
import { type TestNft, testNft } from './nft.testing.ts';

/**
 * Over random bid sequences (bidders, amounts, the time between bids), the service and a model
 * of the stated rules written here, independently of the module, agree: which bids are refused,
 * the end after each late bid, the winner (the highest valid bid) or none below the reserve, and
 * the charity receives exactly the stated share of the winning bid (all of it less the platform
 * fee the drop states, 0 to 20 %), the platform exactly the fee, in ONE entry, once; the donation
 * log records only the charity's part.
 */
const USDT = 1_000_000n;
const MINUTE = 60_000;
let t: TestDatabase;
let chain: TestChain;
let s: TestNft;
const clock = { now: Date.parse('2027-05-01T12:00:00Z') };
let bidders: TestCustomer[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  chain = await startTestChain();
  s = await testNft(t.db, clock, chain);
  bidders = await Promise.all([0, 1, 2, 3].map(() => s.ctx.customer({ live: 10_000_000n * USDT })));
}, 180_000);
afterAll(async () => {
  await chain?.close();
  await t?.close();
});

type Step = { bidder: number; dollars: number; cents: number; waitMinutes: number };
type Model = { leader: { bidder: number; amount: bigint } | null; end: number; refused: number };

/** The rules as the page states them, written again for the test. */
function modelStep(m: Model, step: Step, now: number, start: bigint): boolean {
  const amount = BigInt(step.dollars) * USDT + BigInt(step.cents) * 10_000n;
  if (now >= m.end) return false;
  const least = m.leader === null ? start : m.leader.amount + (m.leader.amount * 5n + 99n) / 100n;
  if (amount < least || m.leader?.bidder === step.bidder) return false;
  m.leader = { bidder: step.bidder, amount };
  if (m.end - now < 10 * MINUTE) m.end = now + 10 * MINUTE;
  return true;
}

const steps = fc.array(
  fc.record({
    bidder: fc.integer({ min: 0, max: 3 }),
    dollars: fc.integer({ min: 50, max: 3000 }),
    cents: fc.integer({ min: 0, max: 99 }),
    waitMinutes: fc.integer({ min: 0, max: 25 }),
  }),
  { minLength: 1, maxLength: 12 },
);

/** The platform fee a drop states: 0 as often as not, else up to the 20 % allowed. */
const fees = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000 }));

describe(`random bid sequences on ${TEST_DB}`, () => {
  it('the winner is the highest valid bid and the charity receives exactly its share', async () => {
    const charity = await s.ctx.ledger.systemAccount('live', 'USDT', 'charity');
    const platform = await s.ctx.ledger.systemAccount('live', 'USDT', 'fees');
    await fc.assert(
      fc.asyncProperty(
        steps,
        fc.integer({ min: 0, max: 2000 }),
        fees,
        async (seq, reserveDollars, feeBps) => {
          const reserve = reserveDollars >= 100 ? BigInt(reserveDollars) * USDT : null;
          const drop = await s.drop({
            saleType: 'auction',
            startPrice: '100',
            platformFeeBps: feeBps,
            charityShareBps: 10_000 - feeBps,
            ...(reserve === null ? {} : { reserve: String(reserveDollars) }),
          });
          // Stated on the drop before the first bid.
          expect((await s.nft.detail('live', Number(drop.id), null)).nft.rules.platformFeeBps).toBe(feeBps);
          const model: Model = { leader: null, end: Date.parse(drop.endsAt as string), refused: 0 };
          for (const step of seq) {
            clock.now += step.waitMinutes * MINUTE;
            const accepted = modelStep(model, step, clock.now, 100n * USDT);
            const bidder = bidders[step.bidder] as TestCustomer;
            const placed = await s
              .bid(bidder.id, drop.id, `${step.dollars}.${String(step.cents).padStart(2, '0')}`)
              .then(() => true)
              .catch(() => false);
            expect(placed).toBe(accepted);
            expect((await s.nft.detail('live', Number(drop.id), null)).nft.endsAt).toBe(
              new Date(model.end).toISOString(),
            );
          }
          const before = (await s.ctx.ledger.account(charity))?.balance ?? 0n;
          const feesBefore = (await s.ctx.ledger.account(platform))?.balance ?? 0n;
          const logBefore = await s.log.size();
          clock.now = Math.max(clock.now, model.end);
          expect(await s.nft.settleDue()).toBe(1);
          expect(await s.nft.settleDue()).toBe(0);
          const sold = model.leader !== null && (reserve === null || model.leader.amount >= reserve);
          const price = sold ? (model.leader?.amount ?? 0n) : 0n;
          // The model's split: the fee floor(price × bps / 10,000), the charity all the rest.
          const fee = (price * BigInt(feeBps)) / 10_000n;
          const given = ((await s.ctx.ledger.account(charity))?.balance ?? 0n) - before;
          expect(given).toBe(price - fee);
          expect(((await s.ctx.ledger.account(platform))?.balance ?? 0n) - feesBefore).toBe(fee);
          if (sold) {
            const postings = await t.db.query<{ n: string }>(
              `SELECT count(*) AS n FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id
             WHERE e.idempotency_key = $1`,
              [`nft-sale:${drop.id}`],
            );
            expect(postings[0]?.n).toBe(fee > 0n ? '3' : '2');
            const [leaf] = await s.log.leaves(null, 1, Number(drop.id));
            expect([await s.log.size(), leaf?.amount]).toEqual([logBefore + 1, (price - fee).toString()]);
          }
          const view = (await s.nft.detail('live', Number(drop.id), null)).nft;
          expect(view.state).toBe(sold ? 'sold' : 'unsold');
          if (sold) {
            const owner = bidders[model.leader?.bidder ?? 0] as TestCustomer;
            expect((await s.nft.myNfts('live', owner.id)).some((n) => n.dropId === drop.id)).toBe(true);
          }
          const open = await t.db.query<{ n: string }>(
            `SELECT count(*) AS n FROM ledger_holds WHERE status = 'pending' AND reference = $1`,
            [`nft:${drop.id}`],
          );
          expect(open[0]?.n).toBe('0');
        },
      ),
      { numRuns: 25, seed: 34 },
    );
    await expectLedgerSound({ db: t.db, ledger: s.ctx.ledger, audit: s.ctx.audit });
  }, 600_000);
});
