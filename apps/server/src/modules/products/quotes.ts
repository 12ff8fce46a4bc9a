import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { type Book, bookSchema, Code, type QuoteRef } from '@swx/contract';
import { z } from 'zod/mini';
import { ApiError } from '../../platform/http.ts';

/**
 * Quote, then commit: the pattern of every product a customer buys at figures the server states
 * first (a position, a swap, a plan, a loan). The preview computes the figures with the product's
 * one pricing function and answers them with a quote id; the commit names the id and posts
 * exactly the figures it carries, or is refused:
 *
 *   10026  the id is not one this server signed (malformed, tampered, another product's)
 *   10028  the quote was given to another customer, or in the other book (or without a session)
 *   10032  the quote expired (unless `replay` finds the commit already done: a retry answers it)
 *   10011  the balance no longer covers it (the ledger refuses the posting: `ledgerErrorCode`)
 *
 * The id is stateless: base64url of the canonical figures with their holder, product and expiry,
 * then an HMAC-SHA256 of it under the server's quote key. Nothing is written per preview, every
 * node verifies every node's quotes (the key derives from TOTP_KEY), and the figures are carried,
 * not recomputed: a real market's price at a past second is not a function of time.
 */

/** Who may commit a quote: the customer it was given to (null: asked without a session), in its book. */
export type QuoteHolder = { customerId: number | null; book: Book };

/** A verified quote: its figures, the second they were computed at and the last second it commits. */
export type Redeemed<F> = { figures: F; issuedAt: number; expiresAt: number };

/** The key quotes are signed under, derived from the server's secret (TOTP_KEY) for this purpose only. */
export function quoteKey(secret: Buffer): Buffer {
  return createHmac('sha256', secret).update('swx quote key v1').digest();
}

/**
 * One product's quotes. `figures` is a zod schema (a codec where a figure is not JSON: bigints
 * travel as decimal text, see `bigintText`) of exactly what the commit posts; `name` names the
 * product and the format of its figures (change it when the format changes: older ids are then
 * refused with 10026, and the customer previews again).
 */
export type QuoteProduct<T extends z.ZodMiniType> = { name: string; validSeconds: number; figures: T };

/** A bigint figure as decimal text in a quote. */
export const bigintText = z.codec(z.string().check(z.regex(/^-?\d{1,80}$/)), z.bigint(), {
  decode: (text) => BigInt(text),
  encode: (value) => value.toString(),
});

/** The signed part of an id: product, holder, book, issued and expiry seconds, figures. */
const envelope = z.object({
  p: z.string(),
  c: z.nullable(z.int()),
  b: bookSchema,
  i: z.int(),
  x: z.int(),
  f: z.unknown(),
});

export class Quotes<T extends z.ZodMiniType> {
  private readonly product: QuoteProduct<T>;
  /** A KeyObject, made once: createHmac with a raw Buffer prepares the key on every call (~6× slower). */
  private readonly key: KeyObject;
  private readonly now: () => number;

  /** `now`: epoch milliseconds (an injected clock in tests). */
  constructor(product: QuoteProduct<T>, key: Buffer, now: () => number) {
    if (key.length !== 32) throw new Error('a quote key is 32 bytes');
    this.product = product;
    this.key = createSecretKey(key);
    this.now = now;
  }

  private second(): number {
    return Math.floor(this.now() / 1000);
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  /** Signs figures computed at second `issuedAt` for their holder: the id and expiry the preview answers. */
  issue(holder: QuoteHolder, issuedAt: number, figures: z.output<T>): QuoteRef {
    const expiresAt = issuedAt + this.product.validSeconds;
    const signed = {
      p: this.product.name,
      c: holder.customerId,
      b: holder.book,
      i: issuedAt,
      x: expiresAt,
      f: z.encode(this.product.figures, figures),
    };
    const payload = Buffer.from(JSON.stringify(signed)).toString('base64url');
    return { quoteId: `${payload}.${this.mac(payload)}`, expiresAt };
  }

  /** The figures of a quote id, verified for this holder (10026, 10028); its expiry is the caller's to check. */
  verify(quoteId: string, holder: QuoteHolder): Redeemed<z.output<T>> {
    const invalid = () => new ApiError(Code.INVALID_INPUT, [{ path: 'quoteId', issue: 'invalid' }]);
    const [payload, mac, ...rest] = quoteId.split('.');
    if (payload === undefined || mac === undefined || rest.length > 0) throw invalid();
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(payload, 'base64url').toString());
    } catch {
      throw invalid();
    }
    const signed = envelope.safeParse(json);
    if (!signed.success || signed.data.p !== this.product.name) throw invalid();
    const figures = z.safeParse(this.product.figures, signed.data.f);
    if (!figures.success) throw invalid();
    // Someone else's quote, or one of the other book: as if it did not exist.
    if (signed.data.c === null || signed.data.c !== holder.customerId || signed.data.b !== holder.book)
      throw new ApiError(Code.NOT_FOUND);
    return { figures: figures.data, issuedAt: signed.data.i, expiresAt: signed.data.x };
  }

  /**
   * Commits a quote: verifies it, then `post`s its figures (the ledger entry and what it writes).
   * An expired quote is refused with 10032, unless `replay` finds the commit already done (the
   * same request retried late answers what it did). Ledger refusals reach the caller with their
   * catalogue code (10011 when the balance no longer covers the figures).
   */
  async commit<R>(
    quoteId: string,
    holder: QuoteHolder,
    steps: { replay: () => Promise<R | null>; post: (quote: Redeemed<z.output<T>>) => Promise<R> },
  ): Promise<R> {
    const quote = this.verify(quoteId, holder);
    const now = this.second();
    if (now > quote.expiresAt) {
      const done = await steps.replay();
      if (done !== null) return done;
      throw new ApiError(Code.PRICE_CHANGED, { expiresAt: quote.expiresAt, now });
    }
    return steps.post(quote);
  }
}
