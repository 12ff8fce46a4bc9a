import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Code,
  type ContentDetail,
  type ContentItem,
  ContentType,
  helpCategoryNumber,
  isLanguage,
  LANGUAGES,
  type Language,
  markupIssues,
  normalizeMarkup,
} from '@swx/contract';
import { z } from 'zod';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import {
  type ContentRow,
  findContent,
  insertMissingTranslations,
  listContents,
  upsertContentItem,
} from './content.repository.ts';
import { operatorValues, renderTemplate, sentenceJoiner } from './content.template.ts';

const SEED_DIR = join(dirname(fileURLToPath(import.meta.url)), 'seed');

/** The help centre's first articles: each in English at least; other languages fall back to it. */
const helpSeedFile = z.object({
  items: z.array(
    z.object({
      slug: z.string(),
      type: z.union([z.literal(5), z.literal(6)]),
      category: z.string(),
      texts: z.partialRecord(
        z.enum(LANGUAGES),
        z.object({ title: z.string().min(1), body: z.string().min(1) }),
      ),
    }),
  ),
});

const seedFile = z.object({
  items: z.array(
    z.object({ slug: z.string(), type: z.number().int(), title: z.string().min(1), body: z.string().min(1) }),
  ),
});

/** The footer list (type 4) holds company, policy and other items together. */
const FOOTER_TYPES = [ContentType.COMPANY, ContentType.POLICY, ContentType.OTHER];

const itemOf = (row: ContentRow): ContentItem => ({
  id: row.id,
  slug: row.slug,
  type: row.type,
  title: row.title,
});

/** Help-centre text (FAQ, notices) is markup staff wrote, shown as it is; other pages are templates. */
const HELP_TYPES: readonly number[] = [ContentType.FAQ, ContentType.ANNOUNCEMENT];

/**
 * Content items: company, policy and footer pages, FAQ and announcements, each in ten languages.
 * Every item keeps one id across languages; the reader's language picks the text.
 */
export class ContentService {
  private readonly db: Database;
  private readonly operator: Pick<OperatorService, 'info'>;

  /** The operator settings fill the pages' templates (content.template.ts) when they are read. */
  constructor(db: Database, operator: Pick<OperatorService, 'info'>) {
    this.db = db;
    this.operator = operator;
  }

  /** Loads the checked-in pages (seed/<language>.json); text already in the database is kept. */
  async seed(): Promise<void> {
    const byLanguage = LANGUAGES.map((language) => ({
      language,
      items: seedFile.parse(JSON.parse(readFileSync(join(SEED_DIR, `${language}.json`), 'utf8'))).items,
    }));
    await this.db.transaction(async (tx) => {
      const ids = new Map<string, number>();
      const reference = byLanguage.find((entry) => entry.language === 'en')?.items ?? [];
      for (const [sort, item] of reference.entries()) {
        ids.set(
          item.slug,
          await upsertContentItem(tx, { slug: item.slug, type: item.type, sort, category: 0 }),
        );
      }
      const translations = byLanguage.flatMap(({ language, items }) =>
        items.map((item) => {
          const contentId = ids.get(item.slug);
          if (contentId === undefined)
            throw new Error(`seed ${language}.json has ${item.slug}, which en.json lacks`);
          return { contentId, language, title: item.title, body: item.body };
        }),
      );
      await insertMissingTranslations(tx, translations);
    });
    await this.seedHelp();
  }

  /** The help centre's seeded articles (seed/help.json), published; staff's changes are kept. */
  private async seedHelp(): Promise<void> {
    const { items } = helpSeedFile.parse(JSON.parse(readFileSync(join(SEED_DIR, 'help.json'), 'utf8')));
    await this.db.transaction(async (tx) => {
      const translations: Parameters<typeof insertMissingTranslations>[1][number][] = [];
      for (const [sort, item] of items.entries()) {
        const category = helpCategoryNumber(item.type, item.category);
        if (category === 0 || !item.texts.en)
          throw new Error(`help seed ${item.slug}: category or English text`);
        const contentId = await upsertContentItem(tx, { slug: item.slug, type: item.type, sort, category });
        for (const [language, text] of Object.entries(item.texts)) {
          if (!isLanguage(language) || !text) continue;
          // Seeds obey the markup rules staff's text is held to.
          if (markupIssues(text.body).length > 0)
            throw new Error(`help seed ${item.slug} (${language}): markup`);
          translations.push({ contentId, language, ...text });
        }
      }
      await insertMissingTranslations(tx, translations);
    });
  }

  async list(language: Language, type: number): Promise<ContentItem[]> {
    return (await listContents(this.db, language, { types: [type] })).map(itemOf);
  }

  /**
   * The numbered lists: 4/{listId} is the footer list (1 Chinese, 2 other; the request language
   * decides the text, the list id is the fallback when the request names none); 5/{category} is
   * the FAQ and 6/{category} the announcements of a help-centre category (0 = all).
   */
  async listNumbered(
    language: Language,
    type: 4 | 5 | 6,
    x: number,
    languageNamed: boolean,
  ): Promise<ContentItem[]> {
    if (type === 4) {
      const listLanguage: Language = languageNamed ? language : x === 1 ? 'zh' : 'en';
      return (await listContents(this.db, listLanguage, { types: FOOTER_TYPES })).map(itemOf);
    }
    const contentType = type === 5 ? ContentType.FAQ : ContentType.ANNOUNCEMENT;
    const rows = await listContents(
      this.db,
      language,
      x === 0 ? { types: [contentType] } : { types: [contentType], category: x },
    );
    // Help items say their topic, the language their text is in (English where the reader's is
    // missing) and when they last changed.
    return rows.map((row) => ({
      ...itemOf(row),
      category: row.category,
      language: row.language,
      updatedAt: new Date(row.updated_at).toISOString(),
    }));
  }

  /** A text as customers will read it: a page's settings filled in, a help article's as it is. */
  async preview(language: Language, type: number, body: string): Promise<{ body: string }> {
    const text = normalizeMarkup(body);
    return { body: HELP_TYPES.includes(type) ? text : await this.renderPage(language, text) };
  }

  /** A page's text with the operator settings filled in: the markup customers read. */
  private async renderPage(language: Language, body: string): Promise<string> {
    return renderTemplate(
      body,
      operatorValues(await this.operator.info(), language),
      sentenceJoiner(language),
    );
  }

  async get(language: Language, id: number): Promise<ContentDetail> {
    const row = await findContent(this.db, language, id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return {
      id: row.id,
      slug: row.slug,
      type: row.type,
      ...(HELP_TYPES.includes(row.type) ? { category: row.category } : {}),
      title: row.title,
      body: HELP_TYPES.includes(row.type)
        ? row.body
        : await this.renderPage(isLanguage(row.language) ? row.language : language, row.body),
      language: row.language,
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }
}
