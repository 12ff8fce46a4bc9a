import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { FileStorage } from '../../platform/storage.ts';
import { AuditService } from '../audit/audit.service.ts';
import { OperatorService } from '../operator/operator.service.ts';
import { StaffService, type StaffSession } from '../staff/staff.service.ts';
import { UploadsService } from '../uploads/uploads.service.ts';
import { HelpService } from './content.help.ts';
import { ContentService } from './content.service.ts';

/** The refusal's issues, or null when the call did not refuse with 10026. */
async function issuesOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 10026) return error.data;
    throw error;
  }
}

describe(`help centre on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let content: ContentService;
  let help: HelpService;
  let audit: AuditService;
  let editor: StaffSession;

  beforeAll(async () => {
    t = await openTestDatabase();
    audit = new AuditService(t.db);
    content = new ContentService(t.db, new OperatorService({ db: t.db, audit, production: false }));
    const storage = new FileStorage(mkdtempSync(join(tmpdir(), 'swx-help-')));
    help = new HelpService(t.db, audit, new UploadsService({ db: t.db, storage }));
    await content.seed();
    const staff = new StaffService({
      db: t.db,
      audit,
      rateLimiter: createMemoryRateLimiter(),
      keys: new KeyRing(Buffer.alloc(32, 5)),
    });
    const created = await staff.create({ email: 'editor@example.org', role: 'support' }, null);
    editor = {
      staffId: created.staff.id,
      email: created.staff.email,
      role: 'support',
      sessionId: 'b'.repeat(24),
    };
  });
  afterAll(() => t.close());

  it('seeds honest FAQ articles in ten languages, each one id, its text in the reader language', async () => {
    const english = await content.listNumbered('en', 5, 0, true);
    expect(english.map((item) => item.slug)).toContain('help-demo-book');
    const german = await content.listNumbered('de', 5, 0, true);
    expect(german.map((item) => item.id)).toEqual(english.map((item) => item.id));
    expect(german[0]).toMatchObject({ language: 'de', category: expect.any(Number) });
    expect(german[0]?.title).not.toBe(english[0]?.title);
    const article = await content.get('ar', german[0]?.id ?? 0);
    expect(article.language).toBe('ar');
    expect(article.body).toContain('**');
  });

  it('keeps a draft from customers until it is published, then shows each language its own text', async () => {
    const created = await help.create(editor, {
      type: 5,
      category: 2,
      slug: 'closing-hours',
      language: 'en',
      title: 'When does a market close?',
      body: 'Each market has **opening hours**.',
    });
    expect(created.published).toBe(false);
    expect(created.drafts).toEqual(['en']);
    expect((await content.listNumbered('en', 5, 2, true)).map((i) => i.id)).not.toContain(created.id);
    expect(await help.search('en', 'opening hours')).toEqual([]);
    await expect(content.get('en', created.id)).rejects.toMatchObject({ code: 10028 });

    await help.saveDraft(editor, created.id, {
      language: 'fr',
      title: 'Quand un marché ferme-t-il ?',
      body: "Chaque marché a des **heures d'ouverture**.",
    });
    const published = await help.publish(editor, created.id);
    expect(published).toMatchObject({ published: true, languages: ['en', 'fr'], drafts: [] });
    expect((await content.get('fr', created.id)).title).toBe('Quand un marché ferme-t-il ?');
    expect((await content.get('de', created.id)).language).toBe('en');

    const french = await help.search('fr', "heures d'ouverture");
    expect(french.map((hit) => [hit.id, hit.language])).toEqual([[created.id, 'fr']]);
    const english = await help.search('en', 'OPENING');
    expect(english.map((hit) => hit.id)).toEqual([created.id]);
    expect(english[0]?.excerpt).toContain('opening hours');
    const german = await help.search('de', 'opening');
    expect(german.map((hit) => [hit.id, hit.language])).toEqual([[created.id, 'en']]);
    expect(await help.search('fr', 'opening')).toEqual([]);
  });

  it('keeps the published text while a new draft waits; unpublishing hides it; every step a revision, audited', async () => {
    const article = await help.create(editor, {
      type: 6,
      category: 1,
      slug: 'maintenance-window',
      language: 'en',
      title: 'Maintenance',
      body: 'First text.',
    });
    await help.publish(editor, article.id);
    await help.saveDraft(editor, article.id, { language: 'en', title: 'Maintenance', body: 'Second text.' });
    expect((await content.get('en', article.id)).body).toBe('First text.');
    await help.unpublish(editor, article.id);
    await expect(content.get('en', article.id)).rejects.toMatchObject({ code: 10028 });
    await help.publish(editor, article.id);
    expect((await content.get('en', article.id)).body).toBe('Second text.');

    const record = await help.article(article.id);
    expect(record.revisions.map((r) => r.action)).toEqual([
      'published',
      'unpublished',
      'draft',
      'published',
      'created',
    ]);
    expect(record.revisions.every((r) => r.staff === 'editor@example.org')).toBe(true);
    const events = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE subject = $1 ORDER BY seq`,
      [`content:${article.id}`],
    );
    expect(events.map((e) => e.action)).toEqual([
      'content.help.created',
      'content.help.published',
      'content.help.draft_saved',
      'content.help.unpublished',
      'content.help.published',
    ]);
    await expect(
      t.db.query('DELETE FROM content_revisions WHERE content_id = $1', [article.id]),
    ).rejects.toThrow(/append-only/);
    expect((await audit.verify()).ok).toBe(true);
  });

  it('refuses to publish without English text', async () => {
    const article = await help.create(editor, {
      type: 5,
      category: 1,
      slug: 'japanese-only',
      language: 'ja',
      title: 'デモ',
      body: 'テキスト',
    });
    expect(await issuesOf(help.publish(editor, article.id))).toEqual([
      { path: 'language', issue: 'en_missing' },
    ]);
  });

  it.each([
    ['a script', '<script>alert(1)</script>', 'html'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>', 'html'],
    ['an event handler', '<img src=x onerror=alert(1)>', 'html'],
    ['a javascript: link', '[x](javascript:alert(1))', 'link'],
    ['a foreign image', '![x](https://evil.example/x.png)', 'image'],
  ])('refuses on save a text with %s, and keeps nothing of it', async (_name, body, issue) => {
    const [first] = await content.listNumbered('en', 5, 0, true);
    const id = first?.id ?? 0;
    const before = await help.article(id);
    expect(await issuesOf(help.saveDraft(editor, id, { language: 'en', title: 'x', body }))).toContainEqual({
      path: 'body',
      issue,
    });
    expect(await help.article(id)).toEqual(before);
  });
});
