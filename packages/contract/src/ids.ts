import { z } from 'zod/mini';

/**
 * A whole number as it arrives in a path or a query string: decimal digits only — no sign, space,
 * exponent, hex prefix or fraction ("1e3", " 1", "0x10", "+1", "1.0" are refused) — at most 16 of
 * them (no number beyond JavaScript's safe integers passes), then bounded by min and max.
 */
export const wireInt = (min: number, max: number) =>
  z.pipe(
    z.string().check(z.regex(/^[0-9]{1,16}$/)),
    z.pipe(
      z.transform((text: string) => Number(text)),
      z.number().check(z.int(), z.minimum(min), z.maximum(max)),
    ),
  );

/** An id in a path or a query string: 1 to 2^53 − 1, decimal digits only. */
export const wireId = () => wireInt(1, Number.MAX_SAFE_INTEGER);

/** A database id in a response body: decimal digits as a string (a bigint never loses a digit in JSON). */
export const dbId = /* @__PURE__ */ z.string().check(z.regex(/^[1-9][0-9]{0,18}$/));
