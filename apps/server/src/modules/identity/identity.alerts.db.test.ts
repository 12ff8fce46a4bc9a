import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, type TestContext, type TestCustomer } from '../../test/context.ts';
import { base32Decode, totpCode } from './identity.totp.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Gecko/20100101 Firefox/128.0';

/**
 * Security alerts that reach the customer, on the real identity service, notices and mail: a
 * password change or reset, two-step verification turned on or off and a sign-in from a new device
 * each send a mail and a notice saying what happened, when and from where, with a one-click lock
 * link whose single-use token locks the account (sessions end, sign-in refused). The second step of
 * sign-in and the confirmation of a withdrawal are limited apart.
 */
describe(`security alerts, ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let clock = Date.UTC(2027, 4, 1, 9, 30, 10);
  const now = () => clock;
  const client = (ip = '203.0.113.45') => ({
    ip,
    userAgent: FIREFOX,
    language: 'en' as const,
    origin: 'https://swx.test',
  });

  beforeAll(async () => {
    t = await openTestDatabase();
    ctx = await createTestContext(t.db, { now });
  }, 60_000);
  afterAll(() => t?.close());

  const lastMail = (c: TestCustomer) => ctx.mail.findLast((m) => m.to === c.email);
  const lockTokenOf = (text: string) =>
    /https:\/\/swx\.test\/pass\/lock#([a-f0-9]{64})/.exec(text)?.[1] ?? '';
  const noticesOf = async (c: TestCustomer) =>
    (await ctx.notices.list(c.id, 'en')).map((n) => n.noticeContent);

  async function expectAlert(c: TestCustomer, subject: string, says: string) {
    const mail = lastMail(c);
    expect(mail?.subject).toBe(subject);
    expect(mail?.text).toContain(says);
    expect(mail?.text).toContain('Firefox 128, macOS, address 203.0.113.*');
    expect(lockTokenOf(mail?.text ?? '')).toMatch(/^[a-f0-9]{64}$/);
    const [notice] = await noticesOf(c);
    expect(notice).toContain('2027-05-01 09:30 (UTC) from Firefox 128, macOS, address 203.0.113.*');
    return lockTokenOf(mail?.text ?? '');
  }

  it('a password change: mail and notice, and the lock link locks the account once', async () => {
    const c = await ctx.customer({ password: 'first password 1' });
    const session = await ctx.sessionOf(c);
    await ctx.identity.changePassword(
      session,
      { oldPassword: 'first password 1', password: 'second password 2', password2: 'second password 2' },
      client(),
    );
    const token = await expectAlert(
      c,
      'Your SWX password was changed',
      'The password of your SWX account was changed on 2027-05-01 09:30 (UTC)',
    );
    expect((await noticesOf(c))[0]).toContain('Your password was changed on');
    // The customer's session still works until the lock link is used.
    expect(await ctx.identity.resolveSession(c.token)).not.toBeNull();

    await ctx.identity.lockAccount(token);
    expect(await ctx.identity.resolveSession(c.token)).toBeNull();
    await expect(
      ctx.identity.login({ userName: c.userName, password: 'second password 2' }, client()),
    ).rejects.toSatisfy(refusedWith(10005));
    // Single use: the same link again is no link.
    await expect(ctx.identity.lockAccount(token)).rejects.toSatisfy(refusedWith(10028));
    await expect(ctx.identity.lockAccount('0'.repeat(64))).rejects.toSatisfy(refusedWith(10028));
    const audit = await ctx.audit.search({ subject: `user:${c.id}`, limit: 10 });
    expect(audit.map((row) => [row.action, row.actor])).toContainEqual([
      'customer.self_locked',
      `customer:${c.id}`,
    ]);
  });

  it('a password reset with a code: mail and notice', async () => {
    const c = await ctx.customer();
    await ctx.identity.sendCode({ email: c.email, purpose: 'reset' }, client('10.77.0.1'));
    const code = /\b(\d{6})\b/.exec(lastMail(c)?.text ?? '')?.[1] ?? '';
    await ctx.identity.resetPassword(
      { email: c.email, code, password: 'a reset password', password2: 'a reset password' },
      client(),
    );
    await expectAlert(
      c,
      'Your SWX password was reset',
      'was reset with a verification code on 2027-05-01 09:30 (UTC)',
    );
    expect((await noticesOf(c))[0]).toContain('Your password was reset with a verification code');
  });

  it('a sign-in from a new device: mail and notice; the same device again: none', async () => {
    const c = await ctx.customer();
    const mails = () => ctx.mail.filter((m) => m.to === c.email).length;
    const before = mails();
    const first = await ctx.identity.login({ userName: c.userName, password: c.password }, client());
    expect(mails()).toBe(before + 1);
    await expectAlert(
      c,
      'New sign-in to your SWX account',
      'Someone signed in to your SWX account from a new device on 2027-05-01 09:30 (UTC): Firefox',
    );
    expect((await noticesOf(c))[0]).toContain('New sign-in to your account');

    // That browser now holds the device cookie: its next sign-in is no news.
    const device = ctx.identity.deviceToken(c.id, null);
    expect('token' in first).toBe(true);
    await ctx.identity.login({ userName: c.userName, password: c.password }, { ...client(), device });
    expect(mails()).toBe(before + 1);
  });

  it('two-step verification on and off: mail and notice each', async () => {
    const c = await ctx.customer();
    const session = await ctx.sessionOf(c);
    const { secret } = await ctx.identity.setupTotp(session);
    const key = base32Decode(secret);
    await ctx.identity.enableTotp(session, { code: totpCode(key, clock) }, client());
    await expectAlert(
      c,
      'Two-step verification is on for your SWX account',
      'Two-step verification was turned on',
    );
    clock += 30_000;
    await ctx.identity.disableTotp(session, { password: c.password, code: totpCode(key, clock) }, client());
    await expectAlert(
      c,
      'Two-step verification was turned off for your SWX account',
      'Two-step verification was turned off',
    );
    expect((await noticesOf(c)).slice(0, 2)).toEqual([
      expect.stringContaining('Two-step verification was turned off'),
      expect.stringContaining('Two-step verification was turned on'),
    ]);
  });

  it('exhausting the two-step sign-in limit leaves the withdrawal confirmation open, and the other way round', async () => {
    const withTotp = async () => {
      const c = await ctx.customer();
      const session = await ctx.sessionOf(c);
      const key = base32Decode((await ctx.identity.setupTotp(session)).secret);
      clock += 30_000;
      await ctx.identity.enableTotp(session, { code: totpCode(key, clock) }, client());
      return { c, key };
    };
    const challengeOf = async (c: TestCustomer) => {
      const answer = await ctx.identity.login({ userName: c.userName, password: c.password }, client());
      if (!('challenge' in answer)) throw new Error('no second step');
      return answer.challenge;
    };
    const withdrawal = { amount: '200.000000', asset: 'USDT', network: 'USDT (EVM)', address: '0xabc' };

    // Ten wrong second steps (two challenges of five attempts): the eleventh is refused 10027…
    const a = await withTotp();
    for (let i = 0; i < 2; i++) {
      const challenge = await challengeOf(a.c);
      for (let j = 0; j < 5; j++)
        await expect(ctx.identity.loginTotp({ challenge, code: '000000' }, client())).rejects.toSatisfy(
          refusedWith(10091),
        );
    }
    await expect(
      ctx.identity.loginTotp({ challenge: await challengeOf(a.c), code: '000000' }, client()),
    ).rejects.toSatisfy(refusedWith(10027));
    // …and the customer can still confirm a withdrawal with the authenticator.
    clock += 30_000;
    await expect(
      ctx.identity.confirmAction(a.c.id, totpCode(a.key, clock), withdrawal),
    ).resolves.toBeUndefined();

    // Ten wrong withdrawal confirmations: the eleventh is refused 10027…
    const b = await withTotp();
    for (let i = 0; i < 10; i++)
      await expect(ctx.identity.confirmAction(b.c.id, '000000', withdrawal)).rejects.toSatisfy(
        refusedWith(10091),
      );
    await expect(ctx.identity.confirmAction(b.c.id, '000000', withdrawal)).rejects.toSatisfy(
      refusedWith(10027),
    );
    // …and the customer can still sign in with the second step.
    clock += 30_000;
    const signedIn = await ctx.identity.loginTotp(
      { challenge: await challengeOf(b.c), code: totpCode(b.key, clock) },
      client(),
    );
    expect(signedIn.userInfo.id).toBe(b.c.id);
  });
});
