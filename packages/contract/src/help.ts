import { z } from 'zod/mini';
import { ContentType } from './contentType.ts';
import { wireId } from './ids.ts';
import { LANGUAGES } from './languages.ts';
import { MARKUP_MAX_LENGTH } from './markup.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { uploadedFile } from './uploads.ts';

/**
 * The help centre (`modules/content`): FAQ articles (type 5) by topic and notices (type 6,
 * operator announcements) by category, written by staff in the back office, one text per language,
 * drafted, published and unpublished, every revision kept and audited.
 */

/** The help centre's topics: FAQ articles by topic, notices by category (0 in a list call = all). */
export const HELP_CATEGORIES = {
  [ContentType.FAQ]: ['start', 'trading', 'funds', 'security'],
  [ContentType.ANNOUNCEMENT]: ['news', 'maintenance'],
} as const;
export type HelpType = typeof ContentType.FAQ | typeof ContentType.ANNOUNCEMENT;
export type FaqTopic = (typeof HELP_CATEGORIES)[5][number];
export type NoticeCategory = (typeof HELP_CATEGORIES)[6][number];

/** The number of a category (1-based, as in `listContents/5/{x}`) and back. */
export const helpCategoryNumber = (type: HelpType, key: string): number =>
  (HELP_CATEGORIES[type] as readonly string[]).indexOf(key) + 1;
export const helpCategoryKey = (type: HelpType, category: number): string | undefined =>
  (HELP_CATEGORIES[type] as readonly string[])[category - 1];

const helpType = z.union([z.literal(5), z.literal(6)]);
const language = z.enum(LANGUAGES);

/** One language's text of an article: the published one, and the draft when staff changed it since. */
export const helpText = z.object({
  language: z.string(),
  title: z.string(),
  body: z.string(),
  state: z.enum(['published', 'draft']),
  updatedAt: z.string(),
});
export type HelpText = z.infer<typeof helpText>;

export const helpRevision = z.object({
  id: z.int(),
  language: z.nullable(z.string()),
  action: z.enum(['created', 'draft', 'published', 'unpublished']),
  title: z.nullable(z.string()),
  staff: z.string(),
  at: z.string(),
});
export type HelpRevision = z.infer<typeof helpRevision>;

export const helpArticleSummary = z.object({
  id: z.int(),
  slug: z.string(),
  type: z.int(),
  category: z.int(),
  published: z.boolean(),
  title: z.string(),
  /** Languages with published text, and with a draft not published yet. */
  languages: z.array(z.string()),
  drafts: z.array(z.string()),
  updatedAt: z.string(),
});
export type HelpArticleSummary = z.infer<typeof helpArticleSummary>;

export const helpArticle = z.extend(helpArticleSummary, {
  texts: z.array(helpText),
  revisions: z.array(helpRevision),
});
export type HelpArticle = z.infer<typeof helpArticle>;

const articleParams = z.object({ id: wireId() });

/**
 * An article's text as its lines: the API refuses a control character in any string, line ends
 * included (platform/http.ts), so a text travels as lines and is joined with \n on the server.
 */
const markupLines = z
  .array(z.string().check(z.maxLength(MARKUP_MAX_LENGTH)))
  .check(z.minLength(1), z.maxLength(2000));

/** The lines of a text as typed (any line ends), for `lines`. */
export const markupToLines = (text: string): string[] => text.replace(/\r\n?/g, '\n').split('\n');

/** Staff calls of the help centre: everyone reads, support and admin write (audited). */
export const helpAdminCalls = {
  listHelpArticles: {
    method: 'GET',
    path: '/content/help',
    summary:
      'FAQ articles (type 5), notices (type 6) or the company and policy pages (types 1-3), drafts and published, with their languages',
    roles: STAFF_DUTIES.readContent.roles,
    query: z.object({ type: z.pipe(z.string(), z.enum(['5', '6', 'pages'])) }),
    data: z.array(helpArticleSummary),
  },
  getHelpArticle: {
    method: 'GET',
    path: '/content/help/:id',
    summary: 'One article: its text per language (published and draft) and its revisions',
    roles: STAFF_DUTIES.readContent.roles,
    params: articleParams,
    data: helpArticle,
  },
  createHelpArticle: {
    method: 'POST',
    path: '/content/help',
    summary: 'A new article, unpublished, with its first draft (audited)',
    roles: STAFF_DUTIES.editContent.roles,
    body: z.object({
      type: helpType,
      category: z.int().check(z.minimum(1), z.maximum(20)),
      slug: z.string().check(z.regex(/^[a-z0-9-]{1,64}$/)),
      language,
      title: z.string().check(z.minLength(1), z.maxLength(200)),
      lines: markupLines,
    }),
    data: helpArticle,
    refusals: { 10026: 'the slug is taken, or the text has markup that is not allowed' },
  },
  saveHelpDraft: {
    method: 'POST',
    path: '/content/help/:id/draft',
    summary: "A draft of one language's text; the markup is checked, a revision kept (audited)",
    roles: STAFF_DUTIES.editContent.roles,
    params: articleParams,
    body: z.object({
      language,
      title: z.string().check(z.minLength(1), z.maxLength(200)),
      lines: markupLines,
    }),
    data: helpArticle,
    refusals: {
      10026:
        'markup that is not allowed: an HTML tag, a link, or an image that is not a content image staff uploaded',
    },
  },
  publishHelpArticle: {
    method: 'POST',
    path: '/content/help/:id/publish',
    summary: 'Publish every draft and show the article to customers (English text needed; audited)',
    roles: STAFF_DUTIES.editContent.roles,
    params: articleParams,
    data: helpArticle,
    refusals: { 10026: 'no English text' },
  },
  previewContentText: {
    method: 'POST',
    path: '/content/preview',
    summary:
      "A text as customers will read it: a page's settings filled in (what is not set left out), an article as it is",
    roles: STAFF_DUTIES.readContent.roles,
    body: z.object({ type: z.int().check(z.minimum(1), z.maximum(6)), language, lines: markupLines }),
    data: z.object({ body: z.string() }),
  },
  uploadContentImage: {
    method: 'POST',
    path: '/content/images',
    summary:
      'Upload an image for an article or page (multipart, one part named "file", 2 MB): checked by its bytes and re-encoded like every upload; a draft that shows it takes it',
    roles: STAFF_DUTIES.editContent.roles,
    data: uploadedFile,
    refusals: { 10026: 'not a JPG, JPEG 2000 or PNG by its bytes', 10034: 'over 2 MB' },
  },
  unpublishHelpArticle: {
    method: 'POST',
    path: '/content/help/:id/unpublish',
    summary: 'Hide the article from customers; its text is kept (audited)',
    roles: STAFF_DUTIES.editContent.roles,
    params: articleParams,
    data: helpArticle,
  },
} as const satisfies Record<string, AdminCallDefinition>;
