import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Book, bookSchema, Code, type QuoteRef } from '@swx/contract';
import { z } from 'zod/mini';
import type { Queryable } from '../../platform/db.ts';
import { ApiError, CodedError } from '../../platform/http.ts';
import type { Job } from '../../platform/jobs.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import { claimQuote, pruneQuoteClaims, releaseQuote } from './products.repository.ts';

/**
 * Quote, then commit: the pattern of every product a customer buys at figures the server states
 * first (a position, a swap, a plan, a loan). The preview computes the figures with the product's
 * one pricing function and answers them with a quote id; the commit names the id and posts
 * exactly the figures it carries, or is refused:
 *
 *   10026  the id is not one this server signed (malformed, tampered, another product's)
 *   10028  the quote was given to another customer, or in the other book (or without a session)
 *   10032  the quote expired (unless `replay` finds the commit already done: a retry answers it),
 *          or another request already committed it (data `{reason: 'used'}`): a quote is an
 *          offer accepted once, so the customer asks for a new one
 *   10011  the balance no longer covers it (the ledger refuses the posting: `ledgerErrorCode`)
 *
 * Time to read (WCAG 2.2.1): a product whose figures move with the market may let the customer
 * ask for a held quote (`holdSeconds`, given with `issue(…, { hold: true })`): the same figures,
 * firm for `validSeconds` as any quote, then held until `holdSeconds` only while the market has
 * not moved against them: past the firm seconds the commit asks the product's `recheck` (the
 * figures against the market now), which refuses with 10032 `{reason: 'moved'}`. A held quote
 * without a `recheck` is expired once its firm seconds are over, so a stale price is never
 * accepted against the house.
 *
 * The id is `<key id>.<payload>.<mac>`: base64url of the canonical figures with their holder,
 * product and expiry, and an HMAC-SHA256 of the key id and payload under the quotes' key of that
 * id (platform/keys.ts: derived from MASTER_KEY; the previous master's still accepted after a
 * rotation). Nothing is written per preview, every node verifies every node's quotes, and the
 * figures are carried, not recomputed: a real market's price at a past second is not a function
 * of time. The first commit claims the quote for its request (`quote_claims`, a row per committed
 * quote until it has expired); the same request again posts idempotently (each product's ledger
 * key is its request's), any other request is refused.
 */

/** Who may commit a quote: the customer it was given to (null: asked without a session), in its book. */
export type QuoteHolder = { customerId: number | null; book: Book };

/**
 * A verified quote: its figures, the second they were computed at, the last second it commits,
 * and the last second it commits without a `recheck` (its expiry, unless it was held).
 */
export type Redeemed<F> = { figures: F; issuedAt: number; expiresAt: number; firmUntil: number };

/**
 * One product's quotes. `figures` is a zod schema (a codec where a figure is not JSON: bigints
 * travel as decimal text, see `bigintText`) of exactly what the commit posts; `name` names the
 * product and the format of its figures (change it when the format changes: older ids are then
 * refused with 10026, and the customer previews again).
 */
export type QuoteProduct<T extends z.ZodMiniType> = {
  name: string;
  validSeconds: number;
  /** How long a held quote lasts (time to read; past `validSeconds` its commit is rechecked). */
  holdSeconds?: number;
  figures: T;
};

/** A bigint figure as decimal text in a quote. */
export const bigintText = z.codec(z.string().check(z.regex(/^-?\d{1,80}$/)), z.bigint(), {
  decode: (text) => BigInt(text),
  encode: (value) => value.toString(),
});

/**
 * The signed part of an id: product, holder, book, issued and expiry seconds, figures, and a
 * nonce, so that two previews of the same figures in the same second are two offers, each
 * accepted once.
 */
const envelope = z.object({
  n: z.string(),
  p: z.string(),
  c: z.nullable(z.int()),
  b: bookSchema,
  i: z.int(),
  x: z.int(),
  /** A held quote's last firm second (absent: firm until its expiry). */
  w: z.optional(z.int()),
  f: z.unknown(),
});

/** What every product's quotes need: the quotes' keys, the database of claims, the clock (epoch ms). */
export type QuoteDeps = { keys: PurposeKeys; db: Queryable; now: () => number };

export class Quotes<T extends z.ZodMiniType> {
  private readonly product: QuoteProduct<T>;
  private readonly keyId: string;
  /** KeyObjects by key id, made once: createHmac with a raw Buffer prepares the key on every call (~6× slower). */
  private readonly keys = new Map<string, KeyObject>();
  private readonly verifyKeys: PurposeKeys;
  private readonly db: Queryable;
  private readonly now: () => number;
  /** The commits running on this node, by quote and request. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(product: QuoteProduct<T>, deps: QuoteDeps) {
    this.product = product;
    this.keyId = deps.keys.current.id;
    this.keys.set(this.keyId, createSecretKey(deps.keys.current.key));
    this.verifyKeys = deps.keys;
    this.db = deps.db;
    this.now = deps.now;
  }

  private second(): number {
    return Math.floor(this.now() / 1000);
  }

  private key(id: string): KeyObject | undefined {
    let key = this.keys.get(id);
    if (!key) {
      const raw = this.verifyKeys.byId(id);
      if (!raw) return undefined;
      key = createSecretKey(raw);
      this.keys.set(id, key);
    }
    return key;
  }

  private static mac(key: KeyObject, keyId: string, payload: string): string {
    return createHmac('sha256', key).update(`${keyId}.${payload}`).digest('base64url');
  }

  /**
   * Signs figures computed at second `issuedAt` for their holder: the id and expiry the preview
   * answers. With `hold` (a product that has `holdSeconds`) the quote lasts `holdSeconds`, firm
   * for `validSeconds`, then rechecked at commit.
   */
  issue(
    holder: QuoteHolder,
    issuedAt: number,
    figures: z.output<T>,
    options: { hold?: boolean } = {},
  ): QuoteRef {
    const firmUntil = issuedAt + this.product.validSeconds;
    const held = options.hold === true && this.product.holdSeconds !== undefined;
    const expiresAt = held ? issuedAt + (this.product.holdSeconds as number) : firmUntil;
    const signed = {
      n: randomBytes(9).toString('base64url'),
      p: this.product.name,
      c: holder.customerId,
      b: holder.book,
      i: issuedAt,
      x: expiresAt,
      ...(held ? { w: firmUntil } : {}),
      f: z.encode(this.product.figures, figures),
    };
    const payload = Buffer.from(JSON.stringify(signed)).toString('base64url');
    const key = this.keys.get(this.keyId) as KeyObject;
    return {
      quoteId: `${this.keyId}.${payload}.${Quotes.mac(key, this.keyId, payload)}`,
      issuedAt,
      expiresAt,
    };
  }

  /** The figures of a quote id, verified for this holder (10026, 10028); its expiry is the caller's to check. */
  verify(quoteId: string, holder: QuoteHolder): Redeemed<z.output<T>> {
    return this.open(quoteId, holder).quote;
  }

  private open(quoteId: string, holder: QuoteHolder): { quote: Redeemed<z.output<T>>; mac: string } {
    const invalid = () => new ApiError(Code.INVALID_INPUT, [{ path: 'quoteId', issue: 'invalid' }]);
    const [keyId, payload, mac, ...rest] = quoteId.split('.');
    if (keyId === undefined || payload === undefined || mac === undefined || rest.length > 0) throw invalid();
    // A key id no longer accepted (a master rotated out) or never ours: not a quote of this server.
    const key = this.key(keyId);
    if (!key) throw invalid();
    const expected = Buffer.from(Quotes.mac(key, keyId, payload));
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
    return {
      quote: {
        figures: figures.data,
        issuedAt: signed.data.i,
        expiresAt: signed.data.x,
        firmUntil: signed.data.w ?? signed.data.x,
      },
      mac,
    };
  }

  /**
   * Commits a quote once: verifies it, claims it for `requestKey` (the customer's request, as the
   * product's ledger key names it), then `post`s its figures (the ledger entry and what it
   * writes). An expired quote is refused with 10032, unless `replay` finds the commit already done
   * (the same request retried late answers what it did). A quote already claimed by another
   * request answers what that request did if `replay` finds it under this one (the same request
   * id sent with another quote), else 10032 `{reason: 'used'}`. The same request again posts
   * again: the product's posting is idempotent on its request, so it answers the first result
   * (at once on the same node: the second waits for the first). A commit refused with a catalogue
   * code, having done nothing, gives the quote back.
   * Ledger refusals reach the caller with their catalogue code (10011 when the balance no longer
   * covers the figures). A held quote past its firm seconds commits only if `recheck` accepts its
   * figures against the market now (else 10032 `{reason: 'moved'}`, or expired without one).
   */
  async commit<R>(
    quoteId: string,
    holder: QuoteHolder,
    steps: {
      requestKey: string;
      replay: () => Promise<R | null>;
      post: (quote: Redeemed<z.output<T>>) => Promise<R>;
      /** Whether a held quote's figures still stand against the market now (past its firm seconds). */
      recheck?: (quote: Redeemed<z.output<T>>) => Promise<boolean>;
    },
  ): Promise<R> {
    const { quote, mac } = this.open(quoteId, holder);
    const now = this.second();
    const expired = now > quote.expiresAt || (now > quote.firmUntil && !steps.recheck);
    if (expired || (now > quote.firmUntil && !(await steps.recheck?.(quote)))) {
      const done = await steps.replay();
      if (done !== null) return done;
      throw new ApiError(
        Code.PRICE_CHANGED,
        expired ? { expiresAt: quote.expiresAt, now } : { expiresAt: quote.expiresAt, now, reason: 'moved' },
      );
    }
    const holderKey = `${this.product.name}:${steps.requestKey}`;
    // The same request sent twice at once to this node (a double click, a retry racing its
    // original): one commit, both answered by it.
    const flight = `${mac}:${holderKey}`;
    const running = this.inFlight.get(flight) as Promise<R> | undefined;
    if (running) return running;
    const done = this.claimAndPost(quote, mac, holderKey, now, steps);
    this.inFlight.set(flight, done);
    try {
      return await done;
    } finally {
      this.inFlight.delete(flight);
    }
  }

  private async claimAndPost<R>(
    quote: Redeemed<z.output<T>>,
    mac: string,
    holderKey: string,
    now: number,
    steps: { replay: () => Promise<R | null>; post: (quote: Redeemed<z.output<T>>) => Promise<R> },
  ): Promise<R> {
    const owner = await claimQuote(this.db, mac, holderKey, quote.expiresAt);
    if (owner !== holderKey) {
      const done = await steps.replay();
      if (done !== null) return done;
      throw new ApiError(Code.PRICE_CHANGED, { expiresAt: quote.expiresAt, now, reason: 'used' });
    }
    try {
      return await steps.post(quote);
    } catch (error) {
      // Refused (a catalogue code: the balance, the product's limits, a wrong confirmation code)
      // with nothing done for this request: the offer stands, and may be accepted by another
      // request. Anything else keeps the claim: the quote may have been posted.
      if (error instanceof CodedError && error.apiCode !== null && (await steps.replay()) === null)
        await releaseQuote(this.db, mac, holderKey);
      throw error;
    }
  }
}

/** How long a claim is kept after its quote expired (a clock a little behind another node's). */
const CLAIM_GRACE_SECONDS = 3600;

/** Forgets the claims of quotes expired over an hour before `nowSecond`. */
export function pruneClaims(db: Queryable, nowSecond: number): Promise<number> {
  return pruneQuoteClaims(db, nowSecond - CLAIM_GRACE_SECONDS);
}

/** Once an hour (on the products' clock), the claims of long-expired quotes are forgotten. */
export function quoteClaimsJob(db: Queryable, now: () => number): Job {
  return {
    name: 'quotes.prune-claims',
    everyMs: 10 * 60_000,
    runKey: (at) => at.toISOString().slice(0, 13),
    run: async ({ logger }) => {
      const pruned = await pruneClaims(db, Math.floor(now() / 1000));
      if (pruned > 0) logger.info({ pruned }, 'expired quote claims pruned');
    },
  };
}
