import type { OperatorSettings } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { AuditService } from '../audit/audit.service.ts';
import { ContentService } from '../content/content.service.ts';
import { StaffService, type StaffSession } from '../staff/staff.service.ts';
import { OperatorService } from './operator.service.ts';

const SETTINGS: OperatorSettings = {
  companyName: 'Harbour Markets Ltd',
  registrationNumber: 'HE 412233',
  registrationCountry: 'CY',
  regulator: 'Cyprus Securities and Exchange Commission',
  licenceNumber: '388/20',
  supportEmail: 'help@harbour-markets.com',
  riskPercent: '74.5',
  riskAsOf: '2026-09-30',
  leaders: [{ name: 'Dana Whitfield', role: { en: 'Chief Executive Officer', de: 'Geschäftsführerin' } }],
  partners: [{ name: 'Clearing Partner AG', url: 'https://clearing-partner.ch/' }],
  social: [{ network: 'x', url: 'https://x.com/harbourmarkets' }],
};

describe(`operator settings on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let audit: AuditService;
  let operator: OperatorService;
  let content: ContentService;
  let admin: StaffSession;

  beforeAll(async () => {
    t = await openTestDatabase();
    audit = new AuditService(t.db);
    operator = new OperatorService({ db: t.db, audit, production: false });
    content = new ContentService(t.db, operator);
    await content.seed();
    const staff = new StaffService({
      db: t.db,
      audit,
      rateLimiter: createMemoryRateLimiter(),
      keys: new KeyRing(Buffer.alloc(32, 3)),
    });
    const created = await staff.create({ email: 'owner@harbour-markets.com', role: 'admin' }, null);
    admin = {
      staffId: created.staff.id,
      email: created.staff.email,
      role: 'admin',
      sessionId: 'a'.repeat(24),
    };
  });
  afterAll(() => t.close());

  const legalPage = async (language: 'en' | 'de') => {
    const [legal] = (await content.list(language, 1)).filter((item) => item.slug === 'legal');
    return content.get(language, legal?.id ?? 0);
  };

  it('starts as the sandbox: nothing set, and the pages say so', async () => {
    expect(await operator.info()).toEqual({
      leaders: [],
      partners: [],
      social: [],
      sandbox: true,
      updatedAt: null,
    });
    const legal = await legalPage('en');
    expect(legal.body).toContain('no regulated firm runs it');
    expect(legal.body).not.toMatch(/[[\]{}]/);
    expect(legal.body).not.toContain('Regulator:');
  });

  it('saves the settings, audits the change with the staff member and the fields changed, and fills the pages', async () => {
    const saved = await operator.set(admin, SETTINGS);
    expect(saved.settings).toEqual(SETTINGS);
    expect(saved.updatedBy).toBe('owner@harbour-markets.com');
    const info = await operator.info();
    expect(info.sandbox).toBe(false);
    expect(info.leaders[0]?.name).toBe('Dana Whitfield');

    const rows = await t.db.query<{ actor: string; action: string; subject: string; data: string }>(
      "SELECT actor, action, subject, data FROM audit_log WHERE action = 'operator.settings.updated' ORDER BY seq",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.actor).toBe(`staff:${admin.staffId}`);
    const data = JSON.parse(String(rows[0]?.data)) as { changed: string[]; settings: OperatorSettings };
    expect(data.changed).toEqual(
      [
        'companyName',
        'leaders',
        'licenceNumber',
        'partners',
        'registrationCountry',
        'registrationNumber',
        'regulator',
        'riskAsOf',
        'riskPercent',
        'social',
        'supportEmail',
      ].sort(),
    );
    expect(data.settings.companyName).toBe('Harbour Markets Ltd');
    expect(await audit.verify()).toMatchObject({ ok: true });

    const legal = await legalPage('de');
    expect(legal.body).toContain('Harbour Markets Ltd');
    expect(legal.body).toContain('Zypern');
    expect(legal.body).toContain('388/20');
    expect(legal.body).not.toContain('Sandbox');
  });

  it('audits a second change with only the fields that changed, and going back to nothing is the sandbox again', async () => {
    await operator.set(admin, { ...SETTINGS, supportEmail: 'care@harbour-markets.com' });
    await operator.set(admin, { leaders: [], partners: [], social: [] });
    const rows = await t.db.query<{ data: string }>(
      "SELECT data FROM audit_log WHERE action = 'operator.settings.updated' ORDER BY seq",
    );
    expect(rows.map((row) => (JSON.parse(String(row.data)) as { changed: string[] }).changed)).toEqual([
      expect.any(Array),
      ['supportEmail'],
      expect.arrayContaining(['companyName', 'leaders', 'supportEmail']),
    ]);
    expect((await operator.info()).sandbox).toBe(true);
    expect((await legalPage('en')).body).toContain('no regulated firm runs it');
  });

  it('never calls a production run a sandbox, even with nothing set', async () => {
    const production = new OperatorService({ db: t.db, audit, production: true });
    expect((await production.info()).sandbox).toBe(false);
    const legal = await new ContentService(t.db, production).get(
      'en',
      (await content.list('en', 1)).find((item) => item.slug === 'legal')?.id ?? 0,
    );
    expect(legal.body).not.toContain('sandbox');
    expect(legal.body).not.toMatch(/[[\]{}]/);
  });

  it('refuses settings the contract refuses, and keeps what was saved', async () => {
    await expect(
      operator.set(admin, { licenceNumber: '1', leaders: [], partners: [], social: [] } as OperatorSettings),
    ).rejects.toThrow();
    await expect(
      operator.set(admin, {
        companyName: 'X Ltd',
        supportEmail: 'support@swx.localhost',
        leaders: [],
        partners: [],
        social: [],
      }),
    ).rejects.toThrow();
    expect((await operator.info()).sandbox).toBe(true);
  });
});
