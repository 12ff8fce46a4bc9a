import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAFF_DUTIES } from './roles.ts';
import { type AdminCallName, adminCalls } from './staff.ts';
import { staffCallsByDuty, staffDutyOf, staffMay, staffRoleTable } from './staffAccess.ts';

const README = join(import.meta.dirname, '..', '..', '..', 'README.md');
const names = Object.keys(adminCalls) as AdminCallName[];

describe('the staff role table', () => {
  it('gives every staff call but the sign-in steps one duty of the table', () => {
    const byDuty = staffCallsByDuty();
    const listed = Object.values(byDuty).flat();
    const publicCalls = names.filter((n) => adminCalls[n].roles === 'public');
    expect(publicCalls.sort()).toEqual(['enrol', 'signIn', 'verifyCode']);
    expect(listed.sort()).toEqual(names.filter((n) => !publicCalls.includes(n)).sort());
    for (const name of names)
      if (adminCalls[name].roles !== 'public') expect(staffDutyOf(name)).not.toBeNull();
  });

  it('keeps what changes what customers pay, or how soon money is credited, to admins', () => {
    // Named here, not read from the table: the rule the table must keep.
    for (const name of [
      'updateNetwork',
      'updateSwapPair',
      'createEarnProduct',
      'updateEarnProduct',
      'createLoanProduct',
      'updateLoanProduct',
      'createSmartProduct',
      'updateSmartProduct',
      'proposeFourEyes',
      'approveFourEyes',
    ] as const) {
      expect(staffMay('admin', name), name).toBe(true);
      for (const role of ['compliance', 'finance', 'support'] as const)
        expect(staffMay(role, name), `${role} ${name}`).toBe(false);
    }
    expect(STAFF_DUTIES.customerTerms.roles).toEqual(['admin']);
  });

  it("is the README's table, word for word", () => {
    const readme = readFileSync(README, 'utf8');
    const section = /<!-- staff-roles:start -->\n([\s\S]*?)\n<!-- staff-roles:end -->/.exec(readme)?.[1];
    expect(
      section,
      "README.md's role table: paste the output of node -e \"import('./packages/contract/src/index.ts').then((c) => console.log(c.staffRoleTable()))\"",
    ).toBe(staffRoleTable());
  });
});
