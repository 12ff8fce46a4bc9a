import { z } from 'zod/mini';
import { wireInt } from './ids.ts';

export const contentItem = z.object({
  id: z.int(),
  title: z.string(),
  type: z.int(),
  slug: z.string(),
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

export const paramKeyParams = z.object({ key: z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/)) });
export const systemParam = z.object({ key: z.string(), value: z.string() });
export type SystemParam = z.infer<typeof systemParam>;
