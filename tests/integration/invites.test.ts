import { Code } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';

/**
 * Invite friends over HTTP: the code and terms, a registration with an unknown code refused before
 * its mailed code is used, a friend linked by the code and seeing who invited them (masked), each
 * customer reading only their own friends, the rebate, and staff's settings, links and freeze.
 */
describe('invite friends over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let inviter: CustomerApi;
  let admin: StaffApi;

  useServer(
    { staff: [{ email: 'admin@swx.test', role: 'admin' }] },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    inviter = customerApi(server, await registerByApi(server, inbox, 'inez.invites@example.com'), {
      language: 'en',
    });
    admin = staffApi(
      server,
      await enrolStaffByApi(server.baseUrl, 'admin@swx.test', oneTimePasswords['admin@swx.test'] ?? ''),
    );
  });

  it('links a friend who registers with the code, after refusing an unknown one', async () => {
    const mine = await inviter.ok('getMyInvite');
    expect(mine).toMatchObject({
      terms: { shareBps: 2000, rewardDays: 365, holdDays: 7, rebateChoices: [0, 500, 1000], enabled: true },
      linkPath: `/register?invite=${mine.code}`,
      invitedBy: null,
      friends: { registered: 0, verified: 0, qualified: 0 },
    });
    const anonymous = customerApi(server, null, { language: 'en' });
    const email = 'fred.invites@example.com';
    await anonymous.ok('sendCode', { email, purpose: 'register' });
    const body = {
      userName: email,
      password: 'long enough pw',
      password2: 'long enough pw',
      code: await inbox.codeFor(email),
    };
    const unknown = mine.code === 'ZZZZZZZZ' ? 'YYYYYYYY' : 'ZZZZZZZZ';
    expect((await anonymous.call('register', { ...body, inviteCode: unknown })).code).toBe(
      Code.INVITE_CODE_UNKNOWN,
    );
    const friend = customerApi(
      server,
      await anonymous.ok('register', { ...body, inviteCode: mine.code.toLowerCase() }),
      {
        language: 'en',
      },
    );
    expect((await friend.ok('getMyInvite')).invitedBy).toBe('in***@example.com');
    expect(await inviter.ok('listInvitedFriends', {})).toMatchObject([
      { maskedName: 'fr***@example.com', state: 'registered' },
    ]);
    // The friend has no friends of their own, and no reward is anyone else's.
    expect(await friend.ok('listInvitedFriends', {})).toEqual([]);
    expect(await friend.ok('listInviteRewards', {})).toEqual([]);
    expect((await inviter.ok('setInviteRebate', { rebateBps: 500 })).rebateBps).toBe(500);
    expect((await customerApi(server, null).call('getMyInvite')).code).toBe(401);
  });

  it('lets staff read and change the terms and freeze a link with a reason', async () => {
    expect(await admin.ok('getInviteSettings')).toMatchObject({ shareBps: 2000, dailyCapUsdt: '100.000000' });
    expect(
      await admin.ok('updateInviteSettings', { shareBps: 1500, dailyCapUsdt: '50', enabled: true }),
    ).toMatchObject({ shareBps: 1500, dailyCapUsdt: '50.000000' });
    const [link] = await admin.ok('listInviteLinks', { search: 'fred.invites' });
    expect(link).toMatchObject({
      inviter: 'inez.invites@example.com',
      friend: 'fred.invites@example.com',
      frozen: false,
    });
    const frozen = await admin.ok('freezeInviteLink', {
      linkId: String(link?.id ?? 0),
      frozen: true,
      reason: 'checked by phone',
    });
    expect(frozen).toMatchObject({ frozen: true, frozenReason: 'checked by phone', state: 'frozen' });
    expect(await admin.ok('listInvitePayouts', {})).toEqual([]);
    expect((await inviter.ok('getMyInvite')).frozen).toBe(true);
  });
});
