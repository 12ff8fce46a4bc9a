import type { Language } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

export type ContentRow = {
  id: number;
  slug: string;
  type: number;
  title: string;
  category: number;
  language: string;
  updated_at: Date;
};
export type ContentDetailRow = ContentRow & { body: string };

// Each item in the reader's language, falling back to English where a translation is missing.
const LOCALIZED = `
  FROM contents c
  JOIN content_translations f ON f.content_id = c.id AND f.language = 'en'
  LEFT JOIN content_translations t ON t.content_id = c.id AND t.language = $1`;

export async function listContents(
  db: Queryable,
  language: Language,
  filter: { types: readonly number[]; category?: number },
): Promise<ContentRow[]> {
  return db.query<ContentRow>(
    `SELECT c.id, c.slug, c.type, c.category, coalesce(t.title, f.title) AS title,
            coalesce(t.language, f.language) AS language, coalesce(t.updated_at, f.updated_at) AS updated_at
     ${LOCALIZED}
     WHERE c.published AND c.type = ANY($2::smallint[]) AND ($3::integer IS NULL OR c.category = $3)
     ORDER BY c.type, c.sort, c.id
     LIMIT 500`,
    [language, filter.types, filter.category ?? null],
  );
}

export async function findContent(
  db: Queryable,
  language: Language,
  id: number,
): Promise<ContentDetailRow | null> {
  const rows = await db.query<ContentDetailRow>(
    `SELECT c.id, c.slug, c.type, c.category, coalesce(t.title, f.title) AS title, coalesce(t.body, f.body) AS body,
            coalesce(t.language, f.language) AS language, coalesce(t.updated_at, f.updated_at) AS updated_at
     ${LOCALIZED}
     WHERE c.published AND c.id = $2`,
    [language, id],
  );
  return rows[0] ?? null;
}

export async function upsertContentItem(
  db: Queryable,
  item: { slug: string; type: number; sort: number; category: number },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO contents (slug, type, sort, category) VALUES ($1, $2, $3, $4)
     ON CONFLICT (slug) DO UPDATE SET slug = EXCLUDED.slug
     RETURNING id`,
    [item.slug, item.type, item.sort, item.category],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('content upsert returned no id');
  return id;
}

/**
 * Adds the translations that do not exist yet, in one statement: text staff edited is never
 * overwritten by a seed.
 */
export async function insertMissingTranslations(
  db: Queryable,
  translations: readonly { contentId: number; language: Language; title: string; body: string }[],
): Promise<void> {
  if (translations.length === 0) return;
  await db.query(
    `INSERT INTO content_translations (content_id, language, title, body)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
     ON CONFLICT (content_id, language) DO NOTHING`,
    [
      translations.map((t) => t.contentId),
      translations.map((t) => t.language),
      translations.map((t) => t.title),
      translations.map((t) => t.body),
    ],
  );
}
