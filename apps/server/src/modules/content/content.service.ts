import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Code,
  type ContentDetail,
  type ContentItem,
  ContentType,
  isLanguage,
  LANGUAGES,
  type Language,
} from '@swx/contract';
import { z } from 'zod';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import {
  findContent,
  insertMissingTranslation,
  listContents,
  upsertContentItem,
} from './content.repository.ts';
import { operatorValues, renderTemplate, sentenceJoiner } from './content.template.ts';

const SEED_DIR = join(dirname(fileURLToPath(import.meta.url)), 'seed');

const seedFile = z.object({
  items: z.array(
    z.object({ slug: z.string(), type: z.number().int(), title: z.string().min(1), body: z.string().min(1) }),
  ),
});

/** The footer list (type 4) holds company, policy and other items together. */
const FOOTER_TYPES = [ContentType.COMPANY, ContentType.POLICY, ContentType.OTHER];

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
      for (const { language, items } of byLanguage) {
        for (const item of items) {
          const contentId = ids.get(item.slug);
          if (contentId === undefined)
            throw new Error(`seed ${language}.json has ${item.slug}, which en.json lacks`);
          await insertMissingTranslation(tx, { contentId, language, title: item.title, body: item.body });
        }
      }
    });
  }

  async list(language: Language, type: number): Promise<ContentItem[]> {
    return listContents(this.db, language, { types: [type] });
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
      return listContents(this.db, listLanguage, { types: FOOTER_TYPES });
    }
    const contentType = type === 5 ? ContentType.FAQ : ContentType.ANNOUNCEMENT;
    return listContents(
      this.db,
      language,
      x === 0 ? { types: [contentType] } : { types: [contentType], category: x },
    );
  }

  async get(language: Language, id: number): Promise<ContentDetail> {
    const row = await findContent(this.db, language, id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return {
      id: row.id,
      slug: row.slug,
      type: row.type,
      title: row.title,
      body: renderTemplate(
        row.body,
        operatorValues(await this.operator.info(), language),
        sentenceJoiner(isLanguage(row.language) ? row.language : language),
      ),
      language: row.language,
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }
}
