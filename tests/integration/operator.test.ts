import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { HARBOUR_IDENTITY } from '../support/operator.ts';
import { api, type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';

const C = '/swx/customer';
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
  let dataDir: string;
  let admin: string;
  let support: string;
  let finance: string;
  let customer: Session;

  beforeAll(async () => {
    inbox = await startInbox();
    dataDir = mkdtempSync(join(tmpdir(), 'swx-it-operator-'));
    // The operator command creates the first admin before the server holds the data folder; the
    // admin creates the other staff through the staff API.
    const adminPassword = createStaffByCli(dataDir, 'admin@harbour-markets.com', 'admin');
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}` }, { dataDir });
    admin = (await enrolStaffByApi(server.baseUrl, 'admin@harbour-markets.com', adminPassword)).token;
    const createStaff = async (email: string, role: string) => {
      const created = await api(server.baseUrl, `${A}/staff`, post({ email, role }, admin));
      const oneTime = (created.body.data as { oneTimePassword: string }).oneTimePassword;
      return (await enrolStaffByApi(server.baseUrl, email, oneTime)).token;
    };
    support = await createStaff('support@harbour-markets.com', 'support');
    finance = await createStaff('finance@harbour-markets.com', 'finance');
    customer = await registerByApi(server, inbox, 'reader@example.com');
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the sandbox default to anyone, with the envelope and security headers', async () => {
    const answer = await api(server.baseUrl, `${C}/index/getOperator`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      code: 200,
      data: { sandbox: true, leaders: [], partners: [], social: [], updatedAt: null },
    });
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('refuses customers, other staff roles and no session; nothing changes', async () => {
    for (const token of [support, finance]) {
      const read = await api(server.baseUrl, `${A}/settings/operator`, { headers: { authorization: token } });
      expect(read.status).toBe(403);
      expect(read.body.code).toBe(10029);
      const write = await api(server.baseUrl, `${A}/settings/operator`, post(SETTINGS, token));
      expect(write.status).toBe(403);
      expect(write.body.code).toBe(10029);
    }
    const asCustomer = await api(server.baseUrl, `${A}/settings/operator`, post(SETTINGS, customer.token));
    expect(asCustomer.status).toBe(401);
    const anonymous = await api(server.baseUrl, `${A}/settings/operator`, post(SETTINGS));
    expect(anonymous.status).toBe(401);
    expect((await api(server.baseUrl, `${C}/index/getOperator`)).body.data).toMatchObject({ sandbox: true });
  });

  it('refuses invalid settings with 10026 and the fields at fault', async () => {
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
        admin,
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(10026);
    const paths = (bad.body.data as { path: string }[]).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['supportEmail', 'companyName']));
    expect((await api(server.baseUrl, `${C}/index/getOperator`)).body.data).toMatchObject({ sandbox: true });
  });

  it('lets an admin set the identity: the public call and the pages show it, and the change is audited', async () => {
    const saved = await api(server.baseUrl, `${A}/settings/operator`, post(SETTINGS, admin));
    expect(saved.body.code).toBe(200);
    expect(saved.body.data).toMatchObject({ settings: SETTINGS, updatedBy: 'admin@harbour-markets.com' });
    const read = await api(server.baseUrl, `${A}/settings/operator`, { headers: { authorization: admin } });
    expect(read.body.data).toMatchObject({ settings: SETTINGS });

    const info = await api(server.baseUrl, `${C}/index/getOperator`);
    expect(info.body.data).toMatchObject({
      sandbox: false,
      companyName: 'Harbour Markets Ltd',
      riskPercent: '74.5',
    });

    const list = await api(server.baseUrl, `${C}/index/listContents/3`, {
      headers: { 'accept-language': 'fr' },
    });
    const risk = (list.body.data as { id: number; slug: string }[]).find((item) => item.slug === 'risk');
    const page = await api(server.baseUrl, `${C}/index/getContentsById/${risk?.id}`, {
      headers: { 'accept-language': 'fr' },
    });
    const body = (page.body.data as { body: string }).body;
    expect(body).toMatch(/74,5\s%/);
    expect(body).toContain('30 septembre 2026');
    expect(body).not.toMatch(/[[\]{}]/);

    // The audit trail, read through the staff audit-log call: one row, this admin, the fields changed.
    const audit = await api(server.baseUrl, `${A}/audit?action=operator.settings`, {
      headers: { authorization: admin },
    });
    expect(audit.body.code).toBe(200);
    const rows = (
      audit.body.data as {
        rows: { actor: string; action: string; actorStaff: { email: string } | null; data: string }[];
      }
    ).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'operator.settings.updated',
      actorStaff: { email: 'admin@harbour-markets.com' },
    });
    expect(JSON.parse(rows[0]?.data ?? '{}')).toMatchObject({
      changed: expect.arrayContaining(['companyName', 'regulator', 'riskPercent']),
    });
    const chain = await api(server.baseUrl, `${A}/audit/verify`, post({}, admin));
    expect(chain.body.data).toMatchObject({ ok: true });
  });
});
