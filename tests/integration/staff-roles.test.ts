import { type AdminCallName, adminCalls, STAFF_ROLES, type StaffRole, staffMay } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { type StaffApi, staffApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import { enrolStaffByApi } from '../support/staff.ts';

/** An id no item has: a call a role may make is answered (10028, 10026, …), never changed by it. */
const NOBODY = 999_999_999;
const ALL_CALLS = Object.keys(adminCalls) as AdminCallName[];
/** Every call but the sign-in steps; signing out last, as it ends the session. */
const STAFF_CALLS = ALL_CALLS.filter((n) => adminCalls[n].roles !== 'public' && n !== 'signOut');

/** The call's path params filled with an id nobody has, and an empty query or body. */
function inputOf(name: AdminCallName): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [, key] of adminCalls[name].path.matchAll(/:([A-Za-z]+)/g)) if (key) input[key] = NOBODY;
  return input;
}

/**
 * The role table (packages/contract/src/roles.ts) against a running server: every staff call of the
 * contract, made by a staff member of each role, is refused with 10029 (HTTP 403) when it is outside
 * the role's rows, and never refused for the role when it is inside.
 */
describe('staff roles: every staff call, by every role', () => {
  let server: RunningServer;
  let oneTimePasswords: Record<string, string>;
  const staff = {} as Record<StaffRole, StaffApi>;
  let secondAdmin: StaffApi;

  useServer(
    {
      staff: [
        ...STAFF_ROLES.map((role) => ({ email: `${role}@swx.test`, role })),
        { email: 'admin2@swx.test', role: 'admin' as const },
      ],
    },
    (s) => ({ server, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    for (const role of STAFF_ROLES) {
      const email = `${role}@swx.test`;
      staff[role] = staffApi(
        server,
        await enrolStaffByApi(server.baseUrl, email, oneTimePasswords[email] ?? ''),
      );
    }
    secondAdmin = staffApi(
      server,
      await enrolStaffByApi(server.baseUrl, 'admin2@swx.test', oneTimePasswords['admin2@swx.test'] ?? ''),
    );
  }, 240_000);

  // Named here, not read from the table: what changes what customers pay or how soon money is
  // credited is an admin's alone (finance used to edit networks).
  it('only an admin changes customer terms: networks, swap pairs, earn, loan and smart products', async () => {
    const terms = [
      'updateNetwork',
      'updateSwapPair',
      'createEarnProduct',
      'updateEarnProduct',
      'createLoanProduct',
      'updateLoanProduct',
      'createSmartProduct',
      'updateSmartProduct',
    ] as const;
    for (const role of ['finance', 'compliance', 'support'] as const)
      for (const name of terms) {
        const answer = await staff[role].call(name, inputOf(name) as never);
        expect([answer.status, answer.code], `${role} ${name}`).toEqual([403, 10029]);
      }
    // The same body from finance and from an admin: refused before anything is read, and changed.
    const [network] = await staff.admin.ok('listNetworksAdmin');
    if (!network) throw new Error('no network');
    const body = {
      id: network.id,
      name: network.name,
      depositMinimum: network.depositMinimum,
      creditConfirmations: network.creditConfirmations,
      unlockConfirmations: network.unlockConfirmations,
      blockSeconds: network.blockSeconds,
      withdrawalFeeRate: '0.002',
      withdrawalMinimum: network.withdrawalMinimum,
      withdrawalMaximum: network.withdrawalMaximum,
      arrivalMinutes: network.arrivalMinutes,
      enabled: network.enabled,
    };
    const byFinance = await staff.finance.call('updateNetwork', body);
    expect([byFinance.status, byFinance.code]).toEqual([403, 10029]);
    expect(Number((await staff.admin.ok('updateNetwork', body)).withdrawalFeeRate)).toBe(0.002);
  });

  it('a four-eyes threshold changes only when a second admin approves', async () => {
    // The second admin proposes; proposing again and approving their own are refused.
    const admin = secondAdmin;
    const before = await admin.ok('getFourEyes');
    expect(before.thresholds.find((x) => x.kind === 'withdrawal' && x.asset === 'USDT')?.value).toBe('10000');
    const proposal = await admin.ok('proposeFourEyes', { kind: 'withdrawal', asset: 'USDT', value: '20000' });
    const again = await admin.call('proposeFourEyes', { kind: 'withdrawal', asset: 'USDT', value: '1' });
    expect(again.code).toBe(10048);
    const own = await admin.call('approveFourEyes', { id: proposal.id });
    expect(own.code).toBe(10049);
    expect(
      (await admin.ok('getFourEyes')).thresholds.find((x) => x.kind === 'withdrawal' && x.asset === 'USDT')
        ?.value,
    ).toBe('10000');
    // Another admin approves: the threshold applies from now on.
    expect((await staff.admin.ok('approveFourEyes', { id: proposal.id })).state).toBe('approved');
    expect(
      (await admin.ok('getFourEyes')).thresholds.find((x) => x.kind === 'withdrawal' && x.asset === 'USDT')
        ?.value,
    ).toBe('20000');
  });

  for (const role of STAFF_ROLES)
    it(`${role}: refused (10029) on every staff call outside its rows, never on those inside`, async () => {
      const api = staff[role];
      const refused: string[] = [];
      const allowed: string[] = [];
      for (const name of STAFF_CALLS) {
        const answer = await api.call(name, inputOf(name) as never);
        const forbidden = answer.status === 403 && answer.code === 10029;
        expect(answer.code, `${role} ${name}: a live session`).not.toBe(401);
        if (staffMay(role, name)) {
          expect(forbidden, `${role} may ${name}`).toBe(false);
          allowed.push(name);
        } else {
          expect([answer.status, answer.code], `${role} may not ${name}`).toEqual([403, 10029]);
          refused.push(name);
        }
      }
      expect(allowed.length + refused.length).toBe(STAFF_CALLS.length);
      // Signing out is every role's; afterwards the session is gone.
      expect((await api.call('signOut')).code).toBe(200);
      expect((await api.call('me')).code).toBe(401);
    });
});
