import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { deposit } from '../../test/context.ts';
import { addDays, utcDay } from '../products/figures.ts';
import { type TestInvites, testInvites } from './invites.testing.ts';

/**
 * Reversals against the real ledger on an injected clock: a friend whose only live deposit is
 * reversed is no longer qualified (nothing accrues until a new deposit, from whose day they count
 * again); a fee given back by a reversal is taken off the reward still on hold for it, or, once
 * that reward was paid, carried to the link's next rewards (never below zero).
 */
const clock = { now: Date.parse('2027-08-01T00:05:00Z') };
let t: TestDatabase;
let s: TestInvites;

const today = () => utcDay(clock.now);
/** The clock to the next day's noon after the daily run of its 00:05 (the day before accrued, payables paid). */
async function nextDay(): Promise<void> {
  clock.now = Date.parse(`${addDays(today(), 1)}T00:05:00Z`);
  expect(await s.invites.runDaily(s.invites.dueDay())).toEqual([]);
  clock.now += 12 * 3_600_000;
}
const reverse = (entryId: number, key: string) =>
  s.ctx.ledger.reverse(entryId, { actor: 'test', reason: 'booked in error', idempotencyKey: key });
type Row = {
  day: string;
  fee: string;
  fee_reversed: string;
  amount: string;
  state: string;
  reason: string | null;
};
const rowsOf = (friendId: number) =>
  t.db.query<Row & { clawback: string; withheld: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, fee::text, fee_reversed::text, amount::text, state, reason,
       clawback::text, withheld::text
     FROM invite_rewards WHERE friend_id = $1 AND NOT capped ORDER BY day`,
    [friendId],
  );

/** An inviter and their friend, registered today. */
async function pair() {
  const inviter = await s.register(undefined);
  const friend = await s.register((await s.invites.codeOf(inviter.id)).code);
  return { inviter, friend };
}

beforeAll(async () => {
  t = await openTestDatabase();
  s = await testInvites(t.db, clock);
  clock.now += 12 * 3_600_000;
}, 120_000);
afterAll(() => t?.close());
afterEach(() => expectLedgerSound(s.ctx));

describe(`a reversed deposit, ${TEST_DB}`, () => {
  it('stops the rewards of a friend whose only deposit is reversed, until a new deposit qualifies them again', async () => {
    const { inviter, friend } = await pair();
    const first = today();
    const { entryId } = await s.qualify(friend.id, 1_000_000n);
    // Money the friend holds that no deposit brought (a transfer from another customer).
    const funder = await s.ctx.customer({ live: 5_000_000_000n });
    await s.ctx.ledger.transfer({
      book: 'live',
      kind: 'transfer',
      idempotencyKey: `test-transfer:${friend.id}`,
      actor: `user:${funder.id}`,
      postings: [
        { accountId: await s.ctx.ledger.walletAccount('live', funder.id, 'USDT'), amount: -2_000_000_000n },
        { accountId: await s.ctx.ledger.walletAccount('live', friend.id, 'USDT'), amount: 2_000_000_000n },
      ],
    });
    await nextDay();
    await s.trade(friend.id, 1_000_000n, `undo-1:${friend.id}`);
    await nextDay();
    // Day 2: the only deposit reversed; the friend trades on, days 2 and 3.
    await reverse(entryId, `test-reverse:undo:${friend.id}`);
    await s.trade(friend.id, 1_000_000n, `undo-2:${friend.id}`);
    await nextDay();
    const state = async () => (await s.invites.friends(inviter.id, undefined))[0]?.state;
    expect(await state()).toBe('verified');
    await s.trade(friend.id, 1_000_000n, `undo-3:${friend.id}`);
    await nextDay();
    // Day 4: a new live deposit, and a trade: they count again from today.
    await deposit(s.ctx.ledger, friend.id, 100_000_000n, { key: `test-deposit:undo:again:${friend.id}` });
    await s.trade(friend.id, 1_000_000n, `undo-4:${friend.id}`);
    await nextDay();
    expect((await rowsOf(friend.id)).map((r) => [r.day, r.state, r.reason])).toEqual([
      [first, 'cancelled', 'deposit_reversed'],
      [addDays(first, 1), 'cancelled', 'deposit_reversed'],
      [addDays(first, 4), 'on_hold', null],
    ]);
    expect(await state()).toBe('qualified');
    expect((await s.invites.links({ search: String(friend.id) }))[0]?.qualifiedAt).toBe(addDays(first, 4));
  });
});

describe(`a reversed fee, ${TEST_DB}`, () => {
  it('takes a reversed fee off the reward on hold for it, a same-day reversal off its own day', async () => {
    const { inviter, friend } = await pair();
    const first = today();
    await s.qualify(friend.id, 1_000_000n);
    const busted = await s.trade(friend.id, 3_000_000n, `busted:${friend.id}`, 'live', false);
    await nextDay();
    expect((await rowsOf(friend.id)).map((r) => [r.fee, r.amount])).toEqual([['4000000', '800000']]);
    // The next day the 3 USDT opening is reversed (its fee back to the friend); a 2 USDT one is
    // opened and reversed the same day, beside a 1 USDT trade that stands.
    await reverse(busted, `test-reverse:busted:${friend.id}`);
    const sameDay = await s.trade(friend.id, 2_000_000n, `busted-2:${friend.id}`, 'live', false);
    await reverse(sameDay, `test-reverse:busted-2:${friend.id}`);
    await s.trade(friend.id, 1_000_000n, `stands:${friend.id}`);
    await nextDay();
    expect((await rowsOf(friend.id)).map((r) => [r.day, r.fee, r.fee_reversed, r.amount, r.state])).toEqual([
      [first, '4000000', '3000000', '200000', 'on_hold'],
      [addDays(first, 1), '3000000', '2000000', '200000', 'on_hold'],
    ]);
    expect((await s.invites.myInvite(inviter.id)).totals).toMatchObject([
      { asset: 'USDT', onHold: '0.400000' },
    ]);
  });

  it('carries the share of a reversed fee already paid to the next rewards, never below zero', async () => {
    const { inviter, friend } = await pair();
    const first = today();
    await s.qualify(friend.id, 0n);
    const paidFor = await s.trade(friend.id, 1_000_000n, `paid:${friend.id}`, 'live', false);
    for (let d = 0; d < 8; d++) await nextDay();
    expect((await rowsOf(friend.id)).map((r) => [r.day, r.amount, r.state])).toEqual([
      [first, '200000', 'paid'],
    ]);
    // Day 8: the paid-for opening is reversed; 0.2 USDT was paid for a fee given back.
    await reverse(paidFor, `test-reverse:paid:${friend.id}`);
    await s.trade(friend.id, 500_000n, `paid-8:${friend.id}`);
    await nextDay();
    await s.trade(friend.id, 2_000_000n, `paid-9:${friend.id}`);
    await nextDay();
    await s.trade(friend.id, 1_000_000n, `paid-10:${friend.id}`);
    await nextDay();
    expect((await rowsOf(friend.id)).map((r) => [r.day, r.amount, r.state, r.clawback, r.withheld])).toEqual([
      [first, '200000', 'paid', '200000', '0'],
      // 0.1 of day 8's share (all of it) and 0.1 of day 9's settle the 0.2 carried.
      [addDays(first, 8), '0', 'on_hold', '0', '100000'],
      [addDays(first, 9), '300000', 'on_hold', '0', '100000'],
      [addDays(first, 10), '200000', 'on_hold', '0', '0'],
    ]);
    const audited = await t.db.query<{ data: string }>(
      "SELECT data FROM audit_log WHERE action = 'invites.reward.clawback' AND subject = $1",
      [`user:${inviter.id}`],
    );
    expect(audited.map((a) => JSON.parse(a.data).clawback)).toEqual(['200000']);
    // Day 8's reward, nothing left of it to pay, is settled when payable without a payment.
    for (let d = 0; d < 8; d++) await nextDay();
    expect((await rowsOf(friend.id)).map((r) => r.state)).toEqual(['paid', 'paid', 'paid', 'paid']);
    expect((await s.invites.myInvite(inviter.id)).totals).toMatchObject([
      { asset: 'USDT', paid: '0.700000' },
    ]);
  });
});
