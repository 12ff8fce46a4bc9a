import { z } from 'zod/mini';

/** Every answer of the /swx API: `{code, msg, data}` (spec §7-§8). */
export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ code: z.int(), msg: z.string(), data });
}

export type Envelope<T> = { code: number; msg: string; data: T };

/** The data of a refusal caused by invalid input: which fields, and why, in the request's language. */
export const fieldIssue = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssue>;
