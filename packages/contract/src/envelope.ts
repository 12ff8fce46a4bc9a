import { z } from 'zod/mini';

/** Every answer of the /swx API: `{code, msg, data}` (spec §7-§8). */
export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ code: z.int(), msg: z.string(), data });
}

export type Envelope<T> = { code: number; msg: string; data: T };

/**
 * One entry of a 10026 refusal's data: the field's path (dotted, never its value) and the issue's
 * code (zod's `too_small`, `invalid_format`, `custom`, … or the server's `control_character`,
 * `mismatch`). The front ends word it in the reader's language.
 */
export const fieldIssue = z.object({ path: z.string(), issue: z.string() });
export type FieldIssue = z.infer<typeof fieldIssue>;
