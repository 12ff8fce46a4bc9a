import { z } from 'zod';

/** Checks of environment values that several configuration files share (config.ts, config.storage.ts). */

export const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or http on the loopback address only. */
export function httpUrl(name: string) {
  return z
    .string()
    .url()
    .refine((text) => {
      const url = new URL(text);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
    }, `${name} must be an https URL (http only on the loopback address)`);
}

/** A variable set to blanks is unset (a blank line in an env file). */
export function optional<T extends z.ZodType>(inner: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    inner.optional(),
  );
}
