import type { Language } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** The help centre's SQL: staff's drafts, publication, revisions, and the customers' search. */

export type HelpSummaryRow = {
  id: number;
  slug: string;
  type: number;
  category: number;
  published: boolean;
  title: string;
  languages: string[];
  drafts: string[];
  updated_at: Date;
};

export type HelpTextRow = {
  language: string;
  title: string;
  body: string;
  updated_at: Date;
};

export type HelpRevisionRow = {
  id: number;
  language: string | null;
  action: 'created' | 'draft' | 'published' | 'unpublished';
  title: string | null;
  staff_email: string;
  at: Date;
};

export type HelpSearchRow = {
  id: number;
  slug: string;
  type: number;
  category: number;
  title: string;
  body: string;
  language: string;
  updated_at: Date;
};

const SUMMARY = `
  SELECT c.id, c.slug, c.type, c.category, c.published, c.updated_at,
    coalesce(
      (SELECT d.title FROM content_drafts d WHERE d.content_id = c.id AND d.language = 'en'),
      (SELECT t.title FROM content_translations t WHERE t.content_id = c.id AND t.language = 'en'),
      (SELECT d.title FROM content_drafts d WHERE d.content_id = c.id ORDER BY d.language LIMIT 1),
      c.slug) AS title,
    coalesce((SELECT array_agg(t.language ORDER BY t.language) FROM content_translations t
              WHERE t.content_id = c.id), '{}') AS languages,
    coalesce((SELECT array_agg(d.language ORDER BY d.language) FROM content_drafts d
              WHERE d.content_id = c.id), '{}') AS drafts
  FROM contents c`;

/** The items staff edit: the company, policy and other pages (1-3), FAQ articles (5) and notices (6). */
const EDITED_TYPES = '(1, 2, 3, 5, 6)';

export async function listHelpSummaries(db: Queryable, types: readonly number[]): Promise<HelpSummaryRow[]> {
  return db.query<HelpSummaryRow>(
    `${SUMMARY} WHERE c.type = ANY($1::smallint[]) ORDER BY c.type, c.category, c.sort, c.id LIMIT 1000`,
    [types],
  );
}

export async function findHelpSummary(db: Queryable, id: number): Promise<HelpSummaryRow | null> {
  const rows = await db.query<HelpSummaryRow>(`${SUMMARY} WHERE c.id = $1 AND c.type IN ${EDITED_TYPES}`, [
    id,
  ]);
  return rows[0] ?? null;
}

/** Locks an article of the help centre, or a page, for a change; null when there is none. */
export async function lockHelpArticle(
  tx: Queryable,
  id: number,
): Promise<{ id: number; published: boolean } | null> {
  const rows = await tx.query<{ id: number; published: boolean }>(
    `SELECT id, published FROM contents WHERE id = $1 AND type IN ${EDITED_TYPES} FOR UPDATE`,
    [id],
  );
  return rows[0] ?? null;
}

export async function publishedTexts(db: Queryable, id: number): Promise<HelpTextRow[]> {
  return db.query<HelpTextRow>(
    'SELECT language, title, body, updated_at FROM content_translations WHERE content_id = $1 ORDER BY language',
    [id],
  );
}

export async function draftTexts(db: Queryable, id: number): Promise<HelpTextRow[]> {
  return db.query<HelpTextRow>(
    'SELECT language, title, body, updated_at FROM content_drafts WHERE content_id = $1 ORDER BY language',
    [id],
  );
}

export async function helpRevisions(db: Queryable, id: number): Promise<HelpRevisionRow[]> {
  return db.query<HelpRevisionRow>(
    `SELECT id, language, action, title, staff_email, at FROM content_revisions
     WHERE content_id = $1 ORDER BY id DESC LIMIT 200`,
    [id],
  );
}

export async function slugTaken(db: Queryable, slug: string): Promise<boolean> {
  const rows = await db.query<{ one: number }>('SELECT 1 AS one FROM contents WHERE slug = $1', [slug]);
  return rows.length > 0;
}

export async function insertHelpArticle(
  tx: Queryable,
  item: { slug: string; type: number; category: number },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO contents (slug, type, category, sort, published)
     VALUES ($1, $2, $3, (SELECT coalesce(max(sort), 0) + 1 FROM contents WHERE type = $2), false)
     RETURNING id`,
    [item.slug, item.type, item.category],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('help article insert returned no id');
  return id;
}

export async function upsertDraft(
  tx: Queryable,
  draft: { id: number; language: Language; title: string; body: string; staffId: number },
): Promise<void> {
  await tx.query(
    `INSERT INTO content_drafts (content_id, language, title, body, updated_by) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (content_id, language)
     DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [draft.id, draft.language, draft.title, draft.body, draft.staffId],
  );
  await tx.query('UPDATE contents SET updated_at = now() WHERE id = $1', [draft.id]);
}

/** Moves every draft of an article into its published text; answers the languages moved. */
export async function publishDrafts(tx: Queryable, id: number): Promise<string[]> {
  const moved = await tx.query<{ language: string }>(
    `WITH drafts AS (DELETE FROM content_drafts WHERE content_id = $1 RETURNING language, title, body)
     INSERT INTO content_translations (content_id, language, title, body, updated_at)
     SELECT $1, language, title, body, now() FROM drafts
     ON CONFLICT (content_id, language)
     DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body, updated_at = now()
     RETURNING language`,
    [id],
  );
  return moved.map((row) => row.language).sort();
}

export async function hasEnglishText(tx: Queryable, id: number): Promise<boolean> {
  const rows = await tx.query<{ one: number }>(
    `SELECT 1 AS one FROM content_drafts WHERE content_id = $1 AND language = 'en'
     UNION ALL SELECT 1 FROM content_translations WHERE content_id = $1 AND language = 'en'`,
    [id],
  );
  return rows.length > 0;
}

export async function setPublished(tx: Queryable, id: number, published: boolean): Promise<void> {
  await tx.query('UPDATE contents SET published = $2, updated_at = now() WHERE id = $1', [id, published]);
}

export async function insertRevision(
  tx: Queryable,
  revision: {
    id: number;
    language: string | null;
    action: HelpRevisionRow['action'];
    title: string | null;
    body: string | null;
    staff: { staffId: number; email: string };
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO content_revisions (content_id, language, action, title, body, staff_id, staff_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      revision.id,
      revision.language,
      revision.action,
      revision.title,
      revision.body,
      revision.staff.staffId,
      revision.staff.email,
    ],
  );
}

/**
 * Published FAQ articles and notices where every word is found (title or text, any case), in the
 * reader's language or else English; a word in the title counts twice. `words` are ILIKE patterns.
 */
export async function searchHelp(
  db: Queryable,
  language: Language,
  words: string[],
): Promise<HelpSearchRow[]> {
  return db.query<HelpSearchRow>(
    `WITH localized AS (
       SELECT c.id, c.slug, c.type, c.category,
              coalesce(t.title, f.title) AS title, coalesce(t.body, f.body) AS body,
              coalesce(t.language, f.language) AS language, coalesce(t.updated_at, f.updated_at) AS updated_at
       FROM contents c
       JOIN content_translations f ON f.content_id = c.id AND f.language = 'en'
       LEFT JOIN content_translations t ON t.content_id = c.id AND t.language = $1
       WHERE c.published AND c.type IN (5, 6))
     SELECT l.id, l.slug, l.type, l.category, l.title, l.body, l.language, l.updated_at
     FROM localized l
     WHERE NOT EXISTS (SELECT 1 FROM unnest($2::text[]) w
                       WHERE NOT (l.title ILIKE w ESCAPE '\\' OR l.body ILIKE w ESCAPE '\\'))
     ORDER BY (SELECT 2 * count(*) FILTER (WHERE l.title ILIKE w ESCAPE '\\')
                      + count(*) FILTER (WHERE l.body ILIKE w ESCAPE '\\')
               FROM unnest($2::text[]) w) DESC,
              l.updated_at DESC, l.id
     LIMIT 20`,
    [language, words],
  );
}

/** The images an item's texts have taken (uploads of purpose content_image), and which item took each. */
export async function contentImageOwners(tx: Queryable, uploadIds: string[]): Promise<Map<string, number>> {
  const rows = await tx.query<{ upload_id: string; content_id: number }>(
    'SELECT upload_id, content_id FROM content_images WHERE upload_id = ANY($1::text[])',
    [uploadIds],
  );
  return new Map(rows.map((row) => [row.upload_id, row.content_id]));
}

export async function insertContentImages(
  tx: Queryable,
  contentId: number,
  uploadIds: string[],
  staffId: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO content_images (upload_id, content_id, staff_id)
     SELECT unnest($1::text[]), $2, $3`,
    [uploadIds, contentId, staffId],
  );
}

/**
 * Is the image shown by a published text of a published item? A draft's image (a draft not
 * published, or an item unpublished) is not: `src` is the markup's `(/swx/files/<id>)`.
 */
export async function imageInPublishedText(db: Queryable, contentId: number, src: string): Promise<boolean> {
  const rows = await db.query<{ one: number }>(
    `SELECT 1 AS one FROM contents c JOIN content_translations t ON t.content_id = c.id
     WHERE c.id = $1 AND c.published AND strpos(t.body, $2) > 0 LIMIT 1`,
    [contentId, src],
  );
  return rows.length > 0;
}
