import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMailer, listOutbox } from '../../platform/mail.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { IdentityService } from './identity.service.ts';
import { base32Decode, totpCode } from './identity.totp.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;

describe(`identity on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let identity: IdentityService;
  const dataDir = mkdtempSync(join(tmpdir(), 'swx-identity-'));
  const client = { ip: '203.0.113.9', userAgent: 'test', language: 'en' as const };
  /** The clock TOTP codes are checked against; tests move it. */
  let clock = Date.UTC(2025, 5, 1, 12, 0, 10);
  beforeAll(async () => {
    t = await openTestDatabase();
    const ledger = new LedgerService(t.db, new AuditService(t.db));
    await ledger.ensureSystemAccounts();
    identity = new IdentityService({
      db: t.db,
      mailer: createMailer({ from: 'x <x@x.test>', dataDir }),
      rateLimiter: createMemoryRateLimiter(),
      ledger,
      keys: new KeyRing(Buffer.alloc(32, 1)),
      now: () => clock,
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
  let ipCounter = 20;
  async function registered(email: string, password = 'long enough pw') {
    // Each registration from its own address, so the per-address code limit stays out of the way.
    await identity.sendCode({ email, purpose: 'register' }, { ...client, ip: `198.51.100.${ipCounter++}` });
    const { token } = await identity.register(
      { userName: email, password, password2: password, code: await codeFromOutbox() },
      client,
    );
    const session = await identity.resolveSession(token);
    if (!session) throw new Error('no session');
    return { token, session };
  }

  async function loggedIn(email: string, password = 'long enough pw') {
    const answer = await identity.login({ userName: email, password }, client);
    if (!('token' in answer)) throw new Error('expected a session, got a challenge');
    return answer.token;
  }

  async function challenged(email: string, password = 'long enough pw'): Promise<string> {
    const answer = await identity.login({ userName: email, password }, client);
    if (!('challenge' in answer)) throw new Error('expected a challenge');
    expect(answer).toEqual({ twoFactor: true, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    return answer.challenge;
  }

  const STEP = 30_000;

  it('checks TOTP codes one step either side of now, never further, and never the same step twice', async () => {
    const { session } = await registered('totp@example.com');
    expect(await identity.totpStatus(session)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const { secret, uri } = await identity.setupTotp(session);
    expect(uri).toContain(`secret=${secret}`);
    const key = base32Decode(secret);
    const code = (offsetSteps: number) => totpCode(key, clock + offsetSteps * STEP);
    // Not active before a code confirms it: the password alone still logs in.
    expect(await loggedIn('totp@example.com')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.db.query<{ secret_enc: string }>('SELECT secret_enc FROM totp_credentials');
    expect(stored.every((r) => !r.secret_enc.includes(secret))).toBe(true);

    const wrong = code(0) === '000000' ? '111111' : '000000';
    await expect(identity.enableTotp(session, { code: wrong }, client)).rejects.toSatisfy(refusedWith(10091));
    // The phone is 30 s behind: its code of the previous step is accepted.
    const { recoveryCodes } = await identity.enableTotp(session, { code: code(-1) }, client);
    expect(recoveryCodes).toHaveLength(10);
    await expect(identity.setupTotp(session)).rejects.toSatisfy(refusedWith(10008));
    expect(await identity.totpStatus(session)).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    const sessionsBefore = (await identity.listSessions(session)).length;
    const challenge = await challenged('totp@example.com');
    // A right password alone opens no session.
    expect((await identity.listSessions(session)).length).toBe(sessionsBefore);
    // The code used to enable is spent: replaying it is refused.
    await expect(identity.loginTotp({ challenge, code: code(-1) }, client)).rejects.toSatisfy(
      refusedWith(10091),
    );
    clock += 2 * STEP;
    // Two steps ahead of now: outside the window (two behind: see the next test).
    await expect(identity.loginTotp({ challenge, code: code(2) }, client)).rejects.toSatisfy(
      refusedWith(10091),
    );
    // One step ahead (the phone runs fast): accepted, and the challenge is used up.
    const ok = await identity.loginTotp({ challenge, code: code(1) }, client);
    expect(ok.userInfo.userName).toBe('totp@example.com');
    expect(await identity.resolveSession(ok.token)).not.toBeNull();
    await expect(identity.loginTotp({ challenge, code: code(0) }, client)).rejects.toSatisfy(
      refusedWith(10028),
    );
    // The step just used, and the one before it, are spent even on a fresh challenge.
    const second = await challenged('totp@example.com');
    await expect(identity.loginTotp({ challenge: second, code: code(1) }, client)).rejects.toSatisfy(
      refusedWith(10091),
    );
    await expect(identity.loginTotp({ challenge: second, code: code(0) }, client)).rejects.toSatisfy(
      refusedWith(10091),
    );
    // Five attempts per challenge: after three more wrong codes even a fresh right one is refused.
    for (let i = 0; i < 3; i++)
      await expect(identity.loginTotp({ challenge: second, code: wrong }, client)).rejects.toSatisfy(
        refusedWith(10091),
      );
    clock += 2 * STEP;
    await expect(identity.loginTotp({ challenge: second, code: code(0) }, client)).rejects.toSatisfy(
      refusedWith(10028),
    );
    // The challenge is stored only as a hash.
    const challenges = await t.db.query<{ challenge_hash: string }>(
      'SELECT challenge_hash FROM login_challenges',
    );
    expect(challenges.some((r) => r.challenge_hash === second)).toBe(false);
  });

  it('refuses a code two steps behind, and a challenge older than 5 minutes', async () => {
    const { session } = await registered('late@example.com');
    const { secret } = await identity.setupTotp(session);
    const key = base32Decode(secret);
    await identity.enableTotp(session, { code: totpCode(key, clock) }, client);
    clock += 3 * STEP;
    const challenge = await challenged('late@example.com');
    // Not used yet, but 60 s old: outside the window.
    await expect(
      identity.loginTotp({ challenge, code: totpCode(key, clock - 2 * STEP) }, client),
    ).rejects.toSatisfy(refusedWith(10091));
    await t.db.query(
      "UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [session.userId],
    );
    await expect(identity.loginTotp({ challenge, code: totpCode(key, clock) }, client)).rejects.toSatisfy(
      refusedWith(10028),
    );
  });

  it('takes each recovery code once, stores them only hashed, and turns 2FA off with password and code', async () => {
    const { session } = await registered('recover2fa@example.com');
    const { secret } = await identity.setupTotp(session);
    const { recoveryCodes } = await identity.enableTotp(
      session,
      { code: totpCode(base32Decode(secret), clock) },
      client,
    );
    const [first = '', second = '', third = ''] = recoveryCodes;
    const hashes = await t.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM recovery_codes WHERE user_id = $1',
      [session.userId],
    );
    expect(hashes).toHaveLength(10);
    for (const code of recoveryCodes)
      expect(hashes.some((h) => h.code_hash.includes(code.replace(/-/g, '').toLowerCase()))).toBe(false);

    // Case, spaces and dashes do not matter.
    const typed = first.toLowerCase().replace(/-/g, ' ');
    const ok = await identity.loginTotp(
      { challenge: await challenged('recover2fa@example.com'), recoveryCode: typed },
      client,
    );
    expect(ok.userInfo.userName).toBe('recover2fa@example.com');
    const again = await challenged('recover2fa@example.com');
    await expect(identity.loginTotp({ challenge: again, recoveryCode: first }, client)).rejects.toSatisfy(
      refusedWith(10091),
    );
    await identity.loginTotp({ challenge: again, recoveryCode: second }, client);
    expect(await identity.totpStatus(session)).toEqual({ enabled: true, recoveryCodesLeft: 8 });

    await expect(
      identity.disableTotp(session, { password: 'not the password', code: third }, client),
    ).rejects.toSatisfy(refusedWith(10004));
    await expect(
      identity.disableTotp(session, { password: 'long enough pw', code: first }, client),
    ).rejects.toSatisfy(refusedWith(10091));
    await identity.disableTotp(session, { password: 'long enough pw', code: third }, client);
    expect(await identity.totpStatus(session)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const left = await t.db.query('SELECT 1 FROM recovery_codes WHERE user_id = $1', [session.userId]);
    expect(left).toHaveLength(0);
    expect(await loggedIn('recover2fa@example.com')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(
      identity.disableTotp(session, { password: 'long enough pw', code: '123456' }, client),
    ).rejects.toSatisfy(refusedWith(10008));
  });

  it('repassword: wrong current password 10004; on success every other session ends and this one stays', async () => {
    const { token: here, session } = await registered('mover@example.com');
    const phone = await loggedIn('mover@example.com');
    const laptop = await loggedIn('mover@example.com');
    const listed = await identity.listSessions(session);
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current).map((s) => s.id)).toEqual([session.sessionId]);
    for (const s of listed) {
      expect(s.id).toMatch(/^[a-f0-9]{24}$/);
      expect([here, phone, laptop].some((token) => s.id.includes(token))).toBe(false);
      expect(s.ip).toBe('203.0.113.*');
    }

    await expect(
      identity.changePassword(
        session,
        { oldPassword: 'wrong one', password: 'a new passphrase', password2: 'a new passphrase' },
        client,
      ),
    ).rejects.toSatisfy(refusedWith(10004));
    await expect(
      identity.changePassword(
        session,
        { oldPassword: 'long enough pw', password: 'a new passphrase', password2: 'a new passphrasf' },
        client,
      ),
    ).rejects.toSatisfy(refusedWith(10026));
    expect(await identity.resolveSession(phone)).not.toBeNull();

    await identity.changePassword(
      session,
      { oldPassword: 'long enough pw', password: 'a new passphrase', password2: 'a new passphrase' },
      client,
    );
    expect(await identity.resolveSession(here)).not.toBeNull();
    expect(await identity.resolveSession(phone)).toBeNull();
    expect(await identity.resolveSession(laptop)).toBeNull();
    expect((await identity.listSessions(session)).map((s) => s.id)).toEqual([session.sessionId]);
    const [user] = await t.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email = 'mover@example.com'",
    );
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(
      identity.login({ userName: 'mover@example.com', password: 'long enough pw' }, client),
    ).rejects.toSatisfy(refusedWith(10004));
    expect(await loggedIn('mover@example.com', 'a new passphrase')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [newest, before] = await listOutbox(dataDir, 2);
    expect(before?.eml).toContain('Subject: Your SWX password was changed');
    // The sign-in after it, from a browser without this account's device cookie, is news too.
    expect(newest?.eml).toContain('Subject: New sign-in to your SWX account');
  });

  it('revokes only the user’s own sessions: another user’s id answers 10028 and ends nothing', async () => {
    const alice = await registered('alice@example.com');
    const bob = await registered('bob@example.com');
    const bobPhone = await loggedIn('bob@example.com');
    const bobPhoneId = (await identity.listSessions(bob.session)).find((s) => !s.current)?.id ?? '';
    await expect(identity.revokeSession(alice.session, bobPhoneId)).rejects.toSatisfy(refusedWith(10028));
    await expect(identity.revokeSession(alice.session, 'f'.repeat(24))).rejects.toSatisfy(refusedWith(10028));
    expect(await identity.resolveSession(bobPhone)).not.toBeNull();
    await identity.revokeSession(bob.session, bobPhoneId);
    expect(await identity.resolveSession(bobPhone)).toBeNull();
    expect(await identity.resolveSession(bob.token)).not.toBeNull();
  });
  it('someone asking for reset codes all day cannot keep the owner from resetting', async () => {
    const email = 'besieged@example.com';
    const { session } = await registered(email);
    const knownDevice = identity.deviceToken(session.userId, null);
    const other = await registered('bystander@example.com');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      // One code a minute per target: each ask comes a minute after the last.
      const ask = async (ip: string, device?: string) => {
        vi.setSystemTime(Date.now() + 61_000);
        return identity.sendCode({ email, purpose: 'reset' }, { ...client, ip, device }).then(
          () => 'sent',
          (e: unknown) => (e instanceof ApiError ? e.code : e),
        );
      };
      // An attacker's address is stopped after 10 codes a day to this address.
      for (let i = 0; i < 10; i++) expect(await ask('192.0.2.1')).toBe('sent');
      expect(await ask('192.0.2.1')).toBe(10027);
      // More addresses: 30 a day to one target from all sources together, the code that
      // registered the account included (1 + 10 + 10 + 9).
      for (let i = 0; i < 10; i++) expect(await ask('192.0.2.2')).toBe('sent');
      for (let i = 0; i < 9; i++) expect(await ask('192.0.2.3')).toBe('sent');
      expect(await ask('192.0.2.4')).toBe(10027);
      // The owner on a new device waits like everyone else…
      expect(await ask('198.51.100.200')).toBe(10027);
      // …but on a device the account has signed in on, the owner still gets a code.
      expect(await ask('198.51.100.201', knownDevice)).toBe('sent');
      // A device token of another account is no pass.
      expect(await ask('198.51.100.202', identity.deviceToken(other.session.userId, null))).toBe(10027);
    } finally {
      vi.useRealTimers();
    }
  });
});
