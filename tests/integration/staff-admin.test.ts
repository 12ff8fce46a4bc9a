import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { api, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi, STAFF_PASSWORD } from '../support/staff.ts';
import { authenticatorCode } from '../support/totp.ts';
import { uploadKycPhotos } from '../support/uploads.ts';

const A = '/swx/admin';
const auth = (token: string) => ({ authorization: token });
const get = (token?: string) => ({ headers: token ? auth(token) : {} });
const post = (body: unknown, token?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? auth(token) : {}) },
  body: JSON.stringify(body ?? {}),
});

/**
 * The back office's staff management, customer page and audit log over HTTP, tried as an attacker
 * would: other roles, a customer token, no token, ids that are not there, and the admin's own
 * account.
 */
describe('back office: staff management, customer page, audit log', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  const staff: Record<string, StaffApi> = {};
  const ids: Record<string, number> = {};
  let dave: Session;
  const as = (role: string) => staff[role] as StaffApi;
  const id = (role: string) => ids[role] as number;

  // The first admin by the operator command; the admin makes the others through the API.
  useServer(
    { staff: [{ email: 'admin@swx.test', role: 'admin' }] },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    const first = oneTimePasswords['admin@swx.test'] ?? '';
    staff.admin = staffApi(server, await enrolStaffByApi(server.baseUrl, 'admin@swx.test', first));
    for (const role of ['compliance', 'support', 'finance'] as const) {
      const { oneTimePassword } = await as('admin').ok('createStaff', { email: `${role}@swx.test`, role });
      staff[role] = staffApi(
        server,
        await enrolStaffByApi(server.baseUrl, `${role}@swx.test`, oneTimePassword),
      );
    }
    for (const role of ['admin', 'compliance', 'support', 'finance'])
      ids[role] = (await as(role).ok('me')).id;
    dave = await registerByApi(server, inbox, 'dave.admin@example.com');
  }, 240_000);

  it('only an admin creates, lists and changes staff; a customer token and no token are 401', async () => {
    for (const role of ['compliance', 'support', 'finance']) {
      const create = await as(role).call('createStaff', { email: `x.${role}@swx.test`, role: 'admin' });
      expect([create.status, create.code], role).toEqual([403, 10029]);
      const update = await as(role).call('updateStaff', { id: id(role), role: 'admin' });
      expect([update.status, update.code], role).toEqual([403, 10029]);
      const reset = await as(role).call('resetStaffTotp', { id: id('admin') });
      expect(reset.code, role).toBe(10029);
      expect((await as(role).call('listStaff')).code, role).toBe(10029);
    }
    for (const who of [staffApi(server, dave), staffApi(server)]) {
      const create = await who.call('createStaff', { email: 'y@swx.test', role: 'admin' });
      expect([create.status, create.code]).toEqual([401, 401]);
      expect((await who.call('updateStaff', { id: id('support'), status: 'disabled' })).code).toBe(401);
      expect((await who.call('auditLog')).code).toBe(401);
      expect((await who.call('verifyAudit')).code).toBe(401);
      expect((await who.call('customerOverview', { id: dave.userInfo.id })).code).toBe(401);
    }
    // Nothing was created by the refused calls.
    const list = await as('admin').call('listStaff');
    expect(list.data.map((s) => s.email).sort()).toEqual([
      'admin@swx.test',
      'compliance@swx.test',
      'finance@swx.test',
      'support@swx.test',
    ]);
  });

  it('an admin creates an account (one-time password once), changes its role, disables and enables it', async () => {
    const created = await as('admin').call('createStaff', { email: 'New.Hire@SWX.test', role: 'support' });
    expect(created.code).toBe(200);
    const { staff: made, oneTimePassword } = created.data;
    expect(made).toMatchObject({ email: 'new.hire@swx.test', role: 'support' });
    expect(oneTimePassword).toMatch(/^([A-Z2-9]{4}-){4}[A-Z2-9]{4}$/);
    // The same email twice: 10007; the list never shows a password.
    const again = await as('admin').call('createStaff', { email: 'new.hire@swx.test', role: 'support' });
    expect(again.code).toBe(10007);
    const listed = await as('admin').call('listStaff');
    expect(JSON.stringify(listed.data)).not.toContain(oneTimePassword);
    expect(listed.data.find((s) => s.id === made.id)).toMatchObject({
      status: 'active',
      enrolled: false,
    });

    const hire = staffApi(
      server,
      await enrolStaffByApi(server.baseUrl, 'new.hire@swx.test', oneTimePassword),
    );
    expect((await hire.call('auditLog')).code).toBe(10029);
    const promoted = await as('admin').call('updateStaff', { id: made.id, role: 'compliance' });
    expect(promoted.data).toMatchObject({ role: 'compliance', status: 'active', enrolled: true });
    // The new role holds from the next call of the same session.
    expect((await hire.call('auditLog')).code).toBe(200);

    const disabled = await as('admin').call('updateStaff', { id: made.id, status: 'disabled' });
    expect(disabled.data).toMatchObject({ status: 'disabled' });
    expect((await hire.call('me')).status).toBe(401);
    const anonymous = staffApi(server);
    const signIn = await anonymous.call('signIn', { email: 'new.hire@swx.test', password: STAFF_PASSWORD });
    expect(signIn.code).toBe(10005);
    const enabled = await as('admin').call('updateStaff', { id: made.id, status: 'active' });
    expect(enabled.data).toMatchObject({ status: 'active' });
    const back = await anonymous.call('signIn', { email: 'new.hire@swx.test', password: STAFF_PASSWORD });
    expect(back.data).toMatchObject({ step: 'totp' });

    // Each change is in the audit log, by the admin, on that account.
    const audit = await as('admin').call('auditLog', { subject: `staff:${made.id}` });
    const actions = audit.data.rows.filter((r) => r.actor === `staff:${id('admin')}`).map((r) => r.action);
    expect(actions).toEqual(['staff.enabled', 'staff.disabled', 'staff.role_changed', 'staff.created']);
  });

  it('refuses an admin disabling themselves and any change that leaves no active admin', async () => {
    const self = await as('admin').call('updateStaff', { id: id('admin'), status: 'disabled' });
    expect(self.code).toBe(10008);
    const demote = await as('admin').call('updateStaff', { id: id('admin'), role: 'support' });
    expect(demote.code).toBe(10008);
    const resetSelf = await as('admin').call('resetStaffTotp', { id: id('admin') });
    expect(resetSelf.code).toBe(10008);
    expect((await as('admin').call('me')).data).toMatchObject({ role: 'admin' });

    // With a second admin, the first may step down; then the second is the last and stays.
    const second = await as('admin').call('updateStaff', { id: id('finance'), role: 'admin' });
    expect(second.data).toMatchObject({ role: 'admin' });
    const down = await as('admin').call('updateStaff', { id: id('admin'), role: 'finance' });
    expect(down.data).toMatchObject({ role: 'finance' });
    expect((await as('admin').call('listStaff')).code).toBe(10029);
    const last = await as('finance').call('updateStaff', { id: id('finance'), role: 'support' });
    expect(last.code).toBe(10008);
    const restore = await as('finance').call('updateStaff', { id: id('admin'), role: 'admin' });
    expect(restore.data).toMatchObject({ role: 'admin' });
    const finance = await as('admin').call('updateStaff', { id: id('finance'), role: 'finance' });
    expect(finance.data).toMatchObject({ role: 'finance' });
  });

  it('answers an unknown or malformed id with 10028 / 10026, never another account', async () => {
    expect((await as('admin').call('updateStaff', { id: 999999, role: 'support' })).code).toBe(10028);
    expect((await as('admin').call('resetStaffTotp', { id: 999999 })).code).toBe(10028);
    // Malformed on the wire (outside the contract's types): raw requests.
    const admin = as('admin').token;
    expect((await api(server.baseUrl, `${A}/staff/abc`, post({ role: 'support' }, admin))).body.code).toBe(
      10026,
    );
    expect(
      (await api(server.baseUrl, `${A}/staff/${id('support')}`, post({ role: 'owner' }, admin))).body.code,
    ).toBe(10026);
    expect((await as('support').call('customerOverview', { id: 999999 })).code).toBe(10028);
    expect((await api(server.baseUrl, `${A}/audit?before=1;drop`, get(admin))).body.code).toBe(10026);
    expect((await api(server.baseUrl, `${A}/audit?from=yesterday`, get(admin))).body.code).toBe(10026);
  });

  it('resets two-step: sessions end, the password still works, the next sign-in enrols a new authenticator', async () => {
    const before = await as('support').call('me');
    expect(before.code).toBe(200);
    const reset = await as('admin').call('resetStaffTotp', { id: id('support') });
    expect(reset.data).toMatchObject({ enrolled: false, status: 'active' });
    expect((await as('support').call('me')).status).toBe(401);
    const anonymous = staffApi(server);
    const step = await anonymous.call('signIn', { email: 'support@swx.test', password: STAFF_PASSWORD });
    const enrol = step.data;
    expect(enrol).toMatchObject({ step: 'enrol', newPasswordRequired: false });
    if (enrol.step !== 'enrol') throw new Error('expected the enrolment');
    const done = await anonymous.call('enrol', {
      challenge: enrol.challenge,
      code: authenticatorCode(enrol.secret),
    });
    expect(done.code).toBe(200);
    staff.support = staffApi(server, done.data);
    expect((await as('support').call('me')).data).toMatchObject({ role: 'support' });
  });

  it("shows one customer's balances in both books, positions, entries, sessions and KYC; reviewer by email", async () => {
    const kyc = await customerApi(server, dave).call('identification', {
      firstName: 'Dave',
      lastName: 'Bowman',
      birthdate: '1980-01-02',
      sex: 'male',
      country: 'GB',
      address: '1 Discovery Way, London',
      phoneCode: '+44',
      phone: '2071234567',
      documentType: 'passport',
      photos: await uploadKycPhotos(server.baseUrl, dave.token),
    });
    expect(kyc.code).toBe(20001);
    const queue = await as('compliance').call('kycQueue');
    const item = queue.data.find((q) => q.userId === dave.userInfo.id);
    // Deciding needs a claim of the decider (the review queue's lease).
    expect((await as('compliance').call('claimKyc', { id: item?.id ?? 0 })).code).toBe(200);
    const rejected = await as('compliance').call('rejectKyc', {
      id: item?.id ?? 0,
      reason: 'photo is blurred',
    });
    expect(rejected.data).toMatchObject({
      status: 'failed',
      reviewedBy: `staff:${id('compliance')}`,
      reviewer: { id: id('compliance'), email: 'compliance@swx.test' },
    });

    for (const role of ['support', 'finance', 'compliance', 'admin']) {
      const page = await as(role).call('customerOverview', { id: dave.userInfo.id });
      expect(page.code, role).toBe(200);
    }
    const page = await as('support').call('customerOverview', { id: dave.userInfo.id });
    const data = page.data;
    expect(data.customer).toMatchObject({ id: dave.userInfo.id, userName: 'dave.admin@example.com' });
    expect(data.balances).toContainEqual({
      book: 'demo',
      asset: 'USDT',
      balance: '100000.000000',
      held: '0.000000',
      available: '100000.000000',
    });
    expect(data.balances).toContainEqual({
      book: 'live',
      asset: 'USDT',
      balance: '0.000000',
      held: '0.000000',
      available: '0.000000',
    });
    expect(data.transactions).toContainEqual(
      expect.objectContaining({ book: 'demo', asset: 'USDT', amount: '100000.000000' }),
    );
    expect(data.positions).toEqual([]);
    expect(data.sessions.length).toBeGreaterThan(0);
    // Addresses are masked; tokens never appear.
    for (const s of data.sessions) expect(s.ip).toMatch(/\*|^$/);
    expect(JSON.stringify(data)).not.toContain(dave.token);
    expect(data.kyc).toMatchObject({
      status: 'failed',
      reason: 'photo is blurred',
      reviewer: { email: 'compliance@swx.test' },
    });

    // The view is audited on that customer, by the staff member.
    const audit = await as('admin').call('auditLog', {
      subject: `user:${dave.userInfo.id}`,
      actor: 'support@swx.test',
    });
    const rows = audit.data.rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows)
      expect(r).toMatchObject({ actor: `staff:${id('support')}`, actorStaff: { email: 'support@swx.test' } });
  });

  it('filters the audit log by actor, action, subject and days, pages by keyset, and checks the chain', async () => {
    // Enough rows for more than one page: 60 searches by compliance.
    for (let i = 0; i < 60; i++) await as('compliance').call('searchCustomers', { q: `page${i}` });
    const admin = as('admin');
    const first = await admin.call('auditLog', { actor: 'compliance@swx.test', action: 'customer.sea' });
    const page1 = first.data;
    expect(page1.rows).toHaveLength(50);
    expect(page1.next).toBe(String(page1.rows.at(-1)?.seq));
    for (const r of page1.rows)
      expect(r).toMatchObject({ actor: `staff:${id('compliance')}`, action: 'customer.searched' });
    const second = await admin.call('auditLog', {
      actor: 'compliance@swx.test',
      action: 'customer.sea',
      before: page1.next ?? '',
    });
    const page2 = second.data;
    expect(page2.rows.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...page2.rows.map((r) => r.seq))).toBeLessThan(Math.min(...page1.rows.map((r) => r.seq)));
    const seqs = [...page1.rows, ...page2.rows].map((r) => r.seq);
    expect(new Set(seqs).size).toBe(seqs.length);

    // A LIKE wildcard in the action is taken literally; an unknown staff email finds nothing.
    expect((await admin.call('auditLog', { action: '%' })).data.rows).toEqual([]);
    expect((await admin.call('auditLog', { actor: 'nobody@swx.test' })).data.rows).toEqual([]);
    // Days: today has rows, a day long ago has none.
    const today = new Date().toISOString().slice(0, 10);
    const todays = (await admin.call('auditLog', { from: today, to: today })).data;
    expect(todays.rows.length).toBeGreaterThan(0);
    for (const r of todays.rows) expect(r.at.slice(0, 10)).toBe(today);
    expect((await admin.call('auditLog', { from: '2001-01-01', to: '2001-01-02' })).data.rows).toEqual([]);
    // Finance and support may not read it.
    for (const role of ['finance', 'support'])
      expect((await as(role).call('auditLog')).code, role).toBe(10029);

    const verdict = await as('compliance').call('verifyAudit');
    expect(verdict.data).toMatchObject({ ok: true, brokenAt: null, reason: null });
    expect(verdict.data.rows).toBeGreaterThan(100);
    expect((await as('support').call('verifyAudit')).code).toBe(10029);
    const logged = (await admin.call('auditLog', { action: 'audit.verified' })).data;
    expect(logged.rows[0]).toMatchObject({ actor: `staff:${id('compliance')}`, subject: 'audit' });
  });
});
