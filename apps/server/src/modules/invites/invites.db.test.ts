import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { deposit } from '../../test/context.ts';
import { addDays } from '../products/figures.ts';
import { payoutsForStaff } from './invites.rewards.repository.ts';
import { type TestInvites, testInvites } from './invites.testing.ts';

/**
 * 400 days of invited friends against the real ledger on an injected clock. Ada invites Flo (who
 * qualifies on the day she registers and trades every day, in both books, and swaps weekly), Gus
 * (who qualifies on day 12 and whose second deposit is reversed on day 40) and Hal (never
 * verified). Ada gives 5 % back from day 1. The daily run goes every 8 days (catching up), so
 * days accrue in bulk. Each day's reward is the share of the fees the ledger recorded, to the
 * minor unit; nothing after registration + 365 days; nothing from the demo book; the reversed
 * deposit cancels what was on hold; one `referral` entry per inviter and day; the ledger sound.
 */
const DAYS = 400;
const RUN_EVERY = 8;
const START = '2027-01-01';
const REVERSED_ON = 40;
let t: TestDatabase;
let s: TestInvites;
const clock = { now: Date.parse(`${START}T00:05:00Z`) };
const at = (d: number, time = '12:00:00') => Date.parse(`${addDays(START, d)}T${time}Z`);

/** The live fees each friend paid each day, as this test booked them: day → asset → minor units. */
const fees = new Map<string, Map<string, bigint>>();
function booked(friend: string, day: string, asset: string, fee: bigint) {
  const key = `${friend}:${day}`;
  const byAsset = fees.get(key) ?? new Map<string, bigint>();
  byAsset.set(asset, (byAsset.get(asset) ?? 0n) + fee);
  fees.set(key, byAsset);
}

const fee1 = (d: number) => 1_000_000n + BigInt((d * 7919) % 3_000_000);
const fee2 = (d: number) => 2_000_000n + BigInt((d * 104_729) % 1_000_000);

let ada: { id: number };
let flo: { id: number };
let gus: { id: number };
let hal: { id: number };
let reversedAt = 0;

beforeAll(async () => {
  t = await openTestDatabase();
  s = await testInvites(t.db, clock);
  ada = await s.register(undefined, { email: `ada${process.pid}@example.com` });
  const code = (await s.invites.codeOf(ada.id)).code;
  await s.invites.setRebate(ada.id, 500);
  clock.now = at(0);
  flo = await s.register(code);
  hal = await s.register(code);
  await s.qualify(flo.id, 0n);
  await deposit(s.ctx.ledger, flo.id, 10_000_000_000n, { key: 'test-deposit:flo:more' });
  await deposit(s.ctx.ledger, hal.id, 1_000_000_000n, { key: 'test-deposit:hal' });
  let gusSecond = 0;
  for (let d = 0; d < DAYS; d++) {
    clock.now = at(d, '00:05:00');
    if (d % RUN_EVERY === 0) expect(await s.invites.runDaily(s.invites.dueDay())).toEqual([]);
    clock.now = at(d);
    const day = addDays(START, d);
    if (d === 10) gus = await s.register(code);
    if (d === 12) {
      await s.qualify(gus.id, 0n);
      await deposit(s.ctx.ledger, gus.id, 10_000_000_000n, { key: 'test-deposit:gus:more' });
      gusSecond = (await deposit(s.ctx.ledger, gus.id, 100_000_000n, { key: 'test-deposit:gus:second' }))
        .entryId;
    }
    if (d === REVERSED_ON) {
      await s.ctx.ledger.reverse(gusSecond, {
        actor: 'test',
        reason: 'chain reorganised',
        idempotencyKey: 'test-reverse:gus',
      });
      reversedAt = d;
    }
    // The day's trades at once (the ledger batches them), booked as the test expects them counted.
    const trades = [
      s.trade(flo.id, fee1(d), `flo:${d}`, 'live', false),
      s.trade(flo.id, 5_000_000n, `flo-demo:${d}`, 'demo', false),
    ];
    booked('flo', day, 'USDT', fee1(d));
    if (d % 7 === 0) {
      trades.push(s.swap(flo.id, 1_000n + BigInt(d), `flo-swap:${d}`));
      booked('flo', day, 'BTC', 1_000n + BigInt(d));
    }
    if (d >= 12) {
      trades.push(s.trade(gus.id, fee2(d), `gus:${d}`, 'live', false));
      booked('gus', day, 'USDT', fee2(d));
    }
    if (d % 10 === 0) trades.push(s.trade(hal.id, 1_000_000n, `hal:${d}`, 'live', false));
    await Promise.all(trades);
  }
  // Past the last hold: everything payable is paid; a second run the same day changes nothing.
  clock.now = at(DAYS + 8, '00:05:00');
  expect(await s.invites.runDaily(s.invites.dueDay())).toEqual([]);
  clock.now = at(DAYS + 16, '00:05:00');
  expect(await s.invites.runDaily(s.invites.dueDay())).toEqual([]);
  // 400 days of daily runs: on PGlite beside the suite's other lanes this setup took over 120 s.
}, 300_000);
afterAll(() => t?.close());

type Row = {
  friend_id: string;
  day: string;
  asset: string;
  fee: string;
  amount: string;
  rebate: string;
  state: string;
  reason: string | null;
  payable_on: string;
  paid_at: Date | string | null;
};
const rowsOf = async (friendId: number) =>
  t.db.query<Row>(
    `SELECT friend_id, to_char(day, 'YYYY-MM-DD') AS day, asset, fee::text, amount::text, rebate::text, state, reason,
       to_char(payable_on, 'YYYY-MM-DD') AS payable_on, paid_at
     FROM invite_rewards WHERE friend_id = $1 ORDER BY day, asset`,
    [friendId],
  );

describe(`400 days of invite rewards, ${TEST_DB}`, () => {
  it('pays each day the share of the live fees the ledger recorded, to the minor unit, for 365 days', async () => {
    for (const [name, friend, registered, qualified] of [
      ['flo', flo, 0, 0],
      ['gus', gus, 10, 12],
    ] as const) {
      const rows = await rowsOf(friend.id);
      const until = addDays(START, registered + 365);
      const expected = [...fees]
        .filter(([key]) => key.startsWith(`${name}:`))
        .flatMap(([key, byAsset]) =>
          [...byAsset].map(([asset, fee]) => ({ day: key.slice(name.length + 1), asset, fee })),
        )
        .filter((f) => f.day >= addDays(START, qualified) && f.day <= until)
        .sort((a, b) => a.day.localeCompare(b.day) || a.asset.localeCompare(b.asset));
      expect(rows.map((r) => [r.day, r.asset, r.fee])).toEqual(
        expected.map((f) => [f.day, f.asset, String(f.fee)]),
      );
      for (const r of rows) {
        const fee = BigInt(r.fee);
        const rebateBps = r.day >= addDays(START, 1) ? 500n : 0n;
        expect([r.day, r.amount, r.rebate]).toEqual([
          r.day,
          String((fee * 2000n) / 10_000n - (fee * rebateBps) / 10_000n),
          String((fee * rebateBps) / 10_000n),
        ]);
      }
      expect(rows.at(-1)?.day).toBe(until);
    }
    // Hal never verified: nothing. Nothing of the demo book: every row's fee is a live one (above).
    expect(await rowsOf(hal.id)).toEqual([]);
  });

  it('cancelled what the reversed deposit left on hold, and paid the rest after its hold', async () => {
    const gusRows = await rowsOf(gus.id);
    const reversedDay = addDays(START, reversedAt);
    // On day 40 the rewards of days up to 33 were paid (payable on day + 7); 34 to 40 were on hold.
    expect(gusRows.filter((r) => r.state === 'cancelled').map((r) => [r.day, r.reason])).toEqual(
      Array.from({ length: 7 }, (_, i) => [addDays(START, 34 + i), 'deposit_reversed']),
    );
    expect(gusRows.filter((r) => r.day <= reversedDay && r.state === 'paid').at(-1)?.day).toBe(
      addDays(START, 33),
    );
    for (const r of [...gusRows, ...(await rowsOf(flo.id))].filter((x) => x.state !== 'cancelled')) {
      expect(r.state).toBe('paid');
      expect(new Date(r.paid_at ?? 0).toISOString().slice(0, 10) >= r.payable_on).toBe(true);
    }
  });

  it('paid them from the live fees account, one referral entry per inviter and day, each told once', async () => {
    const paid = await t.db.query<{ day: string; n: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::text AS n FROM invite_payouts WHERE inviter_id = $1 GROUP BY day`,
      [ada.id],
    );
    const paidDays = await t.db.query<{ n: string }>(
      "SELECT count(DISTINCT day)::text AS n FROM invite_rewards WHERE inviter_id = $1 AND state = 'paid'",
      [ada.id],
    );
    expect(paid.every((p) => p.n === '1')).toBe(true);
    expect(String(paid.length)).toBe(paidDays[0]?.n);
    // What each account got in referral entries: Ada her parts, the friends their rebates; the fees account paid both.
    const credited = await t.db.query<{ owner: string | null; kind: string; asset: string; total: string }>(
      `SELECT a.owner_id AS owner, a.kind, a.asset, sum(p.amount)::text AS total
       FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id JOIN ledger_accounts a ON a.id = p.account_id
       WHERE e.kind = 'referral' GROUP BY 1, 2, 3`,
    );
    const sums = await t.db.query<{
      asset: string;
      amount: string;
      rebate: string;
      flo: string;
      gus: string;
    }>(
      `SELECT asset, sum(amount)::text AS amount, sum(rebate)::text AS rebate,
         sum(rebate) FILTER (WHERE friend_id = $1)::text AS flo, coalesce(sum(rebate) FILTER (WHERE friend_id = $2), 0)::text AS gus
       FROM invite_rewards WHERE state = 'paid' GROUP BY asset`,
      [flo.id, gus.id],
    );
    for (const sum of sums) {
      const of = (owner: number | null, kind: string) =>
        credited.find(
          (c) =>
            c.asset === sum.asset && c.kind === kind && (c.owner === null ? null : Number(c.owner)) === owner,
        )?.total ?? '0';
      expect([of(ada.id, 'wallet'), of(flo.id, 'wallet'), of(gus.id, 'wallet')]).toEqual([
        sum.amount,
        sum.flo,
        sum.gus,
      ]);
      expect(of(null, 'fees')).toBe(String(-(BigInt(sum.amount) + BigInt(sum.rebate))));
    }
    const told = await t.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM notices WHERE user_id = $1 AND kind = 'invite_reward_paid'",
      [ada.id],
    );
    expect(told[0]?.n).toBe(String(paid.length));
    await expectLedgerSound(s.ctx);
  });

  it("lists staff every payout once, whatever the page size, a day's payouts split across pages included", async () => {
    // Beside Ada's, three more inviters paid on one day and two on the next (their entries real).
    for (const [i, day] of ['2028-06-02', '2028-06-02', '2028-06-02', '2028-06-01', '2028-06-01'].entries()) {
      const { entryId } = await deposit(s.ctx.ledger, hal.id, 1_000n, { key: `test-deposit:page:${i}` });
      await t.db.query(
        'INSERT INTO invite_payouts (inviter_id, day, entry_id, paid_at) VALUES ($1, $2, $3, now())',
        [900_000 + i, day, entryId],
      );
    }
    const all = await payoutsForStaff(t.db, null, 10_000);
    expect(all.filter((p) => p.day === '2028-06-02')).toHaveLength(3);
    for (const size of [1, 2, 3]) {
      const seen: typeof all = [];
      let after: { day: string; inviterId: number } | null = null;
      for (;;) {
        const page = await payoutsForStaff(t.db, after, size);
        seen.push(...page);
        const end = page.at(-1);
        if (page.length < size || !end) break;
        after = { day: end.day, inviterId: end.inviterId };
      }
      expect(seen).toEqual(all);
    }
  });

  it('changes nothing when a day is run again', async () => {
    const before = await t.db.query('SELECT id, state, entry_id FROM invite_rewards ORDER BY id');
    expect(await s.invites.runDaily(s.invites.dueDay())).toEqual([]);
    clock.now += 3_600_000;
    expect(await s.invites.runDaily(s.invites.dueDay())).toEqual([]);
    expect(await t.db.query('SELECT id, state, entry_id FROM invite_rewards ORDER BY id')).toEqual(before);
    expect((await s.invites.friends(ada.id, undefined)).map((f) => f.state).sort()).toEqual([
      'expired',
      'expired',
      'expired',
    ]);
  });
});
