import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { createMemoryBus } from '../../platform/bus.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMailer } from '../../platform/mail.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { FileStorage } from '../../platform/storage.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { AuditService } from '../audit/audit.service.ts';
import { DeskCustomers } from '../desk/desk.customers.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { IdentityService } from '../identity/identity.service.ts';
import { base32Decode, totpCode } from '../identity/identity.totp.ts';
import { KycService } from '../kyc/kyc.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { MarketService } from '../market/market.service.ts';
import { NoticesService } from '../notices/notices.service.ts';
import { PositionsService } from '../positions/positions.service.ts';
import { UploadsService } from '../uploads/uploads.service.ts';
import { StaffService as Staff, type StaffService, type StaffSession } from './staff.service.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const client = { ip: '198.51.100.7', userAgent: 'staff-test' };

describe(`staff accounts on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let staff: StaffService;
  let identity: IdentityService;
  let customers: DeskCustomers;
  let audit: AuditService;
  let clock = Date.UTC(2025, 6, 1, 9, 0, 5);
  const step = () => {
    clock += 30_000;
  };
  beforeAll(async () => {
    t = await openTestDatabase();
    audit = new AuditService(t.db);
    const ledger = new LedgerService(t.db, audit);
    await ledger.ensureSystemAccounts();
    const keys = new KeyRing(Buffer.alloc(32, 7));
    staff = new Staff({
      db: t.db,
      audit,
      rateLimiter: createMemoryRateLimiter(),
      keys,
      now: () => clock,
    });
    identity = new IdentityService({
      db: t.db,
      mailer: createMailer({ from: 'x <x@x.test>', dataDir: mkdtempSync(join(tmpdir(), 'swx-staff-')) }),
      rateLimiter: createMemoryRateLimiter(),
      ledger,
      keys,
    });
    const directory = new CustomerDirectory(t.db);
    const notices = new NoticesService(t.db);
    const kyc = new KycService({
      db: t.db,
      uploads: new UploadsService({
        db: t.db,
        storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-staff-files-'))),
      }),
      audit,
      customers: directory,
    });
    const trading = new PositionsService({
      db: t.db,
      ledger,
      market: new MarketService(t.db),
      bus: createMemoryBus(),
      notices,
    });
    customers = new DeskCustomers({ db: t.db, staff, customers: directory, kyc, ledger, trading });
    ctx = await createTestContext(t.db, { audit, ledger, notices, staff, now: () => clock });
  });
  afterAll(() => t.close());

  /** Creates and enrols a staff member (on the next authenticator step); returns the session and the authenticator secret. */
  async function enrolled(email: string, role: 'admin' | 'compliance' | 'finance' | 'support') {
    step();
    const member = await ctx.staffMember(role, email);
    return { session: member.session, secret: member.secret, token: member.token };
  }

  it('creates an account with a one-time password only (argon2id), never a default one', async () => {
    const created = await staff.create({ email: 'Ops@Example.com', role: 'admin' }, null);
    expect(created.staff).toMatchObject({ email: 'ops@example.com', role: 'admin' });
    expect(created.oneTimePassword).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){4}$/);
    const [row] = await t.db.query<{ password_hash: string; password_one_time: boolean }>(
      "SELECT password_hash, password_one_time FROM staff WHERE email = 'ops@example.com'",
    );
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.password_one_time).toBe(true);
    await expect(staff.create({ email: 'ops@example.com', role: 'support' }, null)).rejects.toSatisfy(
      refusedWith(10007),
    );
    await expect(
      staff.signIn({ email: 'ops@example.com', password: 'wrong password' }, client),
    ).rejects.toSatisfy(refusedWith(10004));
    await expect(staff.signIn({ email: 'nobody@example.com', password: 'x' }, client)).rejects.toSatisfy(
      refusedWith(10004),
    );
  });

  it('enrols TOTP at the first sign-in with a new password, then needs password and code', async () => {
    const { oneTimePassword } = await staff.create({ email: 'comp@example.com', role: 'compliance' }, null);
    const first = await staff.signIn({ email: 'comp@example.com', password: oneTimePassword }, client);
    expect(first).toMatchObject({ step: 'enrol', newPasswordRequired: true });
    if (first.step !== 'enrol') return;
    expect(first.uri).toContain(`secret=${first.secret}`);
    const secret = base32Decode(first.secret);
    // A one-time password must be replaced; a wrong code is refused and uses an attempt.
    await expect(
      staff.enrol({ challenge: first.challenge, code: totpCode(secret, clock) }, client),
    ).rejects.toSatisfy(refusedWith(10026));
    const wrong = totpCode(secret, clock) === '000000' ? '111111' : '000000';
    await expect(
      staff.enrol(
        { challenge: first.challenge, code: wrong, newPassword: 'a long staff passphrase' },
        client,
      ),
    ).rejects.toSatisfy(refusedWith(10091));
    const done = await staff.enrol(
      { challenge: first.challenge, code: totpCode(secret, clock), newPassword: 'a long staff passphrase' },
      client,
    );
    expect(done.staff).toMatchObject({ email: 'comp@example.com', role: 'compliance' });
    expect(done.token).toMatchObject(expect.stringMatching(/^[A-Za-z0-9_-]{43}$/));
    const hashes = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM staff_sessions');
    expect(hashes.some((h) => h.token_hash.includes(done.token))).toBe(false);
    // The challenge is used up.
    await expect(
      staff.enrol(
        { challenge: first.challenge, code: totpCode(secret, clock), newPassword: 'x'.repeat(12) },
        client,
      ),
    ).rejects.toSatisfy(refusedWith(10028));

    // The one-time password is gone; the new one leads to the code step.
    await expect(
      staff.signIn({ email: 'comp@example.com', password: oneTimePassword }, client),
    ).rejects.toSatisfy(refusedWith(10004));
    const second = await staff.signIn(
      { email: 'comp@example.com', password: 'a long staff passphrase' },
      client,
    );
    expect(second.step).toBe('totp');
    // The code of the step used at enrolment is a replay.
    await expect(
      staff.verifyCode({ challenge: second.challenge, code: totpCode(secret, clock) }, client),
    ).rejects.toSatisfy(refusedWith(10091));
    step();
    const again = await staff.verifyCode(
      { challenge: second.challenge, code: totpCode(secret, clock) },
      client,
    );
    const session = await staff.resolveSession(again.token);
    expect(session).toMatchObject({ email: 'comp@example.com', role: 'compliance' });

    // Staff and customer sessions are separate: neither token works on the other side.
    expect(await identity.resolveSession(again.token)).toBeNull();
    if (!session) return;
    await staff.signOut(session);
    expect(await staff.resolveSession(again.token)).toBeNull();

    const rows = await t.db.query<{ actor: string; action: string }>(
      'SELECT actor, action FROM audit_log WHERE actor = $1 ORDER BY seq',
      [`staff:${session.staffId}`],
    );
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'staff.totp_enrolled',
        'staff.password_set',
        'staff.signed_in',
        'staff.signed_out',
      ]),
    );
    expect((await audit.verify()).ok).toBe(true);
  });

  it('refuses an expired one-time password', async () => {
    const { oneTimePassword } = await staff.create({ email: 'late@example.com', role: 'support' }, null);
    await t.db.query(
      "UPDATE staff SET password_expires_at = now() - interval '1 minute' WHERE email = 'late@example.com'",
    );
    await expect(
      staff.signIn({ email: 'late@example.com', password: oneTimePassword }, client),
    ).rejects.toSatisfy(refusedWith(10008));
  });

  it('locks a customer with a reason (sessions end, login refused) and unlocks', async () => {
    const { session } = await enrolled('support@example.com', 'support');
    const userId = (
      await ctx.customer({ name: 'lockme', email: 'lockme@example.com', password: 'customer password' })
    ).id;
    const login = await identity.login(
      { userName: 'lockme', password: 'customer password' },
      { ...client, language: 'en' },
    );
    if (!('token' in login)) throw new Error('expected a session');
    expect(await identity.resolveSession(login.token)).not.toBeNull();
    // A customer token is no staff session.
    expect(await staff.resolveSession(login.token)).toBeNull();

    const found = await customers.search(session, 'LOCKME@example');
    expect(found.map((c) => c.id)).toEqual([userId]);
    expect((await customers.search(session, String(userId))).map((c) => c.id)).toContain(userId);
    const locked = await customers.setLocked(session, userId, true, 'card reported stolen');
    expect(locked).toMatchObject({ status: 'locked', liveSessions: 0 });
    expect(locked.history[0]).toMatchObject({
      action: 'lock',
      reason: 'card reported stolen',
      staffEmail: 'support@example.com',
    });
    expect(await identity.resolveSession(login.token)).toBeNull();
    await expect(
      identity.login({ userName: 'lockme', password: 'customer password' }, { ...client, language: 'en' }),
    ).rejects.toSatisfy(refusedWith(10005));
    await expect(customers.setLocked(session, userId, true, 'again')).rejects.toSatisfy(refusedWith(10008));
    await expect(customers.setLocked(session, 999_999, true, 'nobody')).rejects.toSatisfy(refusedWith(10028));

    const unlocked = await customers.setLocked(session, userId, false, 'customer confirmed identity');
    expect(unlocked.status).toBe('active');
    expect(
      await identity.login(
        { userName: 'lockme', password: 'customer password' },
        { ...client, language: 'en' },
      ),
    ).toHaveProperty('token');
    const actions = await t.db.query<{ action: string; subject: string }>(
      'SELECT action, subject FROM audit_log WHERE actor = $1 ORDER BY seq',
      [`staff:${session.staffId}`],
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: 'customer.locked', subject: `user:${userId}` },
        { action: 'customer.unlocked', subject: `user:${userId}` },
        { action: 'customer.searched', subject: 'customers' },
      ]),
    );
  });

  it('lets an admin create staff, attributed to the admin', async () => {
    const { session } = await enrolled('root@example.com', 'admin');
    const made = await staff.create({ email: 'fin@example.com', role: 'finance' }, session as StaffSession);
    const [row] = await t.db.query<{ created_by: string }>('SELECT created_by FROM staff WHERE id = $1', [
      made.staff.id,
    ]);
    expect(Number(row?.created_by)).toBe(session.staffId);
    const list = await staff.list(session);
    expect(list.find((s) => s.email === 'fin@example.com')).toMatchObject({
      role: 'finance',
      enrolled: false,
    });
  });

  it('keeps one admin who can act when two admins demote each other at the same time', async () => {
    const a = (await enrolled('left.admin@example.com', 'admin')).session;
    const b = (await enrolled('right.admin@example.com', 'admin')).session;
    const others = (await staff.list(a)).filter(
      (s) =>
        s.role === 'admin' && s.status === 'active' && s.enrolled && s.id !== a.staffId && s.id !== b.staffId,
    );
    for (const other of others) await staff.update(a, other.id, { status: 'disabled' });
    await expect(staff.update(a, a.staffId, { status: 'disabled' })).rejects.toSatisfy(refusedWith(10008));
    const outcomes = await Promise.allSettled([
      staff.update(a, b.staffId, { role: 'support' }),
      staff.update(b, a.staffId, { role: 'support' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected');
    expect(refusedWith(10008)(refused?.status === 'rejected' ? refused.reason : null)).toBe(true);
    const admins = (await staff.list(a)).filter(
      (s) => s.role === 'admin' && s.status === 'active' && s.enrolled,
    );
    expect(admins).toHaveLength(1);
    // The one left cannot step down either.
    const last = admins[0]?.id === a.staffId ? a : b;
    await expect(staff.update(last, last.staffId, { role: 'finance' })).rejects.toSatisfy(refusedWith(10008));
  });
});
