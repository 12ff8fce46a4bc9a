import { describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { authenticatorCode } from '../support/totp.ts';

describe('account security over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let anonymous: CustomerApi;
  useServer({}, (s) => ({ server, inbox, anonymous } = s));

  const login = (userName: string, password = 'long enough pw') =>
    anonymous.call('login', { userName, password });

  /** A second session of an account, signed in with its password. */
  async function loginToken(userName: string, password = 'long enough pw'): Promise<CustomerApi> {
    const r = await login(userName, password);
    expect(r.code).toBe(200);
    if (!('token' in r.data)) throw new Error('expected a session');
    return customerApi(server, r.data.token);
  }

  /** The challenge a password login answers when two-step verification is on. */
  async function challengeOf(userName: string): Promise<string> {
    const r = await login(userName);
    if (!('challenge' in r.data)) throw new Error('expected a challenge');
    return r.data.challenge;
  }

  const registered = async (email: string) => customerApi(server, await registerByApi(server, inbox, email));

  /** Turns 2FA on for a logged-in user; returns the secret and the recovery codes. */
  async function enable2fa(customer: CustomerApi): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await customer.call('setupTotp', {});
    expect(setup.code).toBe(200);
    const { secret, uri } = setup.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/SWX:/);
    const enabled = await customer.call('enableTotp', { code: authenticatorCode(secret) });
    expect(enabled.code).toBe(200);
    return { secret, recoveryCodes: enabled.data.recoveryCodes };
  }

  it('changes the password: wrong current password 10004; then the other session’s token gets 401 and this one stays', async () => {
    const here = await registered('changer@example.com');
    const elsewhere = await loginToken('changer@example.com');
    const wrong = await here.call('repassword', {
      oldPassword: 'not it at all',
      password: 'fresh passphrase',
      password2: 'fresh passphrase',
    });
    expect(wrong.code).toBe(10004);
    const ok = await here.call('repassword', {
      oldPassword: 'long enough pw',
      password: 'fresh passphrase',
      password2: 'fresh passphrase',
    });
    expect(ok).toMatchObject({ code: 200, data: null });
    const other = await elsewhere.call('getUserInfo');
    expect(other.status).toBe(401);
    expect(other.code).toBe(401);
    const same = await here.call('getUserInfo');
    expect(same).toMatchObject({ code: 200, data: { userName: 'changer@example.com' } });
    expect((await login('changer@example.com')).code).toBe(10004);
    expect((await login('changer@example.com', 'fresh passphrase')).code).toBe(200);
    // The notice went out by mail.
    await expect
      .poll(() =>
        inbox.messages.some((m) => m.to === 'changer@example.com' && /password was changed/.test(m.raw)),
      )
      .toBe(true);
    // Without a session: 401.
    const refused = await anonymous.call('repassword', {
      oldPassword: 'x',
      password: 'fresh passphrase',
      password2: 'fresh passphrase',
    });
    expect(refused.status).toBe(401);
  });

  it('lists sessions without tokens, and refuses another user’s session id with 10028, revoking nothing', async () => {
    const mine = await registered('owner@example.com');
    const theirs = await registered('victim@example.com');
    const theirPhone = await loginToken('victim@example.com');
    const list = await theirs.call('listSessions');
    const sessions = list.data;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(JSON.stringify(list.data)).not.toContain(theirs.token);
    expect(JSON.stringify(list.data)).not.toContain(theirPhone.token);
    // The address the calls came from, its last part masked.
    const from = server.clientAddress ?? '127.0.0.1';
    expect(sessions[0]?.ip).toBe(`${from.slice(0, from.lastIndexOf('.'))}.*`);
    const phoneId = sessions.find((s) => !s.current)?.id ?? '';

    const refused = await mine.call('revokeSession', { id: phoneId });
    expect(refused.status).toBe(404);
    expect(refused.code).toBe(10028);
    expect((await theirPhone.call('getUserInfo')).code).toBe(200);
    expect((await theirs.call('listSessions')).data.length).toBe(2);

    const revoked = await theirs.call('revokeSession', { id: phoneId });
    expect(revoked.code).toBe(200);
    expect((await theirPhone.call('getUserInfo')).status).toBe(401);
  });

  it('logs in with two-step verification end to end: password, then challenge and code; recovery codes once', async () => {
    const customer = await registered('twostep@example.com');
    expect((await customer.call('getTotpStatus')).data).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    // Without 2FA the login answer keeps the spec's shape: the token and the user info.
    const plain = await login('twostep@example.com');
    expect(Object.keys(plain.data).sort()).toEqual(['token', 'userInfo']);

    const { secret, recoveryCodes } = await enable2fa(customer);
    expect(recoveryCodes).toHaveLength(10);
    expect((await customer.call('getTotpStatus')).data).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    const first = await login('twostep@example.com');
    expect(first.code).toBe(200);
    expect(first.data).toEqual({
      twoFactor: true,
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const challenge = 'challenge' in first.data ? first.data.challenge : '';
    // The enabling code's step is spent; the next step's code is what the phone shows soon.
    const done = await anonymous.call('loginTotp', { challenge, code: authenticatorCode(secret, 1) });
    expect(done.code).toBe(200);
    const session = done.data;
    expect(session.userInfo.userName).toBe('twostep@example.com');
    expect((await customerApi(server, session.token).call('getUserInfo')).code).toBe(200);
    // The challenge is used up.
    expect((await anonymous.call('loginTotp', { challenge, code: authenticatorCode(secret, 1) })).code).toBe(
      10028,
    );

    const viaRecovery = await challengeOf('twostep@example.com');
    const recovered = await anonymous.call('loginTotp', {
      challenge: viaRecovery,
      recoveryCode: recoveryCodes[0] ?? '',
    });
    expect(recovered.code).toBe(200);
    const reuse = await challengeOf('twostep@example.com');
    expect(
      (await anonymous.call('loginTotp', { challenge: reuse, recoveryCode: recoveryCodes[0] ?? '' })).code,
    ).toBe(10091);
    // Both a code and a recovery code, or neither: bad input.
    expect((await anonymous.call('loginTotp', { challenge: reuse })).code).toBe(10026);
  });

  it('limits guesses at the second step: 5 per challenge, then 10 per account in 15 minutes', async () => {
    const customer = await registered('guessed@example.com');
    // Turning it on counts apart: the second step of sign-in has a limit of its own.
    const { secret } = await enable2fa(customer);
    const wrongFor = (right: string) => (right === '000000' ? '111111' : '000000');
    const firstChallenge = await challengeOf('guessed@example.com');
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push(
        (
          await anonymous.call('loginTotp', {
            challenge: firstChallenge,
            code: wrongFor(authenticatorCode(secret, 1)),
          })
        ).code,
      );
    expect(codes).toEqual([10091, 10091, 10091, 10091, 10091]);
    // Out of attempts: even the right code is refused, and the password step must be done again.
    expect(
      (await anonymous.call('loginTotp', { challenge: firstChallenge, code: authenticatorCode(secret, 1) }))
        .code,
    ).toBe(10028);

    const secondChallenge = await challengeOf('guessed@example.com');
    for (let i = 0; i < 5; i++)
      expect(
        (
          await anonymous.call('loginTotp', {
            challenge: secondChallenge,
            code: wrongFor(authenticatorCode(secret, 1)),
          })
        ).code,
      ).toBe(10091);
    // Ten guesses at this account's second step in the window: the right code now waits too.
    const limited = await anonymous.call('loginTotp', {
      challenge: await challengeOf('guessed@example.com'),
      code: authenticatorCode(secret, 1),
    });
    expect(limited.status).toBe(429);
    expect(limited.code).toBe(10027);
  });
});
