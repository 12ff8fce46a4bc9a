import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMailer, listOutbox } from '../../platform/mail.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { newDeviceToken, readDeviceToken } from './identity.devices.ts';
import { IdentityService } from './identity.service.ts';
import { base32Decode, totpCode } from './identity.totp.ts';

/**
 * A rotation of MASTER_KEY: two-step secrets sealed under the old master keep working while it is
 * kept as MASTER_KEY_PREVIOUS, are sealed again under the new one at their next use or by
 * `npm run keys:reseal`, and then work without the old key; device tokens of the old key id are
 * good while it is kept, and not after.
 */
describe(`key rotation on ${TEST_DB}`, () => {
  const OLD = Buffer.alloc(32, 1);
  const NEW = Buffer.alloc(32, 2);
  let t: TestDatabase;
  let ledger: LedgerService;
  const dataDir = mkdtempSync(join(tmpdir(), 'swx-keys-'));
  const client = { ip: '203.0.113.9', userAgent: 'test', language: 'en' as const };
  let clock = Date.UTC(2025, 5, 1, 12, 0, 10);
  const identityUnder = (keys: KeyRing) =>
    new IdentityService({
      db: t.db,
      mailer: createMailer({ from: 'x <x@x.test>', dataDir }),
      rateLimiter: createMemoryRateLimiter(),
      ledger,
      keys,
      now: () => clock,
    });

  beforeAll(async () => {
    t = await openTestDatabase();
    ledger = new LedgerService(t.db, new AuditService(t.db));
    await ledger.ensureSystemAccounts();
  });
  afterAll(() => t.close());

  async function codeFromOutbox(): Promise<string> {
    const [mail] = await listOutbox(dataDir, 1);
    const body = (mail?.eml ?? '')
      .replace(/=\r?\n/g, '')
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n');
    return /\b(\d{6})\b/.exec(body)?.[1] ?? '';
  }

  /** A customer with two-step on under `identity`'s keys; answers their authenticator's key. */
  async function withTwoStep(identity: IdentityService, email: string): Promise<Uint8Array> {
    await identity.sendCode({ email, purpose: 'register' }, client);
    const { token } = await identity.register(
      {
        userName: email,
        password: 'long enough pw',
        password2: 'long enough pw',
        code: await codeFromOutbox(),
      },
      client,
    );
    const session = await identity.resolveSession(token);
    if (!session) throw new Error('no session');
    const key = base32Decode((await identity.setupTotp(session)).secret);
    await identity.enableTotp(session, { code: totpCode(key, clock) }, client);
    clock += 60_000;
    return key;
  }

  /** Signs in with password and code: true when a session is opened. */
  async function signsIn(identity: IdentityService, email: string, key: Uint8Array): Promise<boolean> {
    clock += 60_000;
    const answer = await identity.login({ userName: email, password: 'long enough pw' }, client);
    if (!('challenge' in answer)) throw new Error('expected a challenge');
    try {
      const done = await identity.loginTotp(
        { challenge: answer.challenge, code: totpCode(key, clock) },
        client,
      );
      return 'token' in done;
    } catch (error) {
      if (error instanceof ApiError) return false;
      throw error;
    }
  }

  const keyIdOf = async (email: string) =>
    (
      await t.db.query<{ secret_enc: string }>(
        'SELECT c.secret_enc FROM totp_credentials c JOIN users u ON u.id = c.user_id WHERE u.email = $1',
        [email],
      )
    )[0]?.secret_enc.split('.')[1];

  it('keeps two-step secrets working through a rotation, sealed again at their use or by keys:reseal', async () => {
    const before = identityUnder(new KeyRing(OLD));
    const ada = await withTwoStep(before, 'ada.rotation@example.com');
    const bob = await withTwoStep(before, 'bob.rotation@example.com');
    const oldId = new KeyRing(OLD).currentId;
    const newId = new KeyRing(NEW).currentId;
    expect(await keyIdOf('ada.rotation@example.com')).toBe(oldId);

    // Rotated, with the old key kept: Ada signs in, and her secret is sealed under the new key.
    const rotated = identityUnder(new KeyRing(NEW, OLD));
    expect(await signsIn(rotated, 'ada.rotation@example.com', ada)).toBe(true);
    expect(await keyIdOf('ada.rotation@example.com')).toBe(newId);
    expect(await keyIdOf('bob.rotation@example.com')).toBe(oldId);
    // Bob did not sign in: the operator command seals his again.
    expect(await rotated.resealSecrets()).toEqual({ resealed: 1, current: 1, unreadable: [] });
    expect(await keyIdOf('bob.rotation@example.com')).toBe(newId);

    // The old key removed: both still sign in.
    const after = identityUnder(new KeyRing(NEW));
    expect(await signsIn(after, 'ada.rotation@example.com', ada)).toBe(true);
    expect(await signsIn(after, 'bob.rotation@example.com', bob)).toBe(true);
  });

  it('a secret still under a removed key is named by keys:reseal, never opened', async () => {
    const before = identityUnder(new KeyRing(Buffer.alloc(32, 3)));
    await withTwoStep(before, 'carol.rotation@example.com');
    const report = await identityUnder(new KeyRing(NEW)).resealSecrets();
    expect(report.unreadable).toHaveLength(1);
  });

  it('device tokens of the previous key id are good while it is kept, and not after', () => {
    const old = new KeyRing(OLD).purpose('device-tokens');
    const token = newDeviceToken(old, 42);
    expect(token.split('.')[2]).toBe(old.current.id);
    expect(readDeviceToken(old, token)).toMatchObject({ userId: 42 });
    expect(readDeviceToken(new KeyRing(NEW, OLD).purpose('device-tokens'), token)).toMatchObject({
      userId: 42,
    });
    expect(readDeviceToken(new KeyRing(NEW).purpose('device-tokens'), token)).toBeNull();
    // Another purpose's key of the same master does not sign device tokens.
    const quotesKey = new KeyRing(OLD).purpose('quotes');
    expect(readDeviceToken(old, newDeviceToken(quotesKey, 42))).toBeNull();
  });
});
