import { describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import {
  CookieJar,
  freePort,
  type OidcProvider,
  signInAtProvider,
  startOidcProvider,
} from '../support/oidc.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { authenticatorCode } from '../support/totp.ts';

const C = '/swx/customer';

type Answer = { status: number; body: { code: number; msg: string; data: unknown } };
type Session = { token: string; userInfo: { id: number; userName: string } };

/**
 * Social sign-in against a real OpenID provider (oidc-provider on 127.0.0.1): the server under
 * test has only the Google slot configured, pointing at it; everything goes over HTTP, with the
 * provider's redirects followed by hand and the browser's cookie kept in a jar (those calls, about
 * the cookie on the wire, are raw requests; the others go through the typed client).
 */
describe('social sign-in over HTTP with a real OpenID provider', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let provider: OidcProvider;
  let anonymous: CustomerApi;
  // The server's callback URL must be known to the provider first: a free port, then the provider.
  useServer(
    {
      env: async () => {
        const port = await freePort();
        provider = await startOidcProvider(`http://127.0.0.1:${port}`);
        return { PORT: String(port), ...provider.serverEnv(['google']) };
      },
      after: () => provider?.close(),
    },
    (s) => ({ server, inbox, anonymous } = s),
  );

  /** loginByGoogle in a browser whose cookies are `jar`: the authorization URL to go to. */
  async function start(jar: CookieJar, name = 'Google'): Promise<{ answer: Answer; url: string }> {
    const response = await fetch(`${server.baseUrl}${C}/login/loginBy${name}`, {
      method: 'POST',
      headers: { cookie: jar.header() },
    });
    jar.store(response);
    const answer = { status: response.status, body: (await response.json()) as Answer['body'] };
    return {
      answer,
      url: (answer.body.data as { authorizationUrl?: string } | null)?.authorizationUrl ?? '',
    };
  }

  /** What the /api/loginCallback/google page posts: the code, state and iss it was given. */
  async function finish(jar: CookieJar, callback: URL, name = 'Google'): Promise<Answer> {
    const body: Record<string, string> = {};
    for (const key of ['code', 'state', 'iss']) {
      const value = callback.searchParams.get(key);
      if (value !== null) body[key] = value;
    }
    const response = await fetch(`${server.baseUrl}${C}/login/loginBy${name}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: jar.header() },
      body: JSON.stringify(body),
    });
    jar.store(response);
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  /** The whole flow for one person at the provider; answers the server's login answer. */
  async function socialLogin(account: string): Promise<Answer> {
    const jar = new CookieJar();
    const { url } = await start(jar);
    return finish(jar, await signInAtProvider(url, account));
  }

  async function sessionOf(answer: Answer): Promise<Session> {
    expect(answer.body.code, answer.body.msg).toBe(200);
    const session = answer.body.data as Session;
    const me = await customerApi(server, session).call('getUserInfo');
    expect(me.data).toEqual(session.userInfo);
    return session;
  }

  it('lists only the configured provider; the other one is not offered', async () => {
    const list = await anonymous.call('listSocialProviders');
    expect(list).toMatchObject({ code: 200, data: [{ provider: 'google', label: 'Google' }] });
    const other = await start(new CookieJar(), 'Microsoft');
    expect(other.answer.status).toBe(404);
    expect(other.answer.body.code).toBe(10028);
  });

  it('starts with a state, a nonce, PKCE S256 and an HttpOnly SameSite=Lax cookie', async () => {
    const response = await fetch(`${server.baseUrl}${C}/login/loginByGoogle`, { method: 'POST' });
    const cookie = response.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/^swx_social=[A-Za-z0-9_-]{43}; Path=\/swx\/customer\/login\/; Max-Age=600;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const body = (await response.json()) as { data: { authorizationUrl: string } };
    const url = new URL(body.data.authorizationUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'swx-google',
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${server.baseUrl}/api/loginCallback/google`,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Neither the state nor the nonce is in the browser's cookie: only a random binding.
    expect(cookie).not.toContain(url.searchParams.get('state'));
  });

  it('creates an account on first sign-in (books opened, welcome notice), and the same account next time', async () => {
    provider.addAccount('sub-newcomer', { email: 'Newcomer@Example.com', email_verified: true, name: 'N' });
    const first = await sessionOf(await socialLogin('sub-newcomer'));
    expect(first.userInfo.userName).toBe('newcomer');
    const newcomer = customerApi(server, first);
    const balances = await newcomer.call('getBalances', {}, { book: 'demo' });
    expect(balances.data).toMatchObject({
      book: 'demo',
      balances: expect.arrayContaining([
        expect.objectContaining({ asset: 'USDT', balance: '100000.000000' }),
      ]),
    });
    const notices = await newcomer.call('getNoticeList');
    expect(notices.data).toHaveLength(1);

    const second = await sessionOf(await socialLogin('sub-newcomer'));
    expect(second.userInfo).toEqual(first.userInfo);
    expect(second.token).not.toBe(first.token);
    // The verified email became the account's: registering it again is refused.
    const again = await anonymous.call('sendCode', { email: 'newcomer@example.com', purpose: 'register' });
    expect(again.code).toBe(10007);
  });

  it('makes a new account’s username unique', async () => {
    provider.addAccount('sub-sam-a', { email: 'sam@a.example', email_verified: true });
    provider.addAccount('sub-sam-b', { email: 'sam@b.example', email_verified: true });
    const a = await sessionOf(await socialLogin('sub-sam-a'));
    const b = await sessionOf(await socialLogin('sub-sam-b'));
    expect(a.userInfo.userName).toBe('sam');
    expect(b.userInfo.userName).toMatch(/^sam_\d{4,5}$/);
    expect(b.userInfo.id).not.toBe(a.userInfo.id);
  });

  it('refuses a state used once already (10028), and a state this browser did not start', async () => {
    provider.addAccount('sub-replay', { email: 'replay@example.com', email_verified: true });
    const jar = new CookieJar();
    const { url } = await start(jar);
    const callback = await signInAtProvider(url, 'sub-replay');
    await sessionOf(await finish(jar, callback));
    const replay = await finish(jar, callback);
    expect(replay.status).toBe(404);
    expect(replay.body.code).toBe(10028);

    // Someone else's callback (login CSRF): the victim's browser lacks the starting cookie.
    const attacker = new CookieJar();
    const started = await start(attacker);
    const stolen = await signInAtProvider(started.url, 'sub-replay');
    const victim = new CookieJar();
    await start(victim);
    expect((await finish(victim, stolen)).body.code).toBe(10028);
    // That try used the state up: the attacker's own browser cannot finish with it either.
    expect((await finish(attacker, stolen)).body.code).toBe(10028);
  });

  it('refuses an unknown state, a code with the state of another sign-in, and a wrong nonce', async () => {
    provider.addAccount('sub-mixer', { email: 'mixer@example.com', email_verified: true });
    const jar = new CookieJar();
    const first = await start(jar);
    const callback = await signInAtProvider(first.url, 'sub-mixer');

    const unknown = new URL(callback);
    unknown.searchParams.set('state', 'A'.repeat(43));
    expect((await finish(jar, unknown)).body.code).toBe(10028);

    // A second sign-in in the same browser: its state with the first one's code. The state is
    // genuine, but the code was issued for the first PKCE challenge, so the provider refuses it.
    const second = await start(jar);
    const swapped = new URL(callback);
    swapped.searchParams.set('state', new URL(second.url).searchParams.get('state') ?? '');
    const mixed = await finish(jar, swapped);
    expect(mixed.status).toBe(403);
    expect(mixed.body.code).toBe(10029);

    // The provider is asked for a nonce other than the one the server keeps: the ID token's
    // nonce does not match and the sign-in is refused.
    const third = await start(jar);
    const tampered = new URL(third.url);
    tampered.searchParams.set('nonce', 'x'.repeat(43));
    const refused = await finish(jar, await signInAtProvider(tampered.href, 'sub-mixer'));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(10029);
    // No account was made by any of these.
    expect((await anonymous.call('checkUserNameOrPhone', { userName: 'mixer' })).data).toEqual({
      available: true,
    });
  });

  it('never links on an unverified email: an existing password account is refused with 10007', async () => {
    const owner = await registerByApi(server, inbox, 'owner@example.com');
    provider.addAccount('sub-impostor', { email: 'owner@example.com', email_verified: false });
    const refused = await socialLogin('sub-impostor');
    expect(refused.body.code).toBe(10007);
    // Still not linked on a second try, and the owner's password still works.
    expect((await socialLogin('sub-impostor')).body.code).toBe(10007);
    const login = await anonymous.call('login', {
      userName: 'owner@example.com',
      password: 'long enough pw',
    });
    expect((login.data as Session).userInfo.id).toBe(owner.userInfo.id);
  });

  it('gives an unverified email with no account a new account that does not claim the address', async () => {
    provider.addAccount('sub-unverified', { email: 'unclaimed@example.com', email_verified: false });
    const session = await sessionOf(await socialLogin('sub-unverified'));
    expect(session.userInfo.userName).toBe('unclaimed');
    // The address stays free for whoever can receive mail at it.
    const sent = await anonymous.call('sendCode', { email: 'unclaimed@example.com', purpose: 'register' });
    expect(sent.code).toBe(200);
    expect((await sessionOf(await socialLogin('sub-unverified'))).userInfo).toEqual(session.userInfo);
  });

  it('links a verified email to the existing account, and asks for the second factor when 2FA is on', async () => {
    const owner = await registerByApi(server, inbox, 'linked@example.com');
    provider.addAccount('sub-linked', { email: 'Linked@Example.com', email_verified: true });
    const first = await sessionOf(await socialLogin('sub-linked'));
    expect(first.userInfo).toEqual(owner.userInfo);

    const ownerApi = customerApi(server, owner);
    const { secret } = await ownerApi.ok('setupTotp');
    const enabled = await ownerApi.call('enableTotp', { code: authenticatorCode(secret) });
    expect(enabled.code).toBe(200);

    const challenged = await socialLogin('sub-linked');
    expect(challenged.body.code).toBe(200);
    const { twoFactor, challenge, token } = challenged.body.data as {
      twoFactor?: boolean;
      challenge?: string;
      token?: string;
    };
    expect(twoFactor).toBe(true);
    expect(token).toBeUndefined();
    // The authenticator's code of the next step, as enabling used this step's already.
    const next = await anonymous.call('loginTotp', {
      challenge: challenge ?? '',
      code: authenticatorCode(secret, 1),
    });
    expect(next.code).toBe(200);
    expect(next.data.userInfo).toEqual(owner.userInfo);
  });
});
