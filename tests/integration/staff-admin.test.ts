import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { api, type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';
import { createStaffByCli, enrolStaffByApi, STAFF_PASSWORD } from '../support/staff.ts';
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

type StaffRow = { id: number; email: string; role: string; status: string; enrolled: boolean };
type AuditPage = {
  rows: {
    seq: number;
    at: string;
    actor: string;
    actorStaff: { email: string } | null;
    action: string;
    subject: string;
  }[];
  next: string | null;
};

/**
 * The back office's staff management, customer page and audit log over HTTP, tried as an attacker
 * would: other roles, a customer token, no token, ids that are not there, and the admin's own
 * account.
 */
describe('back office: staff management, customer page, audit log', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let dataDir: string;
  const token: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let dave: Session;

  beforeAll(async () => {
    inbox = await startInbox();
    dataDir = mkdtempSync(join(tmpdir(), 'swx-it-admin-'));
    // The first admin by the operator command; the admin makes the others through the API.
    const first = createStaffByCli(dataDir, 'admin@swx.test', 'admin');
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}` }, { dataDir });
    token.admin = (await enrolStaffByApi(server.baseUrl, 'admin@swx.test', first)).token;
    for (const role of ['compliance', 'support', 'finance'] as const) {
      const made = await api(
        server.baseUrl,
        `${A}/staff`,
        post({ email: `${role}@swx.test`, role }, token.admin),
      );
      const { oneTimePassword } = made.body.data as { oneTimePassword: string };
      token[role] = (await enrolStaffByApi(server.baseUrl, `${role}@swx.test`, oneTimePassword)).token;
    }
    for (const role of ['admin', 'compliance', 'support', 'finance']) {
      const me = await api(server.baseUrl, `${A}/auth/me`, get(token[role]));
      ids[role] = (me.body.data as { id: number }).id;
    }
    dave = await registerByApi(server, inbox, 'dave.admin@example.com');
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('only an admin creates, lists and changes staff; a customer token and no token are 401', async () => {
    for (const role of ['compliance', 'support', 'finance']) {
      const create = await api(
        server.baseUrl,
        `${A}/staff`,
        post({ email: `x.${role}@swx.test`, role: 'admin' }, token[role]),
      );
      expect([create.status, create.body.code], role).toEqual([403, 10029]);
      const update = await api(
        server.baseUrl,
        `${A}/staff/${ids[role]}`,
        post({ role: 'admin' }, token[role]),
      );
      expect([update.status, update.body.code], role).toEqual([403, 10029]);
      const reset = await api(server.baseUrl, `${A}/staff/${ids.admin}/resetTotp`, post({}, token[role]));
      expect(reset.body.code, role).toBe(10029);
      expect((await api(server.baseUrl, `${A}/staff`, get(token[role]))).body.code, role).toBe(10029);
    }
    for (const who of [dave.token, undefined]) {
      const create = await api(
        server.baseUrl,
        `${A}/staff`,
        post({ email: 'y@swx.test', role: 'admin' }, who),
      );
      expect([create.status, create.body.code]).toEqual([401, 401]);
      expect(
        (await api(server.baseUrl, `${A}/staff/${ids.support}`, post({ status: 'disabled' }, who))).body.code,
      ).toBe(401);
      expect((await api(server.baseUrl, `${A}/audit`, get(who))).body.code).toBe(401);
      expect((await api(server.baseUrl, `${A}/audit/verify`, post({}, who))).body.code).toBe(401);
      expect(
        (await api(server.baseUrl, `${A}/customers/${dave.userInfo.id}/overview`, get(who))).body.code,
      ).toBe(401);
    }
    // Nothing was created by the refused calls.
    const list = await api(server.baseUrl, `${A}/staff`, get(token.admin));
    expect((list.body.data as StaffRow[]).map((s) => s.email).sort()).toEqual([
      'admin@swx.test',
      'compliance@swx.test',
      'finance@swx.test',
      'support@swx.test',
    ]);
  });

  it('an admin creates an account (one-time password once), changes its role, disables and enables it', async () => {
    const created = await api(
      server.baseUrl,
      `${A}/staff`,
      post({ email: 'New.Hire@SWX.test', role: 'support' }, token.admin),
    );
    expect(created.body.code).toBe(200);
    const { staff, oneTimePassword } = created.body.data as { staff: StaffRow; oneTimePassword: string };
    expect(staff).toMatchObject({ email: 'new.hire@swx.test', role: 'support' });
    expect(oneTimePassword).toMatch(/^([A-Z2-9]{4}-){4}[A-Z2-9]{4}$/);
    // The same email twice: 10007; the list never shows a password.
    const again = await api(
      server.baseUrl,
      `${A}/staff`,
      post({ email: 'new.hire@swx.test', role: 'support' }, token.admin),
    );
    expect(again.body.code).toBe(10007);
    const listed = await api(server.baseUrl, `${A}/staff`, get(token.admin));
    expect(JSON.stringify(listed.body.data)).not.toContain(oneTimePassword);
    expect((listed.body.data as StaffRow[]).find((s) => s.id === staff.id)).toMatchObject({
      status: 'active',
      enrolled: false,
    });

    const hire = await enrolStaffByApi(server.baseUrl, 'new.hire@swx.test', oneTimePassword);
    expect((await api(server.baseUrl, `${A}/audit`, get(hire.token))).body.code).toBe(10029);
    const promoted = await api(
      server.baseUrl,
      `${A}/staff/${staff.id}`,
      post({ role: 'compliance' }, token.admin),
    );
    expect(promoted.body.data).toMatchObject({ role: 'compliance', status: 'active', enrolled: true });
    // The new role holds from the next call of the same session.
    expect((await api(server.baseUrl, `${A}/audit`, get(hire.token))).body.code).toBe(200);

    const disabled = await api(
      server.baseUrl,
      `${A}/staff/${staff.id}`,
      post({ status: 'disabled' }, token.admin),
    );
    expect(disabled.body.data).toMatchObject({ status: 'disabled' });
    expect((await api(server.baseUrl, `${A}/auth/me`, get(hire.token))).status).toBe(401);
    const signIn = await api(
      server.baseUrl,
      `${A}/auth/signIn`,
      post({ email: 'new.hire@swx.test', password: STAFF_PASSWORD }),
    );
    expect(signIn.body.code).toBe(10005);
    const enabled = await api(
      server.baseUrl,
      `${A}/staff/${staff.id}`,
      post({ status: 'active' }, token.admin),
    );
    expect(enabled.body.data).toMatchObject({ status: 'active' });
    const back = await api(
      server.baseUrl,
      `${A}/auth/signIn`,
      post({ email: 'new.hire@swx.test', password: STAFF_PASSWORD }),
    );
    expect(back.body.data).toMatchObject({ step: 'totp' });

    // Each change is in the audit log, by the admin, on that account.
    const audit = await api(server.baseUrl, `${A}/audit?subject=staff:${staff.id}`, get(token.admin));
    const actions = (audit.body.data as AuditPage).rows
      .filter((r) => r.actor === `staff:${ids.admin}`)
      .map((r) => r.action);
    expect(actions).toEqual(['staff.enabled', 'staff.disabled', 'staff.role_changed', 'staff.created']);
  });

  it('refuses an admin disabling themselves and any change that leaves no active admin', async () => {
    const self = await api(
      server.baseUrl,
      `${A}/staff/${ids.admin}`,
      post({ status: 'disabled' }, token.admin),
    );
    expect(self.body.code).toBe(10008);
    const demote = await api(
      server.baseUrl,
      `${A}/staff/${ids.admin}`,
      post({ role: 'support' }, token.admin),
    );
    expect(demote.body.code).toBe(10008);
    const resetSelf = await api(server.baseUrl, `${A}/staff/${ids.admin}/resetTotp`, post({}, token.admin));
    expect(resetSelf.body.code).toBe(10008);
    expect((await api(server.baseUrl, `${A}/auth/me`, get(token.admin))).body.data).toMatchObject({
      role: 'admin',
    });

    // With a second admin, the first may step down; then the second is the last and stays.
    const second = await api(
      server.baseUrl,
      `${A}/staff/${ids.finance}`,
      post({ role: 'admin' }, token.admin),
    );
    expect(second.body.data).toMatchObject({ role: 'admin' });
    const down = await api(server.baseUrl, `${A}/staff/${ids.admin}`, post({ role: 'finance' }, token.admin));
    expect(down.body.data).toMatchObject({ role: 'finance' });
    expect((await api(server.baseUrl, `${A}/staff`, get(token.admin))).body.code).toBe(10029);
    const last = await api(
      server.baseUrl,
      `${A}/staff/${ids.finance}`,
      post({ role: 'support' }, token.finance),
    );
    expect(last.body.code).toBe(10008);
    const restore = await api(
      server.baseUrl,
      `${A}/staff/${ids.admin}`,
      post({ role: 'admin' }, token.finance),
    );
    expect(restore.body.data).toMatchObject({ role: 'admin' });
    const finance = await api(
      server.baseUrl,
      `${A}/staff/${ids.finance}`,
      post({ role: 'finance' }, token.admin),
    );
    expect(finance.body.data).toMatchObject({ role: 'finance' });
  });

  it('answers an unknown or malformed id with 10028 / 10026, never another account', async () => {
    expect(
      (await api(server.baseUrl, `${A}/staff/999999`, post({ role: 'support' }, token.admin))).body.code,
    ).toBe(10028);
    expect((await api(server.baseUrl, `${A}/staff/999999/resetTotp`, post({}, token.admin))).body.code).toBe(
      10028,
    );
    expect(
      (await api(server.baseUrl, `${A}/staff/abc`, post({ role: 'support' }, token.admin))).body.code,
    ).toBe(10026);
    expect(
      (await api(server.baseUrl, `${A}/staff/${ids.support}`, post({ role: 'owner' }, token.admin))).body
        .code,
    ).toBe(10026);
    expect((await api(server.baseUrl, `${A}/customers/999999/overview`, get(token.support))).body.code).toBe(
      10028,
    );
    expect((await api(server.baseUrl, `${A}/audit?before=1;drop`, get(token.admin))).body.code).toBe(10026);
    expect((await api(server.baseUrl, `${A}/audit?from=yesterday`, get(token.admin))).body.code).toBe(10026);
  });

  it('resets two-step: sessions end, the password still works, the next sign-in enrols a new authenticator', async () => {
    const before = await api(server.baseUrl, `${A}/auth/me`, get(token.support));
    expect(before.body.code).toBe(200);
    const reset = await api(server.baseUrl, `${A}/staff/${ids.support}/resetTotp`, post({}, token.admin));
    expect(reset.body.data).toMatchObject({ enrolled: false, status: 'active' });
    expect((await api(server.baseUrl, `${A}/auth/me`, get(token.support))).status).toBe(401);
    const step = await api(
      server.baseUrl,
      `${A}/auth/signIn`,
      post({ email: 'support@swx.test', password: STAFF_PASSWORD }),
    );
    const enrol = step.body.data as {
      step: string;
      challenge: string;
      secret: string;
      newPasswordRequired: boolean;
    };
    expect(enrol).toMatchObject({ step: 'enrol', newPasswordRequired: false });
    const done = await api(
      server.baseUrl,
      `${A}/auth/enrol`,
      post({ challenge: enrol.challenge, code: authenticatorCode(enrol.secret) }),
    );
    expect(done.body.code).toBe(200);
    token.support = (done.body.data as { token: string }).token;
    expect((await api(server.baseUrl, `${A}/auth/me`, get(token.support))).body.data).toMatchObject({
      role: 'support',
    });
  });

  it("shows one customer's balances in both books, positions, entries, sessions and KYC; reviewer by email", async () => {
    const kyc = await api(
      server.baseUrl,
      '/swx/customer/user/identification',
      post(
        {
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
        },
        dave.token,
      ),
    );
    expect(kyc.body.code).toBe(20001);
    const queue = await api(server.baseUrl, `${A}/kyc/queue`, get(token.compliance));
    const item = (queue.body.data as { id: number; userId: number }[]).find(
      (q) => q.userId === dave.userInfo.id,
    );
    // Deciding needs a claim of the decider (the review queue's lease).
    expect(
      (await api(server.baseUrl, `${A}/kyc/${item?.id}/claim`, post({}, token.compliance))).body.code,
    ).toBe(200);
    const rejected = await api(
      server.baseUrl,
      `${A}/kyc/${item?.id}/reject`,
      post({ reason: 'photo is blurred' }, token.compliance),
    );
    expect(rejected.body.data).toMatchObject({
      status: 'failed',
      reviewedBy: `staff:${ids.compliance}`,
      reviewer: { id: ids.compliance, email: 'compliance@swx.test' },
    });

    for (const role of ['support', 'finance', 'compliance', 'admin']) {
      const page = await api(server.baseUrl, `${A}/customers/${dave.userInfo.id}/overview`, get(token[role]));
      expect(page.body.code, role).toBe(200);
    }
    const page = await api(server.baseUrl, `${A}/customers/${dave.userInfo.id}/overview`, get(token.support));
    const data = page.body.data as {
      customer: { id: number; userName: string };
      balances: { book: string; asset: string; balance: string; available: string }[];
      positions: unknown[];
      transactions: { book: string; kind: string; asset: string; amount: string }[];
      sessions: { ip: string }[];
      kyc: { status: string; reviewer: { email: string } | null; reason: string };
    };
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
    const audit = await api(
      server.baseUrl,
      `${A}/audit?subject=user:${dave.userInfo.id}&actor=support@swx.test`,
      get(token.admin),
    );
    const rows = (audit.body.data as AuditPage).rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows)
      expect(r).toMatchObject({ actor: `staff:${ids.support}`, actorStaff: { email: 'support@swx.test' } });
  });

  it('filters the audit log by actor, action, subject and days, pages by keyset, and checks the chain', async () => {
    // Enough rows for more than one page: 60 searches by compliance.
    for (let i = 0; i < 60; i++)
      await api(server.baseUrl, `${A}/customers?q=page${i}`, get(token.compliance));
    const first = await api(
      server.baseUrl,
      `${A}/audit?actor=compliance@swx.test&action=customer.sea`,
      get(token.admin),
    );
    const page1 = first.body.data as AuditPage;
    expect(page1.rows).toHaveLength(50);
    expect(page1.next).toBe(String(page1.rows.at(-1)?.seq));
    for (const r of page1.rows)
      expect(r).toMatchObject({ actor: `staff:${ids.compliance}`, action: 'customer.searched' });
    const second = await api(
      server.baseUrl,
      `${A}/audit?actor=compliance@swx.test&action=customer.sea&before=${page1.next}`,
      get(token.admin),
    );
    const page2 = second.body.data as AuditPage;
    expect(page2.rows.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...page2.rows.map((r) => r.seq))).toBeLessThan(Math.min(...page1.rows.map((r) => r.seq)));
    const seqs = [...page1.rows, ...page2.rows].map((r) => r.seq);
    expect(new Set(seqs).size).toBe(seqs.length);

    // A LIKE wildcard in the action is taken literally; an unknown staff email finds nothing.
    expect(
      ((await api(server.baseUrl, `${A}/audit?action=%25`, get(token.admin))).body.data as AuditPage).rows,
    ).toEqual([]);
    expect(
      (
        (await api(server.baseUrl, `${A}/audit?actor=nobody@swx.test`, get(token.admin))).body
          .data as AuditPage
      ).rows,
    ).toEqual([]);
    // Days: today has rows, a day long ago has none.
    const today = new Date().toISOString().slice(0, 10);
    const todays = (await api(server.baseUrl, `${A}/audit?from=${today}&to=${today}`, get(token.admin))).body
      .data as AuditPage;
    expect(todays.rows.length).toBeGreaterThan(0);
    for (const r of todays.rows) expect(r.at.slice(0, 10)).toBe(today);
    expect(
      (
        (await api(server.baseUrl, `${A}/audit?from=2001-01-01&to=2001-01-02`, get(token.admin))).body
          .data as AuditPage
      ).rows,
    ).toEqual([]);
    // Finance and support may not read it.
    for (const role of ['finance', 'support'])
      expect((await api(server.baseUrl, `${A}/audit`, get(token[role]))).body.code, role).toBe(10029);

    const verdict = await api(server.baseUrl, `${A}/audit/verify`, post({}, token.compliance));
    expect(verdict.body.data).toMatchObject({ ok: true, brokenAt: null, reason: null });
    expect((verdict.body.data as { rows: number }).rows).toBeGreaterThan(100);
    expect((await api(server.baseUrl, `${A}/audit/verify`, post({}, token.support))).body.code).toBe(10029);
    const logged = (await api(server.baseUrl, `${A}/audit?action=audit.verified`, get(token.admin))).body
      .data as AuditPage;
    expect(logged.rows[0]).toMatchObject({ actor: `staff:${ids.compliance}`, subject: 'audit' });
  });
});
