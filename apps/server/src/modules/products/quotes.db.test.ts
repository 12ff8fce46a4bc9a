import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { loadConfig } from '../../platform/config.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing, platformKeys } from '../../platform/keys.ts';
import { OWN_XPUBS } from '../../test/production.ts';
import { bigintText, pruneClaims, type QuoteHolder, Quotes } from './quotes.ts';

/** A product of the tests: a price and an amount, as a swap's figures are. */
const TEST_PRODUCT = {
  name: 'test.v1',
  validSeconds: 10,
  figures: z.object({ amount: bigintText, gross: bigintText }),
};
const holder: QuoteHolder = { customerId: 7, book: 'live' };

/** The derivation every server used when TOTP_KEY was unset: a text published in config.ts. */
const PUBLIC_TEXT = 'swx development TOTP key: set TOTP_KEY in production';
const publicKey = createHmac('sha256', createHash('sha256').update(PUBLIC_TEXT).digest())
  .update('swx quote key v1')
  .digest();

/** Re-signs a genuine quote id with its gross multiplied, under the old public key, in both id formats. */
function forged(quoteId: string): string[] {
  const [keyId, payload] = quoteId.split('.') as [string, string];
  const signed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { f: { gross: string } };
  signed.f.gross = (BigInt(signed.f.gross) * 1000n).toString();
  const raised = Buffer.from(JSON.stringify(signed)).toString('base64url');
  const mac = (text: string) => createHmac('sha256', publicKey).update(text).digest('base64url');
  return [`${raised}.${mac(raised)}`, `${keyId}.${raised}.${mac(`${keyId}.${raised}`)}`];
}

function codeOf(error: unknown): { code: number; data: unknown } {
  if (!(error instanceof ApiError)) throw error;
  return { code: error.code, data: error.data };
}

let t: TestDatabase;
let clock = 1_800_000_000_000;
const now = () => clock;

beforeAll(async () => {
  t = await openTestDatabase();
}, 120_000);
afterAll(() => t.close());

describe(`quotes on ${TEST_DB}`, () => {
  it('refuses a quote forged under the old public derivation, in the sandbox and in production', async () => {
    const sandbox = platformKeys({
      dataDir: mkdtempSync(join(tmpdir(), 'swx-quotes-')),
      masterKeys: { current: null, previous: null },
    });
    const production = platformKeys({
      ...loadConfig({ SWX_MODE: 'production', MARKET_SOURCE: 'binance', CHAIN: 'off', ...OWN_XPUBS }),
      dataDir: '/nonexistent',
    });
    for (const ring of [sandbox, production]) {
      const quotes = new Quotes(TEST_PRODUCT, { keys: ring.purpose('quotes'), db: t.db, now });
      const { quoteId } = quotes.issue(holder, Math.floor(clock / 1000), { amount: 20n, gross: 20n });
      expect(quotes.verify(quoteId, holder).figures.gross).toBe(20n);
      for (const id of forged(quoteId)) {
        let refusal: unknown;
        try {
          quotes.verify(id, holder);
        } catch (error) {
          refusal = error;
        }
        expect(codeOf(refusal).code).toBe(10026);
      }
    }
    // A quote of one purpose's key is nothing to another master.
    const other = new Quotes(TEST_PRODUCT, { keys: KeyRing.random().purpose('quotes'), db: t.db, now });
    const mine = new Quotes(TEST_PRODUCT, { keys: sandbox.purpose('quotes'), db: t.db, now });
    const { quoteId } = mine.issue(holder, Math.floor(clock / 1000), { amount: 1n, gross: 1n });
    expect(() => other.verify(quoteId, holder)).toThrow(ApiError);
  });

  it('after a rotation, a quote of the previous master commits while it is kept, and not once it is removed', async () => {
    const old = Buffer.alloc(32, 1);
    const before = new Quotes(TEST_PRODUCT, { keys: new KeyRing(old).purpose('quotes'), db: t.db, now });
    const { quoteId } = before.issue(holder, Math.floor(clock / 1000), { amount: 5n, gross: 5n });
    const rotated = new Quotes(TEST_PRODUCT, {
      keys: new KeyRing(Buffer.alloc(32, 2), old).purpose('quotes'),
      db: t.db,
      now,
    });
    expect(rotated.verify(quoteId, holder).figures.amount).toBe(5n);
    // New quotes are signed under the new master's id.
    const fresh = rotated.issue(holder, Math.floor(clock / 1000), { amount: 5n, gross: 5n });
    expect(fresh.quoteId.split('.')[0]).not.toBe(quoteId.split('.')[0]);
    const after = new Quotes(TEST_PRODUCT, {
      keys: new KeyRing(Buffer.alloc(32, 2)).purpose('quotes'),
      db: t.db,
      now,
    });
    expect(() => after.verify(quoteId, holder)).toThrow(ApiError);
    expect(after.verify(fresh.quoteId, holder).figures.amount).toBe(5n);
  });

  it('commits a quote once: 20 requests at once, one posts, the rest are refused as used; its own request again answers it', async () => {
    const quotes = new Quotes(TEST_PRODUCT, { keys: KeyRing.random().purpose('quotes'), db: t.db, now });
    const { quoteId } = quotes.issue(holder, Math.floor(clock / 1000), { amount: 20n, gross: 20n });
    const posted: string[] = [];
    const commit = (requestKey: string) =>
      quotes.commit(quoteId, holder, {
        requestKey,
        replay: async () => null,
        post: async () => {
          posted.push(requestKey);
          return requestKey;
        },
      });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => commit(`request-${i}`)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(posted).toHaveLength(1);
    const winner = posted[0] as string;
    for (const o of outcomes)
      if (o.status === 'rejected')
        expect(codeOf(o.reason)).toMatchObject({ code: 10032, data: { reason: 'used' } });
    // The winner's request again: the product posts it again, idempotently on its request.
    expect(await commit(winner)).toBe(winner);
    // Another request whose own earlier result exists answers that result, not a refusal.
    const own = await quotes.commit(quoteId, holder, {
      requestKey: 'request-with-a-past',
      replay: async () => 'what it did before',
      post: async () => 'never',
    });
    expect(own).toBe('what it did before');
  });

  it('refuses an expired quote before claiming it, and prunes only claims long expired', async () => {
    const quotes = new Quotes(TEST_PRODUCT, { keys: KeyRing.random().purpose('quotes'), db: t.db, now });
    const second = Math.floor(clock / 1000);
    const { quoteId, expiresAt } = quotes.issue(holder, second, { amount: 1n, gross: 1n });
    clock += 11_000;
    let refusal: unknown;
    try {
      await quotes.commit(quoteId, holder, {
        requestKey: 'late',
        replay: async () => null,
        post: async () => 1,
      });
    } catch (error) {
      refusal = error;
    }
    expect(codeOf(refusal).code).toBe(10032);
    const claims = async () =>
      Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM quote_claims'))[0]?.n);
    const before = await claims();
    expect(before).toBeGreaterThan(0);
    // Within the hour after expiry, the claims stay; after it, they go.
    await pruneClaims(t.db, expiresAt + 60);
    expect(await claims()).toBe(before);
    await pruneClaims(t.db, expiresAt + 2 * 3600);
    expect(await claims()).toBe(0);
  });
});
