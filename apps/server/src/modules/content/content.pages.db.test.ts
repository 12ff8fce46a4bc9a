import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, parseMarkup } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { jpegWithGps, pdfDocument, pngImage, zipOf } from '../../../../../tests/support/images.ts';
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

/** The refusal's code and data, or 'accepted'. */
const outcome = (work: Promise<unknown>) =>
  work.then(
    () => 'accepted',
    (error: unknown) => {
      if (error instanceof ApiError) return { code: error.code, data: error.data };
      throw error;
    },
  );

const IMAGE_REFUSED = { code: Code.INVALID_INPUT, data: [{ path: 'body', issue: 'image' }] };

/**
 * The company and policy pages on the help centre's editor (drafts per language, English first,
 * revisions, audit), and the images of articles and pages: uploaded by staff through the uploads
 * service, taken by the text that shows them, served to anyone only while a published text does.
 */
describe(`content pages and images on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let content: ContentService;
  let help: HelpService;
  let uploads: UploadsService;
  let audit: AuditService;
  let editor: StaffSession;
  let other: StaffSession;

  async function staffMember(email: string): Promise<StaffSession> {
    const staff = new StaffService({
      db: t.db,
      audit,
      rateLimiter: createMemoryRateLimiter(),
      keys: new KeyRing(Buffer.alloc(32, 5)),
    });
    const created = await staff.create({ email, role: 'support' }, null);
    return { staffId: created.staff.id, email, role: 'support', sessionId: 'c'.repeat(24) };
  }

  /** A content image the staff member uploads in the editor (the admin call's service path). */
  const upload = async (who: StaffSession, bytes: Buffer) =>
    (await uploads.store(`staff:${who.staffId}`, 'content_image', async () => bytes)).id;

  const termsId = async () => (await content.list('en', 2)).find((item) => item.slug === 'terms')?.id ?? 0;

  beforeAll(async () => {
    t = await openTestDatabase();
    audit = new AuditService(t.db);
    uploads = new UploadsService({
      db: t.db,
      storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-content-'))),
    });
    content = new ContentService(t.db, new OperatorService({ db: t.db, audit, production: false }));
    help = new HelpService(t.db, audit, uploads);
    uploads.servePublicly('content_image', (row) => help.imageIsPublic(row));
    await content.seed();
    editor = await staffMember('pages@example.org');
    other = await staffMember('other@example.org');
  });
  afterAll(() => t.close());

  it('lists the company and policy pages for the editor, their ten languages published', async () => {
    const pages = await help.list('pages');
    expect(pages.map((page) => page.slug)).toEqual(
      expect.arrayContaining(['about', 'licence', 'legal', 'terms', 'privacy', 'cookies', 'risk']),
    );
    expect(pages.every((page) => [1, 2, 3].includes(page.type) && page.published)).toBe(true);
    expect(pages.find((page) => page.slug === 'terms')?.languages).toHaveLength(10);
    expect((await help.list(5)).every((item) => item.type === 5)).toBe(true);
  });

  it("serves a page as the safe markup, the operator's settings filled in", async () => {
    const terms = await content.get('en', await termsId());
    const blocks = parseMarkup(terms.body);
    expect(blocks[0]).toEqual({ t: 'h2', c: [{ t: 'text', v: 'Sandbox' }] });
    expect(blocks.filter((block) => block.t === 'h2').length).toBeGreaterThan(3);
    expect(terms.body).not.toMatch(/[{}]/);
    const arabic = await content.get('ar', await termsId());
    expect(arabic.language).toBe('ar');
    expect(parseMarkup(arabic.body)[0]?.t).toBe('h2');
  });

  it('keeps a page draft from customers until it is published, English first; every step a revision, audited', async () => {
    const id = await termsId();
    const before = await content.get('en', id);
    const image = await upload(editor, await pngImage(400, 240, 4));
    const body = `## Our terms in short\n\n![A diagram of the two books](/swx/files/${image})\n\n{?sandbox}This sandbox has no company behind it.\n{?company}These terms are agreed with {company}.`;
    await help.saveDraft(editor, id, { language: 'ar', title: 'شروط الخدمة', body: 'نص **جديد**.' });
    await help.saveDraft(editor, id, { language: 'en', title: 'Terms of service', body });
    expect((await content.get('en', id)).body).toBe(before.body);
    expect(await uploads.filePublic(image)).toBeNull();

    const published = await help.publish(editor, id);
    expect(published).toMatchObject({ published: true, drafts: [] });
    const english = await content.get('en', id);
    expect(english.body).toBe(
      `## Our terms in short\n\n![A diagram of the two books](/swx/files/${image})\n\nThis sandbox has no company behind it.`,
    );
    expect((await content.get('ar', id)).body).toBe('نص **جديد**.');
    expect(await uploads.filePublic(image)).not.toBeNull();

    // The preview shows what customers get, before anything is saved.
    expect(await content.preview('en', 2, body)).toEqual({ body: english.body });
    const record = await help.article(id);
    expect(record.revisions.map((r) => [r.action, r.language])).toEqual([
      ['published', 'en'],
      ['published', 'ar'],
      ['draft', 'en'],
      ['draft', 'ar'],
    ]);
    const events = await t.db.query<{ action: string }>(
      'SELECT action FROM audit_log WHERE subject = $1 ORDER BY seq',
      [`content:${id}`],
    );
    expect(events.map((e) => e.action)).toEqual([
      'content.help.draft_saved',
      'content.help.draft_saved',
      'content.help.published',
    ]);
    expect((await audit.verify()).ok).toBe(true);
  });

  it('refuses a page draft with a script or a foreign image, and keeps nothing of it', async () => {
    const id = await termsId();
    const before = await help.article(id);
    for (const [body, issue] of [
      ['<script>alert(1)</script>', 'html'],
      ['![x](https://evil.example/x.png)', 'image'],
      ['![x](//evil.example/x.png)', 'image'],
    ] as const)
      expect(await outcome(help.saveDraft(editor, id, { language: 'en', title: 'x', body }))).toEqual({
        code: Code.INVALID_INPUT,
        data: [{ path: 'body', issue }],
      });
    expect(await help.article(id)).toEqual(before);
  });

  it("serves a draft's image to nobody outside staff: a new article's, a published article's new draft's", async () => {
    const article = await help.create(editor, {
      type: 5,
      category: 1,
      slug: 'pages-image-draft',
      language: 'en',
      title: 'Charts',
      body: 'Text first.',
    });
    await help.publish(editor, article.id);
    const image = await upload(editor, await jpegWithGps());
    await help.saveDraft(editor, article.id, {
      language: 'en',
      title: 'Charts',
      body: `Text first.\n\n![A chart](/swx/files/${image})`,
    });
    // Guessing the id of a draft's image finds nothing.
    expect(await uploads.filePublic(image)).toBeNull();
    await help.publish(editor, article.id);
    expect(await uploads.filePublic(image)).not.toBeNull();
    await help.unpublish(editor, article.id);
    expect(await uploads.filePublic(image)).toBeNull();
    // Staff who read content still see it in the editor.
    expect(await uploads.fileForStaff('compliance', image)).not.toBeNull();
  });

  it("refuses another staff member's unused image, another item's image, a customer's upload and an unknown id", async () => {
    const id = await termsId();
    const privacy = (await content.list('en', 2)).find((item) => item.slug === 'privacy')?.id ?? 0;
    const notMine = await upload(other, await pngImage(200, 120, 5));
    const mine = await upload(editor, await pngImage(200, 120, 6));
    await help.saveDraft(editor, privacy, {
      language: 'en',
      title: 'Privacy',
      body: `![p](/swx/files/${mine})`,
    });
    const [user] = await t.db.query<{ id: string }>(
      "INSERT INTO users (user_name, password_hash, language) VALUES ('pages-customer', '$argon2id$x', 'en') RETURNING id",
    );
    const customers = (await uploads.store(Number(user?.id), 'kyc_front', async () => pngImage(300, 200, 7)))
      .id;
    for (const image of [notMine, mine, customers, 'abcdef0123456789abcdef01'])
      expect(
        await outcome(
          help.saveDraft(editor, id, { language: 'en', title: 'x', body: `![x](/swx/files/${image})` }),
        ),
      ).toEqual(IMAGE_REFUSED);
    // The customer's photo is still theirs, untaken.
    expect(await uploads.filePublic(customers)).toBeNull();
    const taken = await t.db.query<{ used_for: string | null }>(
      'SELECT used_for FROM uploads WHERE id = $1',
      [customers],
    );
    expect(taken[0]?.used_for).toBeNull();
  });

  it('keeps every image an editor added before saving (more than a customer keeps unused)', async () => {
    const writer = await staffMember('many.images@example.org');
    const ids: string[] = [];
    for (let seed = 10; seed < 15; seed++) ids.push(await upload(writer, await pngImage(120, 80, seed)));
    const article = await help.create(writer, {
      type: 5,
      category: 1,
      slug: 'five-images',
      language: 'en',
      title: 'Five images',
      body: ids.map((id, n) => `![Step ${n + 1}](/swx/files/${id})`).join('\n\n'),
    });
    expect(article.drafts).toEqual(['en']);
  });

  it('takes content images from staff only, and only images: a PDF or a ZIP named .png is refused', async () => {
    const [user] = await t.db.query<{ id: string }>(
      "INSERT INTO users (user_name, password_hash, language) VALUES ('pages-uploader', '$argon2id$x', 'en') RETURNING id",
    );
    expect(await outcome(uploads.store(Number(user?.id), 'content_image', async () => pngImage()))).toEqual({
      code: Code.INVALID_INPUT,
      data: [{ path: 'purpose', issue: 'purpose' }],
    });
    for (const bytes of [pdfDocument(), zipOf('a.png', 'not an image'), Buffer.from('<svg onload=alert(1)>')])
      expect(await outcome(upload(editor, bytes))).toMatchObject({
        code: Code.INVALID_INPUT,
        data: [{ path: 'file' }],
      });
  });
});
