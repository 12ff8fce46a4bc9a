import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StaffAlert } from '@swx/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { installApiConventions } from '../../platform/http.ts';
import { claimRun } from '../../platform/jobs.repository.ts';
import { JobRunner } from '../../platform/jobs.ts';
import { createLogger } from '../../platform/logger.ts';
import { createMailer, type Mailer, type MailMessage } from '../../platform/mail.ts';
import { createTestContext, type TestContext, type TestStaff } from '../../test/context.ts';
import { productBody, testEarn } from '../../test/earn.ts';
import { staffAlertsJob } from './alerts.jobs.ts';
import { alertsRoutes } from './alerts.routes.ts';
import { AlertsService } from './alerts.service.ts';

/**
 * Staff alerts on the real database, staff service, audit log and mailer (an outbox folder): a
 * failed job and an empty earn reserve raise alerts the staff API lists, mailed to the role that
 * acts on each (admin for the job, finance for the reserve) and to nobody else; acknowledge and
 * resolve are audited and refused out of turn.
 */
describe(`staff alerts on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let alerts: AlertsService;
  let app: FastifyInstance;
  let admin: TestStaff;
  let finance: TestStaff;
  let support: TestStaff;
  const sent: MailMessage[] = [];
  const clock = { now: Date.parse('2027-03-01T00:05:00Z') };

  beforeAll(async () => {
    t = await openTestDatabase();
    ctx = await createTestContext(t.db);
    const outbox: Mailer = createMailer({
      from: 'SWX <alerts@swx.test>',
      dataDir: mkdtempSync(join(tmpdir(), 'swx-alerts-')),
    });
    const mailer: Mailer = {
      kind: outbox.kind,
      async send(message) {
        sent.push(message);
        return outbox.send(message);
      },
      close: () => outbox.close(),
    };
    alerts = new AlertsService({
      db: t.db,
      audit: ctx.audit,
      staff: ctx.staff,
      mailer,
      adminUrl: 'https://swx.test/admin',
    });
    admin = await ctx.staffMember('admin');
    finance = await ctx.staffMember('finance');
    support = await ctx.staffMember('support');
    app = Fastify({ logger: false });
    installApiConventions(app, async () => null);
    alertsRoutes(app, ctx.staff, alerts);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const api = async <T>(staff: TestStaff, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const answer = await app.inject({
      method,
      url: `/swx/admin${url}`,
      headers: { authorization: `Bearer ${staff.token}` },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    return answer.json() as { code: number; data: T };
  };
  const mailTo = (staff: TestStaff) => sent.filter((m) => m.to === staff.email);

  it('a failed job raises one alert while unresolved, listed by the staff API and mailed to the admins only', async () => {
    const jobs = new JobRunner(
      t.db,
      'node-a',
      createLogger({ logLevel: 'silent', nodeId: 'test' }),
      () => clock.now,
    );
    jobs.onFailure((failure) => alerts.jobFailed(failure));
    jobs.register({
      name: 'broken-feed',
      everyMs: 60_000,
      runKey: (now) => now.toISOString().slice(0, 16),
      run: async () => {
        throw new Error('the feed answered 502');
      },
    });
    expect(await jobs.tick('broken-feed')).toBe(true);
    // A minute later it fails again: still one alert for the job.
    clock.now += 60_000;
    expect(await jobs.tick('broken-feed')).toBe(true);

    const open = await api<StaffAlert[]>(admin, 'GET', '/alerts');
    expect(open.code).toBe(200);
    const mine = open.data.filter((a) => a.kind === 'job.failed');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ state: 'open', mailedTo: ['admin'] });
    expect(mine[0]?.message).toContain('job broken-feed failed');
    expect(mine[0]?.message).toContain('the feed answered 502');

    expect(mailTo(admin)).toHaveLength(1);
    expect(mailTo(admin)[0]?.subject).toBe(`SWX alert #${mine[0]?.id}: a job failed`);
    expect(mailTo(admin)[0]?.text).toContain('https://swx.test/admin/alerts');
    expect(mailTo(finance)).toHaveLength(0);
    expect(mailTo(support)).toHaveLength(0);
    // Support does not act on alerts: the staff API refuses them.
    expect((await api(support, 'GET', '/alerts')).code).toBe(10029);
  });

  it('an empty earn reserve raises an alert mailed to finance (by the alerts job), not to admin or support', async () => {
    const before = { admin: mailTo(admin).length, finance: mailTo(finance).length };
    const { earn } = testEarn(
      { db: t.db, ledger: ctx.ledger, audit: ctx.audit, notices: ctx.notices },
      { now: () => clock.now },
    );
    const product = (await earn.createProduct('staff:1', productBody({ name: 'Unfunded fund' }))).product;
    const customer = await ctx.customer();
    // Off sale before the last click: the quote is refused, and staff hear of it.
    await expect(
      earn.quote('demo', customer.id, { productId: product.id, amount: '500' }),
    ).rejects.toMatchObject({ code: 10044 });

    // Raised, not mailed yet: the alerts job mails it.
    let listed = (await api<StaffAlert[]>(finance, 'GET', '/alerts')).data.find(
      (a) => a.kind === 'earn.reserve',
    );
    expect(listed).toMatchObject({ state: 'open', mailedAt: null, mailedTo: [] });
    expect(await alerts.mailPending()).toBe(1);
    expect(await alerts.mailPending()).toBe(0);
    listed = (await api<StaffAlert[]>(finance, 'GET', '/alerts')).data.find((a) => a.kind === 'earn.reserve');
    expect(listed).toMatchObject({ state: 'open', mailedTo: ['finance'] });
    expect(listed?.mailedAt).not.toBeNull();

    const toFinance = mailTo(finance).slice(before.finance);
    expect(toFinance).toHaveLength(1);
    expect(toFinance[0]?.subject).toBe(
      `SWX alert #${listed?.id}: an earn product's reserve cannot cover new interest`,
    );
    expect(toFinance[0]?.text).toContain('Unfunded fund');
    expect(mailTo(admin)).toHaveLength(before.admin);
    expect(mailTo(support)).toHaveLength(0);
  });

  it('acknowledge, then resolve with a note: each audited with the staff member, refused out of turn (10008)', async () => {
    const [alert] = (await api<StaffAlert[]>(finance, 'GET', '/alerts')).data.filter(
      (a) => a.kind === 'earn.reserve',
    );
    if (!alert) throw new Error('no reserve alert');
    const acknowledged = await api<StaffAlert>(finance, 'POST', `/alerts/${alert.id}/acknowledge`, {});
    expect(acknowledged.data).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: { id: finance.id, email: finance.email },
    });
    expect((await api(finance, 'POST', `/alerts/${alert.id}/acknowledge`, {})).code).toBe(10008);
    expect((await api(finance, 'POST', `/alerts/${alert.id}/resolve`, { note: 'ok' })).code).toBe(10026);
    const resolved = await api<StaffAlert>(finance, 'POST', `/alerts/${alert.id}/resolve`, {
      note: 'reserve funded with 5,000 USDT',
    });
    expect(resolved.data).toMatchObject({ state: 'resolved', resolvedBy: { id: finance.id } });
    expect((await api(admin, 'POST', `/alerts/${alert.id}/resolve`, { note: 'again' })).code).toBe(10008);
    expect((await api(admin, 'POST', '/alerts/999999/acknowledge', {})).code).toBe(10028);

    const byState = async (state: string) =>
      (await api<StaffAlert[]>(admin, 'GET', `/alerts?state=${state}`)).data.map((a) => a.id);
    expect(await byState('open')).not.toContain(alert.id);
    expect(await byState('acknowledged')).not.toContain(alert.id);
    expect(await byState('resolved')).toContain(alert.id);

    const audit = await ctx.audit.search({ subject: `staff_alert:${alert.id}`, limit: 10 });
    expect(audit.map((row) => [row.action, row.actor])).toEqual(
      expect.arrayContaining([
        ['staff_alert.acknowledged', `staff:${finance.id}`],
        ['staff_alert.resolved', `staff:${finance.id}`],
        ['staff_alert.raised', 'system'],
      ]),
    );
  });

  it('a job that fails again after its alert was resolved raises a new one', async () => {
    const first = (await api<StaffAlert[]>(admin, 'GET', '/alerts')).data.find(
      (a) => a.kind === 'job.failed',
    );
    if (!first) throw new Error('no job alert');
    await api(admin, 'POST', `/alerts/${first.id}/resolve`, { note: 'feed restarted' });
    const again = await alerts.jobFailed({
      job: 'broken-feed',
      runKey: 'x',
      attempt: 1,
      error: new Error('502'),
    });
    expect(again).not.toBeNull();
    expect(again).not.toBe(first.id);
    expect(
      await alerts.jobFailed({ job: 'broken-feed', runKey: 'y', attempt: 1, error: 'again' }),
    ).toBeNull();
  });

  it('a stalled run (its node died: still running after its lease) raises one alert, mailed to the admins by the alerts job', async () => {
    const logger = createLogger({ logLevel: 'silent', nodeId: 'test' });
    const jobs = new JobRunner(t.db, 'node-b', logger, () => clock.now);
    // A node claims a run with a lease of a millisecond and never finishes it.
    expect(
      await claimRun(t.db, {
        job: 'ledger-sweep',
        runKey: 'k1',
        node: 'node-dead',
        leaseMs: 1,
        maxAttempts: 3,
      }),
    ).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    const before = mailTo(admin).length;
    const job = staffAlertsJob(alerts, jobs);
    await job.run({ runKey: 'm1', attempt: 1, logger });
    await job.run({ runKey: 'm2', attempt: 1, logger });
    const stalled = (await api<StaffAlert[]>(admin, 'GET', '/alerts')).data.filter(
      (a) => a.kind === 'job.stalled',
    );
    expect(stalled).toHaveLength(1);
    expect(stalled[0]?.message).toContain('job ledger-sweep stalled: run k1 on node node-dead');
    expect(stalled[0]?.mailedTo).toEqual(['admin']);
    expect(
      mailTo(admin)
        .slice(before)
        .map((m) => m.subject),
    ).toEqual([
      `SWX alert #${stalled[0]?.id}: a job stalled: its run is still marked running after its lease ran out`,
    ]);
  });
});
