import {
  Code,
  type HelpArticle,
  type HelpArticleSummary,
  type HelpSearchHit,
  type Language,
  markupIssues,
  markupPlainText,
  normalizeMarkup,
  parseMarkup,
} from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffSession } from '../staff/staff.shared.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import {
  contentImageOwners,
  draftTexts,
  findHelpSummary,
  type HelpSummaryRow,
  hasEnglishText,
  helpRevisions,
  imageInPublishedText,
  insertContentImages,
  insertHelpArticle,
  insertRevision,
  listHelpSummaries,
  lockHelpArticle,
  publishDrafts,
  publishedTexts,
  searchHelp,
  setPublished,
  slugTaken,
  upsertDraft,
} from './content.help.repository.ts';

type Text = { language: Language; title: string; body: string };
type Staff = Pick<StaffSession, 'staffId' | 'email'>;

const iso = (at: Date) => new Date(at).toISOString();

function summary(row: HelpSummaryRow): HelpArticleSummary {
  return {
    id: row.id,
    slug: row.slug,
    type: row.type,
    category: row.category,
    published: row.published,
    title: row.title,
    languages: row.languages,
    drafts: row.drafts,
    updatedAt: iso(row.updated_at),
  };
}

/** The text as stored: line ends normalised, title trimmed; refused (10026) when its markup is not allowed. */
function checkedText(text: Text): Text {
  const body = normalizeMarkup(text.body);
  const issues = markupIssues(body);
  if (body === '') throw new ApiError(Code.INVALID_INPUT, [{ path: 'body', issue: 'empty' }]);
  if (issues.length > 0)
    throw new ApiError(
      Code.INVALID_INPUT,
      issues.map((issue) => ({ path: 'body', issue })),
    );
  const title = text.title.trim();
  if (title === '' || /[<>]/.test(title))
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'title', issue: title === '' ? 'empty' : 'html' }]);
  return { language: text.language, title, body };
}

/** The upload ids of a text's images (the markup keeps only `/swx/files/<id>` images). */
export function imageIds(body: string): string[] {
  const ids = parseMarkup(body).flatMap((block) =>
    block.t === 'img' ? [block.src.slice(block.src.lastIndexOf('/') + 1)] : [],
  );
  return [...new Set(ids)];
}

/** The pages staff edit beside the help centre: company (1), policy (2) and other (3). */
export const PAGE_TYPES = [1, 2, 3] as const;

/** Up to five words of a search, each as an ILIKE pattern (its % and _ taken literally). */
export function searchPatterns(q: string): string[] {
  return q
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .slice(0, 5)
    .map((word) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/** The words around the first match of a search in a text (or its start). */
export function excerptOf(body: string, q: string): string {
  const text = markupPlainText(body);
  const first = q.split(/\s+/).find((word) => word.length > 0) ?? '';
  const at = Math.max(0, text.toLowerCase().indexOf(first.toLowerCase()));
  // From the start of a word (the one 60 characters before the match, or the text's start).
  const back = Math.max(0, at - 60);
  const space = text.indexOf(' ', back);
  const start = back === 0 || space < 0 || space >= at ? back : space + 1;
  const end = Math.min(text.length, at + 120);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/**
 * The help centre's articles (FAQ, type 5) and notices (type 6) as staff write them: a draft per
 * language, published all at once (English needed, the fallback of every other language),
 * unpublished without losing text. Every change is a revision (append-only) and an audit event in
 * the same transaction. Customers read the published text (ContentService) and search it here.
 */
export class HelpService {
  private readonly db: Database;
  private readonly audit: Pick<AuditService, 'appendInTx'>;
  private readonly uploads: Pick<UploadsService, 'takeInTx'>;

  constructor(
    db: Database,
    audit: Pick<AuditService, 'appendInTx'>,
    uploads: Pick<UploadsService, 'takeInTx'>,
  ) {
    this.db = db;
    this.audit = audit;
    this.uploads = uploads;
  }

  async search(language: Language, q: string): Promise<HelpSearchHit[]> {
    const rows = await searchHelp(this.db, language, searchPatterns(q));
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      type: row.type,
      category: row.category,
      title: row.title,
      excerpt: excerptOf(row.body, q),
      language: row.language,
      updatedAt: iso(row.updated_at),
    }));
  }

  /** FAQ articles (5), notices (6), or the company and policy pages. */
  async list(type: 5 | 6 | 'pages'): Promise<HelpArticleSummary[]> {
    return (await listHelpSummaries(this.db, type === 'pages' ? PAGE_TYPES : [type])).map(summary);
  }

  async article(id: number, db: Queryable = this.db): Promise<HelpArticle> {
    const row = await findHelpSummary(db, id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    const [published, drafts, revisions] = [
      await publishedTexts(db, id),
      await draftTexts(db, id),
      await helpRevisions(db, id),
    ];
    const texts = [
      ...published.map((text) => ({ ...text, state: 'published' as const })),
      ...drafts.map((text) => ({ ...text, state: 'draft' as const })),
    ].map((text) => ({ ...text, updatedAt: iso(text.updated_at) }));
    return {
      ...summary(row),
      texts: texts.map(({ language, title, body, state, updatedAt }) => ({
        language,
        title,
        body,
        state,
        updatedAt,
      })),
      revisions: revisions.map((revision) => ({
        id: Number(revision.id),
        language: revision.language,
        action: revision.action,
        title: revision.title,
        staff: revision.staff_email,
        at: iso(revision.at),
      })),
    };
  }

  async create(
    staff: Staff,
    input: Text & { type: 5 | 6; category: number; slug: string },
  ): Promise<HelpArticle> {
    const text = checkedText(input);
    if (await slugTaken(this.db, input.slug))
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'slug', issue: 'taken' }]);
    const id = await this.db.transaction(async (tx) => {
      const created = await insertHelpArticle(tx, input);
      await this.takeImages(tx, staff, created, text.body);
      await upsertDraft(tx, { id: created, ...text, staffId: staff.staffId });
      await insertRevision(tx, { id: created, ...text, action: 'created', staff });
      await this.audited(tx, staff, 'content.help.created', created, {
        type: input.type,
        category: input.category,
        slug: input.slug,
        language: text.language,
      });
      return created;
    });
    return this.article(id);
  }

  async saveDraft(staff: Staff, id: number, input: Text): Promise<HelpArticle> {
    const text = checkedText(input);
    await this.db.transaction(async (tx) => {
      if (!(await lockHelpArticle(tx, id))) throw new ApiError(Code.NOT_FOUND);
      await this.takeImages(tx, staff, id, text.body);
      await upsertDraft(tx, { id, ...text, staffId: staff.staffId });
      await insertRevision(tx, { id, ...text, action: 'draft', staff });
      await this.audited(tx, staff, 'content.help.draft_saved', id, { language: text.language });
    });
    return this.article(id);
  }

  async publish(staff: Staff, id: number): Promise<HelpArticle> {
    await this.db.transaction(async (tx) => {
      if (!(await lockHelpArticle(tx, id))) throw new ApiError(Code.NOT_FOUND);
      if (!(await hasEnglishText(tx, id)))
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'language', issue: 'en_missing' }]);
      const languages = await publishDrafts(tx, id);
      await setPublished(tx, id, true);
      for (const language of languages.length > 0 ? languages : [null])
        await insertRevision(tx, { id, language, action: 'published', title: null, body: null, staff });
      await this.audited(tx, staff, 'content.help.published', id, { languages });
    });
    return this.article(id);
  }

  async unpublish(staff: Staff, id: number): Promise<HelpArticle> {
    await this.db.transaction(async (tx) => {
      if (!(await lockHelpArticle(tx, id))) throw new ApiError(Code.NOT_FOUND);
      await setPublished(tx, id, false);
      await insertRevision(tx, { id, language: null, action: 'unpublished', title: null, body: null, staff });
      await this.audited(tx, staff, 'content.help.unpublished', id, {});
    });
    return this.article(id);
  }

  /**
   * The text's images, each this item's already or a content image the staff member uploaded and
   * no text took yet (taken now, for this item). Anything else (a customer's upload, another
   * item's image, an id that is no upload): 10026 `[{path: 'body', issue: 'image'}]`.
   */
  private async takeImages(tx: Queryable, staff: Staff, id: number, body: string): Promise<void> {
    const ids = imageIds(body);
    if (ids.length === 0) return;
    const owners = await contentImageOwners(tx, ids);
    if (ids.some((upload) => owners.has(upload) && owners.get(upload) !== id))
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'body', issue: 'image' }]);
    const fresh = ids.filter((upload) => !owners.has(upload));
    if (fresh.length === 0) return;
    try {
      await this.uploads.takeInTx(
        tx,
        `staff:${staff.staffId}`,
        fresh.map((upload) => ({ path: 'body', id: upload, purpose: 'content_image' as const })),
        `content:${id}`,
      );
    } catch (error) {
      // Not this staff member's upload, not a content image, or taken already: all one refusal.
      if (error instanceof ApiError)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'body', issue: 'image' }]);
      throw error;
    }
    await insertContentImages(tx, id, fresh, staff.staffId);
  }

  /** Customers and visitors see an image only while a published text of a published item shows it. */
  async imageIsPublic(upload: { id: string; usedFor: string | null }): Promise<boolean> {
    const taker = /^content:(\d+)$/.exec(upload.usedFor ?? '');
    if (!taker) return false;
    return imageInPublishedText(this.db, Number(taker[1]), `(/swx/files/${upload.id})`);
  }

  private audited(tx: Queryable, staff: Staff, action: string, id: number, data: Record<string, unknown>) {
    return this.audit.appendInTx(tx, [
      { actor: `staff:${staff.staffId}`, action, subject: `content:${id}`, data: { id, ...data } },
    ]);
  }
}
