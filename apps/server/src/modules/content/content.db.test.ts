import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { AuditService } from '../audit/audit.service.ts';
import { OperatorService } from '../operator/operator.service.ts';
import { ParamsService } from '../params/params.service.ts';
import { ContentService } from './content.service.ts';

describe(`content on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let content: ContentService;
  beforeAll(async () => {
    t = await openTestDatabase();
    content = new ContentService(
      t.db,
      new OperatorService({ db: t.db, audit: new AuditService(t.db), production: false }),
    );
    await content.seed();
  });
  afterAll(() => t.close());

  it('seeds the footer pages and About us in ten languages, each item one id', async () => {
    const english = await content.listNumbered('en', 4, 2, true);
    const arabic = await content.listNumbered('ar', 4, 2, true);
    expect(english.map((i) => i.slug)).toEqual([
      'about',
      'licence',
      'legal',
      'terms',
      'privacy',
      'cookies',
      'disclaimer',
      'risk',
      'advertising',
    ]);
    expect(arabic.map((i) => i.id)).toEqual(english.map((i) => i.id));
    expect(arabic[0]?.title).not.toBe(english[0]?.title);
    expect(english.filter((i) => i.type === 1).map((i) => i.slug)).toEqual(['about', 'licence', 'legal']);
  });

  it('lists one type in the reader language', async () => {
    const policies = await content.list('de', 2);
    expect(policies.map((i) => i.slug)).toEqual(['terms', 'privacy', 'cookies']);
    expect(policies.every((i) => i.type === 2)).toBe(true);
  });

  it('uses the list id when the request names no language: 1 Chinese, 2 English', async () => {
    const chinese = await content.listNumbered('en', 4, 1, false);
    const english = await content.listNumbered('en', 4, 2, false);
    expect(chinese[0]?.title).toBe((await content.list('zh', 1))[0]?.title);
    expect(english[0]?.title).toBe('About us');
  });

  it('gives the body in the reader language and 10028 for an unknown id', async () => {
    const [about] = await content.list('en', 1);
    const detail = await content.get('ja', about?.id ?? 0);
    expect(detail.language).toBe('ja');
    expect(detail.body.length).toBeGreaterThan(100);
    await expect(content.get('en', 999_999)).rejects.toSatisfy(
      (e: unknown) => e instanceof ApiError && e.code === 10028,
    );
  });

  it('never overwrites text staff edited when the seed runs again', async () => {
    const [about] = await content.list('fr', 1);
    await t.db.query(
      "UPDATE content_translations SET title = 'Qui sommes-nous (édité)' WHERE content_id = $1 AND language = 'fr'",
      [about?.id],
    );
    await content.seed();
    expect((await content.get('fr', about?.id ?? 0)).title).toBe('Qui sommes-nous (édité)');
  });

  it('falls back to English where a translation is missing', async () => {
    const [terms] = await content.list('en', 2);
    await t.db.query("DELETE FROM content_translations WHERE content_id = $1 AND language = 'ko'", [
      terms?.id,
    ]);
    const detail = await content.get('ko', terms?.id ?? 0);
    expect(detail.language).toBe('en');
    expect(detail.title).toBe('Terms of service');
    await content.seed(); // restores the missing translation
    expect((await content.get('ko', terms?.id ?? 0)).language).toBe('ko');
  });

  it('serves public parameters only, 10018 otherwise', async () => {
    const params = new ParamsService(t.db);
    await params.seedDefaults();
    expect(await params.getPublic('minDeposit.BTC')).toEqual({ key: 'minDeposit.BTC', value: '0.015' });
    await t.db.query(
      "INSERT INTO system_params (key, value, is_public) VALUES ('internalSecret', 'x', false)",
    );
    await expect(params.getPublic('internalSecret')).rejects.toSatisfy(
      (e: unknown) => e instanceof ApiError && e.code === 10018,
    );
    await expect(params.getPublic('nope')).rejects.toSatisfy(
      (e: unknown) => e instanceof ApiError && e.code === 10018,
    );
    expect(await params.get('internalSecret')).toBe('x');
  });
});
