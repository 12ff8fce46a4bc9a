import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { createMailer, listOutbox } from '../../platform/mail.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { IdentityService } from './identity.service.ts';

describe(`identity on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let identity: IdentityService;
  const dataDir = mkdtempSync(join(tmpdir(), 'swx-identity-'));
  const client = { ip: '203.0.113.9', userAgent: 'test', language: 'en' as const };
  beforeAll(async () => {
    t = await openTestDatabase();
    const ledger = new LedgerService(t.db, new AuditService(t.db));
    await ledger.ensureSystemAccounts();
    identity = new IdentityService({
      db: t.db,
      mailer: createMailer({ from: 'x <x@x.test>', dataDir }),
      rateLimiter: createMemoryRateLimiter(),
      ledger,
    });
  });
  afterAll(() => t.close());

  async function codeFromOutbox(): Promise<string> {
    const [mail] = await listOutbox(dataDir, 1);
    return (
      /\b(\d{6})\b/.exec(
        (mail?.eml ?? '')
          .replace(/=\r?\n/g, '')
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n'),
      )?.[1] ?? ''
    );
  }

  it('stores argon2id hashes (19 MiB, 2 passes) and only the SHA-256 of session tokens', async () => {
    await identity.sendCode({ email: 'ada@example.com', purpose: 'register' }, client);
    const { token } = await identity.register(
      {
        userName: 'ada@example.com',
        password: 'analytical engine',
        password2: 'analytical engine',
        code: await codeFromOutbox(),
      },
      client,
    );
    const [user] = await t.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email = 'ada@example.com'",
    );
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    const rows = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
    expect(await identity.sessionsWithToken(token)).toBe(1);
    const session = await identity.resolveSession(token);
    expect(session?.userName).toBe('ada@example.com');
    if (!session) throw new Error('no session');
    await identity.logout(session);
    expect(await identity.sessionsWithToken(token)).toBe(0);
    expect(await identity.resolveSession(token)).toBeNull();
  });

  it('uses a code once', async () => {
    await identity.sendCode(
      { email: 'once@example.com', purpose: 'register' },
      { ...client, ip: '203.0.113.10' },
    );
    const code = await codeFromOutbox();
    await identity.register(
      { userName: 'once@example.com', password: 'long enough pw', password2: 'long enough pw', code },
      client,
    );
    await expect(
      identity.register(
        {
          userName: 'once_again',
          email: 'once@example.com',
          password: 'long enough pw',
          password2: 'long enough pw',
          code,
        },
        client,
      ),
    ).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.code === 10007);
  });

  it('refuses mismatched passwords and bad names before touching the code', async () => {
    await expect(
      identity.register(
        { userName: 'ab', password: 'long enough pw', password2: 'long enough pw', code: '123456' },
        client,
      ),
    ).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.code === 10003);
    await expect(
      identity.register(
        {
          userName: 'fresh@example.com',
          password: 'long enough pw',
          password2: 'different pw!',
          code: '123456',
        },
        client,
      ),
    ).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.code === 10026);
  });
});
