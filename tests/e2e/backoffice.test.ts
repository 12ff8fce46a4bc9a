import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../support/accounts.ts';
import { staffApi } from '../support/api.ts';
import { expectAccessible } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { AdminSignInPage, AuditPage, CustomersPage, StaffPage } from '../support/pages/index.ts';
import { STAFF_PASSWORD } from '../support/staff.ts';

const ADMIN = 'chief@swx.test';
const app = useApp({ staff: { email: ADMIN, role: 'admin' } });
let customer: Session;

beforeAll(async () => {
  customer = await app.customer('ada.lovelace@example.com');
}, 180_000);

describe('back office as an app', () => {
  it('deep links survive a reload; staff created and changed on a screen; customer page; audit filters and chain check', async () => {
    const { page: p, errors, context } = await app.open('desktop');
    // A deep link before signing in: the sign-in, then that very screen.
    const signIn = new AdminSignInPage(p);
    await signIn.goto(`/admin/customers/${customer.userInfo.id}`);
    await signIn.startEnrolment(ADMIN, app.staff.oneTimePassword);
    app.staff.enrolledWith(await signIn.enrolmentSecret());
    await signIn.finishEnrolment(STAFF_PASSWORD, app.staff.code());
    const customers = new CustomersPage(p);
    await customers.heading(`Customer ${customer.userInfo.id}`).waitFor();

    // The customer's page: both books, the demo funding entry, a live session, no KYC yet.
    const balances = await customers.rows('customer-balances');
    expect(balances).toHaveLength(8);
    expect(balances.join('\n')).toMatch(/Demo\s+USDT\s+100000\.000000\s+0\.000000\s+100000\.000000/);
    expect(balances.join('\n')).toMatch(/Live\s+USDT\s+0\.000000/);
    expect((await customers.rows('customer-transactions')).join('\n')).toContain('demo_funding');
    expect(await customers.rows('customer-sessions')).toHaveLength(1);
    await p.getByText('Never submitted.').waitFor();
    await expectAccessible(p, 'desktop /admin/customers/:id');
    // Reload keeps the page (the server answers the app for /admin/ paths).
    await p.reload();
    await customers.heading(`Customer ${customer.userInfo.id}`).waitFor();
    // Sorting by keyboard: the Book header's button, twice, puts Live first.
    await customers.sortByKeyboard('customer-balances', 'Book', 2);
    expect((await customers.rows('customer-balances'))[0]).toMatch(/^Live/);
    expect(await customers.columnSort('customer-balances', 'Book')).toBe('descending');

    // Staff management: create, one-time password once, change role, disable.
    const staff = new StaffPage(p);
    await staff.openScreen('Staff');
    await staff.waitForPath('/admin/staff');
    await staff.heading('Staff', 2).waitFor();
    const password = await staff.create('new.agent@swx.test', 'support');
    expect(password).toMatch(/^([A-Z2-9]{4}-){4}[A-Z2-9]{4}$/);
    await expectAccessible(p, 'desktop /admin/staff, one-time password');
    await staff.passedOn();
    expect(await staff.oneTimePassword.count()).toBe(0);
    await expect
      .poll(async () => (await staff.rows('staff-table')).join('\n'))
      .toMatch(/new\.agent@swx\.test\s+Support\s+Active\s+Not set up/);
    await staff.changeRole('new.agent@swx.test', 'compliance', 'Make new.agent@swx.test Compliance?');
    await p.getByText('Role changed.').waitFor();
    await staff.disable('new.agent@swx.test');
    await p.getByText('Account disabled; its sessions ended.').waitFor();
    await expect
      .poll(async () => (await staff.rows('staff-table')).join('\n'))
      .toMatch(/new\.agent@swx\.test\s+Compliance\s+Disabled/);
    // The server agrees: that account cannot sign in.
    const refused = await staffApi(app.server).call('signIn', { email: 'new.agent@swx.test', password });
    expect(refused.code).toBe(10005);
    // No button to disable yourself.
    expect(await staff.disableButton(ADMIN).count()).toBe(0);
    await expectAccessible(p, 'desktop /admin/staff');

    // The audit log: filters in the URL, staff by email, the chain check.
    const audit = new AuditPage(p);
    await audit.openScreen('Audit log');
    await audit.heading('Audit log').waitFor();
    await audit.filter({ Actor: ADMIN, Action: 'staff.' });
    await expect.poll(() => new URL(p.url()).searchParams.get('action')).toBe('staff.');
    const check = async () => {
      const rows = await audit.rows('audit-table');
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const row of rows) {
        expect(row).toContain(ADMIN);
        expect(row).toMatch(/\sstaff\.\w+/);
      }
      const text = rows.join('\n');
      for (const action of ['staff.created', 'staff.role_changed', 'staff.disabled', 'staff.totp_enrolled'])
        expect(text).toContain(action);
    };
    await expect
      .poll(async () => {
        const rows = await audit.rows('audit-table');
        return rows.length >= 4 && rows.every((r) => r.includes(ADMIN));
      })
      .toBe(true);
    await check();
    await p.reload();
    await audit.heading('Audit log').waitFor();
    expect(await audit.field('Action').inputValue()).toBe('staff.');
    await expect.poll(async () => (await audit.rows('audit-table')).length).toBeGreaterThanOrEqual(4);
    await check();
    await audit.checkChain();
    await expect.poll(() => audit.verdict.innerText()).toMatch(/^Chain intact: \d+ rows checked/);
    await expectAccessible(p, 'desktop /admin/audit');
    // The subject filter finds that customer's page view by this admin.
    await audit.clear();
    await audit.filter({ Subject: `user:${customer.userInfo.id}` });
    await expect.poll(async () => (await audit.rows('audit-table')).join('\n')).toContain('customer.viewed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone and in Arabic: deep link to the filtered audit log, no sideways scrolling, accessible', async () => {
    // A second sign-in of the same admin over the API, its session put in the tab.
    const { page: p, errors, context } = await app.staffPage('mobile');
    const audit = new AuditPage(p);
    await p.goto('/admin/audit?action=staff.created');
    await audit.heading('Audit log').waitFor();
    await expect
      .poll(async () => {
        const rows = await audit.rows('audit-table');
        return rows.length > 0 && rows.every((r) => r.includes('staff.created'));
      })
      .toBe(true);
    await expectAccessible(p, 'mobile /admin/audit');
    const customers = new CustomersPage(p);
    await customers.gotoCustomer(customer.userInfo.id);
    await customers.heading(`Customer ${customer.userInfo.id}`).waitFor();
    await expectAccessible(p, 'mobile /admin/customers/:id');
    await customers.chooseLanguage('ar');
    await expect.poll(() => customers.dir()).toBe('rtl');
    await customers.openScreen('الموظفون');
    await customers.heading('الموظفون', 2).waitFor();
    await expect.poll(async () => (await customers.rows('staff-table')).join('\n')).toContain(ADMIN);
    await expectAccessible(p, 'mobile /admin/staff, Arabic');
    expect(errors).toEqual([]);
    await context.close();
  });
});
