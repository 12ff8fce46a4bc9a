import { describe, expect, it } from 'vitest';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

/**
 * Security alerts over HTTP, on a real server with its mail going to an SMTP receiver: a sign-in
 * from a new device and a password change each mail the customer (and leave a notice) with a lock
 * link to this server; the link's token locks the account once: every session ends and sign-in is
 * refused until support unlocks it.
 */
describe('security alerts over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let anonymous: CustomerApi;
  useServer({}, (s) => ({ server, inbox, anonymous } = s));

  /** The mail to an address with this subject (quoted-printable soft breaks undone). */
  async function mailTo(email: string, subject: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const raw = inbox.messages
        .filter((m) => m.to === email)
        .map((m) => m.raw.replace(/=\r?\n/g, ''))
        .findLast((text) => text.includes(`Subject: ${subject}`));
      if (raw) return raw;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail "${subject}" to ${email}`);
  }

  it('mails a new sign-in and a password change with a lock link; the link locks the account once', async () => {
    const email = 'guarded@example.com';
    await anonymous.ok('sendCode', { email, purpose: 'register' });
    const registered = await anonymous.ok('register', {
      userName: email,
      password: 'long enough pw',
      password2: 'long enough pw',
      code: await inbox.codeFor(email),
    });
    const first = customerApi(server, registered.token);

    // Another browser, without this account's device cookie, signs in.
    const signedIn = await anonymous.ok('login', { userName: email, password: 'long enough pw' });
    if (!('token' in signedIn)) throw new Error('no session');
    const second = customerApi(server, signedIn.token);
    const newDevice = await mailTo(email, 'New sign-in to your SWX account');
    expect(newDevice).toContain('Someone signed in to your SWX account from a new device on');
    const link = /(http:\/\/[^\s]+)\/pass\/lock#([a-f0-9]{64})/.exec(newDevice);
    expect(link?.[1]).toBe(server.baseUrl);
    expect((await second.ok('getNoticeList')).map((n) => n.noticeContent)).toContainEqual(
      expect.stringContaining('New sign-in to your account on'),
    );

    expect(
      (
        await second.call('repassword', {
          oldPassword: 'long enough pw',
          password: 'another long pw',
          password2: 'another long pw',
        })
      ).code,
    ).toBe(200);
    expect(await mailTo(email, 'Your SWX password was changed')).toMatch(/\/pass\/lock#[a-f0-9]{64}/);
    // The password change ended the other session; this one stays until the lock.
    expect((await first.call('getUserInfo')).status).toBe(401);
    expect((await second.call('getUserInfo')).code).toBe(200);

    expect((await anonymous.call('lockAccount', { token: link?.[2] ?? '' })).code).toBe(200);
    expect((await second.call('getUserInfo')).status).toBe(401);
    expect((await anonymous.call('login', { userName: email, password: 'another long pw' })).code).toBe(
      10005,
    );
    // The link works once.
    expect((await anonymous.call('lockAccount', { token: link?.[2] ?? '' })).code).toBe(10028);
    expect((await anonymous.call('lockAccount', { token: 'not a token' })).code).toBe(10026);
  }, 120_000);
});
