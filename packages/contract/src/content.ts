import { z } from 'zod/mini';
import { wireInt } from './ids.ts';

export const contentItem = z.object({
  id: z.int(),
  title: z.string(),
  type: z.int(),
  slug: z.string(),
  /** Help-centre items (types 5, 6): their topic, the language their text is in, when last changed. */
  category: z.optional(z.int()),
  language: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
});
export type ContentItem = z.infer<typeof contentItem>;

export const contentDetail = z.extend(contentItem, {
  body: z.string(),
  language: z.string(),
  updatedAt: z.string(),
});
export type ContentDetail = z.infer<typeof contentDetail>;

/** Path parameters arrive as strings: decimal digits only, then bounded. */
const pathInt = wireInt;

export const contentTypeParams = z.object({
  type: z.pipe(pathInt(1, 3), z.union([z.literal(1), z.literal(2), z.literal(3)])),
});
export const contentListParams = z.object({
  type: z.pipe(pathInt(4, 6), z.union([z.literal(4), z.literal(5), z.literal(6)])),
  x: pathInt(0, 1000),
});
export const contentIdParams = z.object({ id: pathInt(1, 2_147_483_647) });

/** A search of the help centre, in the reader's language. */
export const helpSearchQuery = z.object({
  q: z.pipe(
    z.string(),
    z.pipe(
      z.transform((text: string) => text.trim()),
      z.string().check(z.minLength(2), z.maxLength(100)),
    ),
  ),
});

/** A search hit: the item, its topic, the words around the match, and the language it is shown in. */
export const helpSearchHit = z.extend(contentItem, {
  category: z.int(),
  excerpt: z.string(),
  language: z.string(),
  updatedAt: z.string(),
});
export type HelpSearchHit = z.infer<typeof helpSearchHit>;

export const paramKeyParams = z.object({ key: z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/)) });
export const systemParam = z.object({ key: z.string(), value: z.string() });
export type SystemParam = z.infer<typeof systemParam>;
