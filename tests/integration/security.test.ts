import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, startServerWithInbox } from '../support/accounts.ts';
import { api, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { authenticatorCode } from '../support/totp.ts';

const C = '/swx/customer';
const post = (body: unknown, token?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
  body: JSON.stringify(body),
});
const get = (token: string) => ({ headers: { authorization: token } });

type SessionItem = { id: string; current: boolean; ip: string; browser: string; os: string };

describe('account security over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, inbox, stop } = await startServerWithInbox());
  });
  afterAll(async () => {
    await stop?.();
  });

  async function login(userName: string, password = 'long enough pw') {
    return api(server.baseUrl, `${C}/login/login`, post({ userName, password }));
  }

  async function loginToken(userName: string, password = 'long enough pw'): Promise<string> {
    const r = await login(userName, password);
    expect(r.body.code).toBe(200);
    return (r.body.data as { token: string }).token;
  }

  /** Turns 2FA on for a logged-in user; returns the secret and the recovery codes. */
  async function enable2fa(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await api(server.baseUrl, `${C}/user/setupTotp`, post({}, token));
    expect(setup.body.code).toBe(200);
    const { secret, uri } = setup.body.data as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/SWX:/);
    const enabled = await api(
      server.baseUrl,
      `${C}/user/enableTotp`,
      post({ code: authenticatorCode(secret) }, token),
    );
    expect(enabled.body.code).toBe(200);
    return { secret, recoveryCodes: (enabled.body.data as { recoveryCodes: string[] }).recoveryCodes };
  }

  it('changes the password: wrong current password 10004; then the other session’s token gets 401 and this one stays', async () => {
    const here = (await registerByApi(server, inbox, 'changer@example.com')).token;
    const elsewhere = await loginToken('changer@example.com');
    const wrong = await api(
      server.baseUrl,
      `${C}/user/repassword`,
      post(
        { oldPassword: 'not it at all', password: 'fresh passphrase', password2: 'fresh passphrase' },
        here,
      ),
    );
    expect(wrong.body.code).toBe(10004);
    const ok = await api(
      server.baseUrl,
      `${C}/user/repassword`,
      post(
        { oldPassword: 'long enough pw', password: 'fresh passphrase', password2: 'fresh passphrase' },
        here,
      ),
    );
    expect(ok.body).toMatchObject({ code: 200, data: null });
    const other = await api(server.baseUrl, `${C}/user/getUserInfo`, { method: 'POST', ...get(elsewhere) });
    expect(other.status).toBe(401);
    expect(other.body.code).toBe(401);
    const same = await api(server.baseUrl, `${C}/user/getUserInfo`, { method: 'POST', ...get(here) });
    expect(same.body).toMatchObject({ code: 200, data: { userName: 'changer@example.com' } });
    expect((await login('changer@example.com')).body.code).toBe(10004);
    expect((await login('changer@example.com', 'fresh passphrase')).body.code).toBe(200);
    // The notice went out by mail.
    await expect
      .poll(() =>
        inbox.messages.some((m) => m.to === 'changer@example.com' && /password was changed/.test(m.raw)),
      )
      .toBe(true);
    // Without a session: 401.
    const anonymous = await api(
      server.baseUrl,
      `${C}/user/repassword`,
      post({ oldPassword: 'x', password: 'fresh passphrase', password2: 'fresh passphrase' }),
    );
    expect(anonymous.status).toBe(401);
  });

  it('lists sessions without tokens, and refuses another user’s session id with 10028, revoking nothing', async () => {
    const mine = (await registerByApi(server, inbox, 'owner@example.com')).token;
    const theirs = (await registerByApi(server, inbox, 'victim@example.com')).token;
    const theirPhone = await loginToken('victim@example.com');
    const list = await api(server.baseUrl, `${C}/user/listSessions`, get(theirs));
    const sessions = list.body.data as SessionItem[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(theirs);
    expect(JSON.stringify(list.body)).not.toContain(theirPhone);
    expect(sessions[0]?.ip).toBe('127.0.0.*');
    const phoneId = sessions.find((s) => !s.current)?.id ?? '';

    const refused = await api(server.baseUrl, `${C}/user/revokeSession`, post({ id: phoneId }, mine));
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe(10028);
    expect(
      (await api(server.baseUrl, `${C}/user/getUserInfo`, { method: 'POST', ...get(theirPhone) })).body.code,
    ).toBe(200);
    expect(
      ((await api(server.baseUrl, `${C}/user/listSessions`, get(theirs))).body.data as unknown[]).length,
    ).toBe(2);

    const revoked = await api(server.baseUrl, `${C}/user/revokeSession`, post({ id: phoneId }, theirs));
    expect(revoked.body.code).toBe(200);
    expect(
      (await api(server.baseUrl, `${C}/user/getUserInfo`, { method: 'POST', ...get(theirPhone) })).status,
    ).toBe(401);
  });

  it('logs in with two-step verification end to end: password, then challenge and code; recovery codes once', async () => {
    const token = (await registerByApi(server, inbox, 'twostep@example.com')).token;
    expect((await api(server.baseUrl, `${C}/user/getTotpStatus`, get(token))).body.data).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    // Without 2FA the login answer keeps the spec's shape: the token and the user info.
    const plain = await login('twostep@example.com');
    expect(Object.keys(plain.body.data as object).sort()).toEqual(['token', 'userInfo']);

    const { secret, recoveryCodes } = await enable2fa(token);
    expect(recoveryCodes).toHaveLength(10);
    expect((await api(server.baseUrl, `${C}/user/getTotpStatus`, get(token))).body.data).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    const first = await login('twostep@example.com');
    expect(first.body.code).toBe(200);
    expect(first.body.data).toEqual({
      twoFactor: true,
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const { challenge } = first.body.data as { challenge: string };
    // The enabling code's step is spent; the next step's code is what the phone shows soon.
    const done = await api(
      server.baseUrl,
      `${C}/login/loginTotp`,
      post({ challenge, code: authenticatorCode(secret, 1) }),
    );
    expect(done.body.code).toBe(200);
    const session = done.body.data as { token: string; userInfo: { userName: string } };
    expect(session.userInfo.userName).toBe('twostep@example.com');
    expect(
      (await api(server.baseUrl, `${C}/user/getUserInfo`, { method: 'POST', ...get(session.token) })).body
        .code,
    ).toBe(200);
    // The challenge is used up.
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/loginTotp`,
          post({ challenge, code: authenticatorCode(secret, 1) }),
        )
      ).body.code,
    ).toBe(10028);

    const viaRecovery = (await login('twostep@example.com')).body.data as { challenge: string };
    const recovered = await api(
      server.baseUrl,
      `${C}/login/loginTotp`,
      post({ challenge: viaRecovery.challenge, recoveryCode: recoveryCodes[0] }),
    );
    expect(recovered.body.code).toBe(200);
    const reuse = (await login('twostep@example.com')).body.data as { challenge: string };
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/loginTotp`,
          post({ challenge: reuse.challenge, recoveryCode: recoveryCodes[0] }),
        )
      ).body.code,
    ).toBe(10091);
    // Both a code and a recovery code, or neither: bad input.
    expect(
      (await api(server.baseUrl, `${C}/login/loginTotp`, post({ challenge: reuse.challenge }))).body.code,
    ).toBe(10026);
  });

  it('limits guesses at the second step: 5 per challenge, then 10 per account in 15 minutes', async () => {
    const token = (await registerByApi(server, inbox, 'guessed@example.com')).token;
    const { secret } = await enable2fa(token); // 1 guess counted for the account
    const wrongFor = (right: string) => (right === '000000' ? '111111' : '000000');
    const firstChallenge = ((await login('guessed@example.com')).body.data as { challenge: string })
      .challenge;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push(
        (
          await api(
            server.baseUrl,
            `${C}/login/loginTotp`,
            post({ challenge: firstChallenge, code: wrongFor(authenticatorCode(secret, 1)) }),
          )
        ).body.code,
      );
    expect(codes).toEqual([10091, 10091, 10091, 10091, 10091]);
    // Out of attempts: even the right code is refused, and the password step must be done again.
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/loginTotp`,
          post({ challenge: firstChallenge, code: authenticatorCode(secret, 1) }),
        )
      ).body.code,
    ).toBe(10028);

    const secondChallenge = ((await login('guessed@example.com')).body.data as { challenge: string })
      .challenge;
    for (let i = 0; i < 4; i++)
      expect(
        (
          await api(
            server.baseUrl,
            `${C}/login/loginTotp`,
            post({ challenge: secondChallenge, code: wrongFor(authenticatorCode(secret, 1)) }),
          )
        ).body.code,
      ).toBe(10091);
    // Ten guesses at this account's codes in the window: the right code now waits too.
    const limited = await api(
      server.baseUrl,
      `${C}/login/loginTotp`,
      post({ challenge: secondChallenge, code: authenticatorCode(secret, 1) }),
    );
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe(10027);
  });
});
