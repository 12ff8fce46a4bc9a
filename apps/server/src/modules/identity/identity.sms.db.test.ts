import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMailer } from '../../platform/mail.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { createSmsSender, listSmsOutbox } from '../../platform/sms.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { IdentityService } from './identity.service.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const PASSWORD = 'long enough pw';

describe(`SMS codes and phone accounts on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let identity: IdentityService;
  const dataDir = mkdtempSync(join(tmpdir(), 'swx-sms-'));
  let ip = 0;
  /** A new client address per test, so the per-address limit of one test does not touch another. */
  const client = (language: 'en' | 'de' | 'ar' | 'zh' = 'en') => ({
    ip: `198.51.100.${++ip}`,
    userAgent: 'test',
    language,
  });
  beforeAll(async () => {
    t = await openTestDatabase();
    const ledger = new LedgerService(t.db, new AuditService(t.db));
    await ledger.ensureSystemAccounts();
    identity = new IdentityService({
      db: t.db,
      mailer: createMailer({ from: 'x <x@x.test>', dataDir }),
      sms: createSmsSender({ dataDir }),
      rateLimiter: createMemoryRateLimiter(),
      ledger,
      keys: new KeyRing(Buffer.alloc(32, 1)),
    });
  });
  afterAll(() => t.close());

  /** The newest SMS to a number, from the outbox files, and its 6-digit code. */
  async function lastSms(to: string): Promise<{ text: string; code: string }> {
    const sms = (await listSmsOutbox(dataDir, { limit: 1000 })).find((m) => m.to === to);
    if (!sms) throw new Error(`no SMS to ${to}`);
    return { text: sms.text, code: /\b(\d{6})\b/.exec(sms.text)?.[1] ?? '' };
  }

  async function registerPhone(areaCode: string, phone: string, e164: string) {
    await identity.sendSmsCode({ areaCode, phone, purpose: 'register' }, client());
    const { code } = await lastSms(e164);
    return identity.register({ areaCode, phone, password: PASSWORD, password2: PASSWORD, code }, client());
  }

  it('sends a hashed 6-digit code by SMS in the request language and registers by phone in E.164', async () => {
    const sent = await identity.sendSmsCode(
      { areaCode: '+49', phone: '015112345678', purpose: 'register' },
      client('de'),
    );
    expect(sent).toEqual({ expiresInSeconds: 600, resendInSeconds: 60 });
    // The trunk prefix 0 is dropped: the number is stored and addressed as E.164.
    const { text, code } = await lastSms('+4915112345678');
    expect(text).toMatch(/^SWX: Ihr Bestätigungscode lautet \d{6}\. Er läuft in 10 Minuten ab\./);
    const rows = await t.db.query<{ channel: string; target: string; code_hash: string; ttl: string }>(
      `SELECT channel, target, code_hash, extract(epoch FROM expires_at - created_at)::int AS ttl
       FROM verification_codes WHERE target = '+4915112345678'`,
    );
    expect(rows).toEqual([expect.objectContaining({ channel: 'sms', target: '+4915112345678', ttl: 600 })]);
    expect(rows[0]?.code_hash).toMatch(/^[a-f0-9]{64}$/);
    expect(rows[0]?.code_hash).not.toContain(code);

    expect(await identity.isPhoneAvailable('+49', '15112345678')).toBe(true);
    const { token, userInfo } = await identity.register(
      { areaCode: '+49', phone: '15112345678', password: PASSWORD, password2: PASSWORD, code },
      client('de'),
    );
    expect(userInfo.userName).toBe('+4915112345678');
    expect((await identity.resolveSession(token))?.userId).toBe(userInfo.id);
    const [user] = await t.db.query<{ phone: string; email: string | null }>(
      'SELECT phone, email FROM users WHERE id = $1',
      [userInfo.id],
    );
    expect(user).toEqual({ phone: '+4915112345678', email: null });
    expect(await identity.isPhoneAvailable('+49', '015112345678')).toBe(false);
    expect(await identity.isAvailable('+49 151 12345678')).toBe(false);

    // Login by E.164 in userName, and by area code and number.
    const byE164 = await identity.login({ userName: '+4915112345678', password: PASSWORD }, client());
    expect(byE164).toMatchObject({ userInfo: { id: userInfo.id } });
    const byParts = await identity.login(
      { areaCode: '+49', phone: '015112345678', password: PASSWORD },
      client(),
    );
    expect(byParts).toMatchObject({ userInfo: { id: userInfo.id } });
    await expect(
      identity.login({ areaCode: '+49', phone: '15112345678', password: 'not it at all' }, client()),
    ).rejects.toSatisfy(refusedWith(10004));
    await expect(
      identity.login({ areaCode: '+49', phone: '15100000000', password: PASSWORD }, client()),
    ).rejects.toSatisfy(refusedWith(10009));
  });

  it('refuses a phone in use with 10007, on sending and on registering', async () => {
    await registerPhone('+44', '7700900001', '+447700900001');
    // (The resend limit of that number's registration code is still running: another number.)
    await t.db.query(
      "INSERT INTO users (user_name, phone, password_hash) VALUES ('+447700900002', '+447700900002', '$argon2id$x')",
    );
    await expect(
      identity.sendSmsCode({ areaCode: '+44', phone: '07700900002', purpose: 'register' }, client()),
    ).rejects.toSatisfy(refusedWith(10007));
    await expect(
      identity.register(
        { areaCode: '+44', phone: '7700900001', password: PASSWORD, password2: PASSWORD, code: '123456' },
        client(),
      ),
    ).rejects.toSatisfy(refusedWith(10007));
    // The database holds one account per number whatever code writes.
    await expect(
      t.db.query(
        "INSERT INTO users (user_name, phone, password_hash) VALUES ('someone', '+447700900001', '$argon2id$x')",
      ),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(
      t.db.query(
        "INSERT INTO users (user_name, phone, password_hash) VALUES ('someone', '447700900001', '$argon2id$x')",
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('uses a code once, allows 5 attempts, and keeps SMS and mail codes apart', async () => {
    await identity.sendSmsCode({ areaCode: '+33', phone: '612345678', purpose: 'register' }, client());
    const { code } = await lastSms('+33612345678');
    const wrong = code === '000000' ? '111111' : '000000';
    const attempt = (c: string) =>
      identity.register(
        { areaCode: '+33', phone: '612345678', password: PASSWORD, password2: PASSWORD, code: c },
        client(),
      );
    for (let i = 0; i < 5; i++) await expect(attempt(wrong)).rejects.toSatisfy(refusedWith(10091));
    await expect(attempt(code)).rejects.toSatisfy(refusedWith(10091));

    // A mailed code for an address never checks an SMS code (and the reverse).
    const rows = await t.db.query<{ channel: string }>(
      "SELECT DISTINCT channel FROM verification_codes WHERE target = '+33612345678'",
    );
    expect(rows).toEqual([{ channel: 'sms' }]);

    // Single use: a registered number's code does not open a second account.
    await identity.sendSmsCode({ areaCode: '+34', phone: '612345678', purpose: 'register' }, client());
    const second = await lastSms('+34612345678');
    const body = { areaCode: '+34', phone: '612345678', password: PASSWORD, password2: PASSWORD };
    await identity.register({ ...body, code: second.code }, client());
    await expect(identity.register({ ...body, code: second.code }, client())).rejects.toSatisfy(
      refusedWith(10007),
    );
  });

  it('limits sends per number and purpose, per number a day, and per address', async () => {
    const c = client();
    await identity.sendSmsCode({ areaCode: '+39', phone: '3123456789', purpose: 'register' }, c);
    await expect(
      identity.sendSmsCode({ areaCode: '+39', phone: '3123456789', purpose: 'register' }, client()),
    ).rejects.toSatisfy(refusedWith(10027));
    // Another number from the same address is fine until the address limit (20 an hour).
    for (let i = 0; i < 19; i++)
      await identity.sendSmsCode(
        { areaCode: '+39', phone: `31234567${String(i).padStart(2, '0')}`, purpose: 'register' },
        c,
      );
    await expect(
      identity.sendSmsCode({ areaCode: '+39', phone: '3999999999', purpose: 'register' }, c),
    ).rejects.toSatisfy(refusedWith(10027));
  });

  it('resets a password by SMS code; an unknown number gets the same answer and no SMS', async () => {
    const { userInfo } = await registerPhone('+81', '9012345678', '+819012345678');
    await identity.sendSmsCode({ areaCode: '+81', phone: '09012345678', purpose: 'reset' }, client('zh'));
    const { text, code } = await lastSms('+819012345678');
    expect(text).toContain('您的验证码为');
    await identity.resetPassword(
      {
        areaCode: '+81',
        phone: '9012345678',
        code,
        password: 'a brand new one',
        password2: 'a brand new one',
      },
      client(),
    );
    await expect(
      identity.login({ userName: '+819012345678', password: PASSWORD }, client()),
    ).rejects.toSatisfy(refusedWith(10004));
    expect(
      await identity.login({ userName: '+81 90 1234 5678', password: 'a brand new one' }, client()),
    ).toMatchObject({ userInfo: { id: userInfo.id } });

    const before = (await listSmsOutbox(dataDir, { limit: 1000 })).length;
    expect(
      await identity.sendSmsCode({ areaCode: '+81', phone: '9000000000', purpose: 'reset' }, client()),
    ).toEqual({ expiresInSeconds: 600, resendInSeconds: 60 });
    expect((await listSmsOutbox(dataDir, { limit: 1000 })).length).toBe(before);
    await expect(
      identity.resetPassword(
        {
          areaCode: '+81',
          phone: '9000000000',
          code: '123456',
          password: 'a brand new one',
          password2: 'a brand new one',
        },
        client(),
      ),
    ).rejects.toSatisfy(refusedWith(10091));
  });

  it('refuses numbers that are not E.164 (more than 15 digits in all)', async () => {
    await expect(
      identity.sendSmsCode({ areaCode: '+852', phone: '1234567890123', purpose: 'register' }, client()),
    ).rejects.toSatisfy(refusedWith(10026));
    await expect(
      identity.sendSmsCode({ areaCode: '+1', phone: '00000', purpose: 'register' }, client()),
    ).rejects.toSatisfy(refusedWith(10026));
  });
});
