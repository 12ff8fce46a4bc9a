import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { type CustomerApi, type StaffApi, staffApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { HARBOUR_IDENTITY } from '../support/operator.ts';
import { api, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';

const A = '/swx/admin';
const SETTINGS = {
  ...HARBOUR_IDENTITY,
  leaders: [{ name: 'Dana Whitfield', role: { en: 'Chief Executive Officer' } }],
  partners: [],
  social: [],
};
const post = (body: unknown, token?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
  body: JSON.stringify(body),
});

describe('operator identity over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let admin: StaffApi;
  let support: StaffApi;
  let finance: StaffApi;
  let customer: Session;
  let anonymous: CustomerApi;

  // The operator command creates the first admin before the server holds the data folder; the
  // admin creates the other staff through the staff API.
  useServer(
    { staff: [{ email: 'admin@harbour-markets.com', role: 'admin' }] },
    (s) => ({ server, inbox, anonymous, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    const adminPassword = oneTimePasswords['admin@harbour-markets.com'] ?? '';
    admin = staffApi(
      server,
      await enrolStaffByApi(server.baseUrl, 'admin@harbour-markets.com', adminPassword),
    );
    const createStaff = async (email: string, role: 'support' | 'finance') => {
      const { oneTimePassword } = await admin.ok('createStaff', { email, role });
      return staffApi(server, await enrolStaffByApi(server.baseUrl, email, oneTimePassword));
    };
    support = await createStaff('support@harbour-markets.com', 'support');
    finance = await createStaff('finance@harbour-markets.com', 'finance');
    customer = await registerByApi(server, inbox, 'reader@example.com');
  }, 240_000);

  it('answers the sandbox default to anyone, with the envelope and security headers', async () => {
    const answer = await anonymous.call('getOperator');
    expect(answer.status).toBe(200);
    expect(answer).toMatchObject({
      code: 200,
      data: { sandbox: true, leaders: [], partners: [], social: [], updatedAt: null },
    });
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('refuses customers, other staff roles and no session; nothing changes', async () => {
    for (const staff of [support, finance]) {
      const read = await staff.call('getOperatorSettings');
      expect(read.status).toBe(403);
      expect(read.code).toBe(10029);
      const write = await staff.call('setOperatorSettings', SETTINGS);
      expect(write.status).toBe(403);
      expect(write.code).toBe(10029);
    }
    const asCustomer = await staffApi(server, customer).call('setOperatorSettings', SETTINGS);
    expect(asCustomer.status).toBe(401);
    const nobody = await staffApi(server).call('setOperatorSettings', SETTINGS);
    expect(nobody.status).toBe(401);
    expect((await anonymous.call('getOperator')).data).toMatchObject({ sandbox: true });
  });

  it('refuses invalid settings with 10026 and the fields at fault', async () => {
    // Values outside the contract, on the wire: a raw request.
    const bad = await api(
      server.baseUrl,
      `${A}/settings/operator`,
      post(
        {
          ...SETTINGS,
          supportEmail: 'support@swx.localhost',
          companyName: '[registered company name]',
          riskAsOf: undefined,
        },
        admin.token,
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(10026);
    const paths = (bad.body.data as { path: string }[]).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['supportEmail', 'companyName']));
    expect((await anonymous.call('getOperator')).data).toMatchObject({ sandbox: true });
  });

  it('lets an admin set the identity: the public call and the pages show it, and the change is audited', async () => {
    const saved = await admin.call('setOperatorSettings', SETTINGS);
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({ settings: SETTINGS, updatedBy: 'admin@harbour-markets.com' });
    const read = await admin.call('getOperatorSettings');
    expect(read.data).toMatchObject({ settings: SETTINGS });

    const info = await anonymous.call('getOperator');
    expect(info.data).toMatchObject({
      sandbox: false,
      companyName: 'Harbour Markets Ltd',
      riskPercent: '74.5',
    });

    const french = anonymous.with({ language: 'fr' });
    const list = await french.call('listContents', { type: 3 });
    const risk = list.data.find((item) => item.slug === 'risk');
    const page = await french.call('getContentsById', { id: risk?.id ?? 0 });
    const body = page.data.body;
    expect(body).toMatch(/74,5\s%/);
    expect(body).toContain('30 septembre 2026');
    expect(body).not.toMatch(/[[\]{}]/);

    // The audit trail, read through the staff audit-log call: one row, this admin, the fields changed.
    const audit = await admin.call('auditLog', { action: 'operator.settings' });
    expect(audit.code).toBe(200);
    const rows = audit.data.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'operator.settings.updated',
      actorStaff: { email: 'admin@harbour-markets.com' },
    });
    expect(JSON.parse(rows[0]?.data ?? '{}')).toMatchObject({
      changed: expect.arrayContaining(['companyName', 'regulator', 'riskPercent']),
    });
    const chain = await admin.call('verifyAudit');
    expect(chain.data).toMatchObject({ ok: true });
  });
});
