import { Code } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { ApiError } from '../../platform/http.ts';
import { addDays, utcDay } from '../products/figures.ts';
import { type TestInvites, testInvites } from './invites.testing.ts';

/**
 * The programme's rules against the real services on an injected clock: attribution at sign-up
 * only (an unknown code refused before the verification code is used, no self-invite, a link for
 * good), each same-person rule and the daily cap refusing its reward, a staff freeze cancelling
 * what is on hold, and one customer never reading another's friends or rewards.
 */
const clock = { now: Date.parse('2027-03-01T00:05:00Z') };
let t: TestDatabase;
let s: TestInvites;

const today = () => utcDay(clock.now);
/** The clock to the next day's 00:05 and the daily run (the day before accrued, payables paid). */
async function nextDay(): Promise<string[]> {
  clock.now = Date.parse(`${addDays(today(), 1)}T00:05:00Z`);
  return s.invites.runDaily(s.invites.dueDay());
}
const codeOf = async (userId: number) => (await s.invites.codeOf(userId)).code;
const rewardsOf = (userId: number) => s.invites.rewards(userId, undefined);
const refusal = async (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof ApiError ? error.code : String(error)),
  );

beforeAll(async () => {
  t = await openTestDatabase();
  s = await testInvites(t.db, clock);
}, 120_000);
afterAll(() => t?.close());
afterEach(() => expectLedgerSound(s.ctx));

describe(`invite attribution, ${TEST_DB}`, () => {
  it('refuses an unknown code before the verification code is used, and makes no account', async () => {
    const email = `unknown${process.pid}@example.com`;
    const client = { ip: '10.66.0.1', userAgent: 'invites-test', language: 'en' as const };
    await s.ctx.identity.sendCode({ email, purpose: 'register' }, client);
    const code = /\b(\d{6})\b/.exec(s.ctx.mail.findLast((m) => m.to === email)?.text ?? '')?.[1] ?? '';
    const body = { userName: email, password: 'a test passphrase', password2: 'a test passphrase', code };
    expect(await refusal(s.ctx.identity.register({ ...body, inviteCode: 'ZZZZZZZZ' }, client))).toBe(
      Code.INVITE_CODE_UNKNOWN,
    );
    expect(await s.ctx.identity.isAvailable(email)).toBe(true);
    // The same verification code still registers (it was not consumed), without a link.
    const answer = await s.ctx.identity.register(body, client);
    expect((await s.invites.myInvite(answer.userInfo.id)).invitedBy).toBeNull();
  });

  it('links a friend for good at registration; no self-invite, no second or changed link', async () => {
    const inviter = await s.register(undefined, { email: `leonie${process.pid}@example.com` });
    const code = await codeOf(inviter.id);
    expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    const friend = await s.register(code.toLowerCase());
    expect((await s.invites.myInvite(friend.id)).invitedBy).toBe(`le***@example.com`);
    const friends = await s.invites.friends(inviter.id, undefined);
    expect(friends).toMatchObject([
      { maskedName: `${friend.email.slice(0, 2)}***@example.com`, state: 'registered' },
    ]);

    const hook = s.invites.registrationHook();
    const other = await s.register(undefined);
    // Nothing links a customer to themselves, nor relinks a friend to another inviter.
    await hook.registered(inviter.id, code, { deviceOwner: null });
    await hook.registered(friend.id, await codeOf(other.id), { deviceOwner: null });
    expect((await s.invites.myInvite(inviter.id)).invitedBy).toBeNull();
    expect((await s.invites.myInvite(friend.id)).invitedBy).toBe('le***@example.com');
    expect(await s.invites.friends(other.id, undefined)).toEqual([]);
    // Not even the database lets a link's parties change.
    await expect(
      t.db.query('UPDATE invite_links SET inviter_id = $1 WHERE friend_id = $2', [other.id, friend.id]),
    ).rejects.toThrow(/never changed/);
  });
});

describe(`invite refusals, ${TEST_DB}`, () => {
  /** A friend of a new inviter who qualifies and trades today; the next day's run accrues it. */
  async function accrued(
    options: { device?: boolean; fee?: bigint; name?: { firstName: string; lastName: string } } = {},
  ) {
    const inviter = await s.register(undefined);
    const device = options.device ? s.ctx.identity.deviceToken(inviter.id, null) : null;
    const friend = await s.register(await codeOf(inviter.id), { device });
    return { inviter, friend, fee: options.fee ?? 1_000_000n };
  }

  it('refuses the reward when the friend signed up on the inviter’s device', async () => {
    const { inviter, friend, fee } = await accrued({ device: true });
    await s.qualify(friend.id, fee);
    await nextDay();
    expect(await rewardsOf(inviter.id)).toMatchObject([
      { state: 'refused', reason: 'same_device', amount: '0.200000' },
    ]);
  });

  it('refuses the reward when the friend is verified as the same person', async () => {
    const { inviter, friend, fee } = await accrued();
    const same = { firstName: 'Grace', lastName: 'Hopper' };
    await s.loans.verify(inviter.id, { firstName: ' grace ', lastName: 'HOPPER' });
    await s.qualify(friend.id, fee, same);
    await nextDay();
    expect(await rewardsOf(inviter.id)).toMatchObject([{ state: 'refused', reason: 'same_identity' }]);
    expect((await s.invites.links({ search: String(friend.id) }))[0]?.flags).toEqual(['same_identity']);
  });

  it('refuses the reward, and cancels what is on hold, once both name one withdrawal address', async () => {
    const { inviter, friend, fee } = await accrued();
    await s.qualify(friend.id, fee);
    await nextDay();
    expect(await rewardsOf(inviter.id)).toMatchObject([{ state: 'on_hold' }]);
    const address = {
      network: 'USDT-EVM',
      address: `0x${'5'.repeat(38)}${String(friend.id % 100).padStart(2, '0')}`,
      label: '',
    };
    await s.wallet.wallet.withdrawals.addAddress('live', inviter.id, address);
    await s.wallet.wallet.withdrawals.addAddress('live', friend.id, address);
    await s.trade(friend.id, fee, `address:${friend.id}`);
    await nextDay();
    expect((await rewardsOf(inviter.id)).map((r) => [r.state, r.reason])).toEqual([
      ['refused', 'same_address'],
      ['cancelled', 'same_address'],
    ]);
  });

  it('refuses the part of a day above the inviter’s cap', async () => {
    const staff = await s.ctx.staffMember('admin');
    const before = await s.invites.settings();
    // The cap applies from tomorrow: the friend trades then.
    await s.invites.updateSettings(staff.id, { shareBps: 2000, dailyCapUsdt: '1', enabled: true });
    const { inviter, friend } = await accrued();
    await nextDay();
    await s.qualify(friend.id, 10_000_000n);
    await nextDay();
    // 20 % of 10 USDT is 2 USDT: 1 on hold, the 1 above the cap refused.
    expect((await rewardsOf(inviter.id)).map((r) => [r.state, r.reason, r.amount]).sort()).toEqual([
      ['on_hold', null, '1.000000'],
      ['refused', 'daily_cap', '1.000000'],
    ]);
    await s.invites.updateSettings(staff.id, {
      shareBps: before.shareBps,
      dailyCapUsdt: before.dailyCapUsdt,
      enabled: true,
    });
    await nextDay();
  });

  it('cancels what is on hold when staff freeze a link, and refuses while it is frozen', async () => {
    const { inviter, friend, fee } = await accrued();
    await s.qualify(friend.id, fee);
    await nextDay();
    const staff = await s.ctx.staffMember('admin');
    const [link] = await s.invites.links({ search: String(friend.id) });
    const frozen = await s.invites.freeze(staff.id, {
      linkId: link?.id ?? 0,
      frozen: true,
      reason: 'same household, checked by phone',
    });
    expect(frozen).toMatchObject({
      frozen: true,
      frozenReason: 'same household, checked by phone',
      state: 'frozen',
    });
    await s.trade(friend.id, fee, `frozen:${friend.id}`);
    await nextDay();
    expect((await rewardsOf(inviter.id)).map((r) => [r.state, r.reason])).toEqual([
      ['refused', 'frozen'],
      ['cancelled', 'fraud_flag'],
    ]);
    const audited = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE subject = $1 AND action = 'invites.link.frozen'",
      [`invite_link:${link?.id}`],
    );
    expect(audited).toHaveLength(1);
  });
});

describe(`invite privacy, ${TEST_DB}`, () => {
  it('answers each customer their own friends and rewards only', async () => {
    const ada = await s.register(undefined);
    const bob = await s.register(undefined);
    const friend = await s.register(await codeOf(ada.id));
    await s.qualify(friend.id);
    await nextDay();
    expect(await s.invites.friends(ada.id, undefined)).toHaveLength(1);
    expect(await rewardsOf(ada.id)).toHaveLength(1);
    expect(await s.invites.friends(bob.id, undefined)).toEqual([]);
    expect(await rewardsOf(bob.id)).toEqual([]);
    expect((await s.invites.myInvite(bob.id)).friends).toEqual({ registered: 0, verified: 0, qualified: 0 });
    // What the inviter reads of a friend: a masked name, a state and dates; nothing of their trades.
    const [seen] = await s.invites.friends(ada.id, undefined);
    expect(Object.keys(seen ?? {}).sort()).toEqual([
      'id',
      'maskedName',
      'registeredAt',
      'rewardsUntil',
      'state',
    ]);
    expect(seen?.maskedName).not.toContain(friend.email.split('@')[0]);
  });
});
