import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the test provider: the claims it releases for the `email` and `profile` scopes. */
export type OidcAccount = { email?: string; email_verified?: boolean; name?: string };

export type TestClient = { clientId: string; clientSecret: string };
type Slot = 'google' | 'microsoft';

export type OidcProvider = {
  issuer: string;
  /** One client per provider slot of the server (google, microsoft), redirecting to its callback. */
  clients: Record<Slot, TestClient>;
  /** Adds (or replaces) a person who can sign in; the account id is the ID token's `sub`. */
  addAccount: (accountId: string, account: OidcAccount) => void;
  /** SOCIAL_* settings that point the server's provider slots (default both) at this provider. */
  serverEnv: (slots?: Slot[]) => Record<string, string>;
  close: () => Promise<void>;
};

/** A free TCP port on the loopback address, so a server's callback URL is known before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's own sign-in page: an account name and a button, nothing else. */
function loginPage(uid: string, error = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Test provider: sign in</title></head>
<body><main>
<h1>Test provider</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="login">Account</label>
<input id="login" name="login" autocomplete="username">
<button type="submit">Sign in</button>
</form>
</main></body>
</html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk.toString();
  return new URLSearchParams(text);
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 at a random port:
 * discovery, JWKS with a fresh RSA key, authorization code flow with PKCE, token and userinfo
 * endpoints, and one confidential client (client_secret_basic) per server slot whose redirect
 * URI is the server's /api/loginCallback/{slot} at `serverOrigin`. Sign-in is its own tiny page:
 * GET /interaction/{uid} shows an "Account" field; posting an account id logs that person in and
 * grants the requested scopes (no consent screen).
 */
export async function startOidcProvider(serverOrigin: string): Promise<OidcProvider> {
  const accounts = new Map<string, OidcAccount>();
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const client = (slot: string): TestClient => ({
    clientId: `swx-${slot}`,
    clientSecret: randomBytes(24).toString('base64url'),
  });
  const clients: Record<Slot, TestClient> = { google: client('google'), microsoft: client('microsoft') };
  const provider = new Provider(issuer, providerConfiguration(serverOrigin, clients, accounts));
  http.on('request', withSignInPage(provider, issuer, accounts));

  return {
    issuer,
    clients,
    addAccount: (accountId, account) => accounts.set(accountId, account),
    serverEnv: (slots = ['google', 'microsoft']) =>
      Object.fromEntries(
        slots.flatMap((slot) => {
          const env = slot.toUpperCase();
          const c = clients[slot];
          return [
            [`SOCIAL_${env}_ISSUER`, issuer],
            [`SOCIAL_${env}_CLIENT_ID`, c.clientId],
            [`SOCIAL_${env}_CLIENT_SECRET`, c.clientSecret],
          ];
        }),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The provider's settings: its clients, a fresh RSA signing key, PKCE, short lifetimes, our accounts. */
function providerConfiguration(
  serverOrigin: string,
  clients: Record<Slot, TestClient>,
  accounts: ReadonlyMap<string, OidcAccount>,
) {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  return {
    clients: Object.entries(clients).map(([slot, c]) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: [`${serverOrigin}/api/loginCallback/${slot}`],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [{ ...key, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
  };
}

/**
 * The provider's requests, its sign-in page before them: GET /interaction/{uid} shows the page;
 * posting a known account id to /interaction/{uid}/login signs that person in and grants the
 * requested scopes.
 */
function withSignInPage(
  provider: InstanceType<typeof Provider>,
  issuer: string,
  accounts: ReadonlyMap<string, OidcAccount>,
): (req: IncomingMessage, res: ServerResponse) => void {
  const callback = provider.callback();
  return (req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const interaction = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(path);
    if (!interaction) {
      callback(req, res);
      return;
    }
    const uid = interaction[1] ?? '';
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (!interaction[2] || req.method !== 'POST') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(uid));
          return;
        }
        const accountId = (await formBody(req)).get('login')?.trim() ?? '';
        if (!accounts.has(accountId)) {
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(loginPage(uid, 'No such account.'));
          return;
        }
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    })();
  };
}

/** Cookies by name, for following a provider's redirects by hand (paths are not told apart). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = attributes.some((a) => {
        const [k = '', v = ''] = a.trim().split('=');
        return (
          (k.toLowerCase() === 'max-age' && Number(v) <= 0) ||
          (k.toLowerCase() === 'expires' && Date.parse(v) < Date.now())
        );
      });
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * What a browser does at the provider, by HTTP: open the authorization URL, sign in as `account`
 * on the provider's page, follow the redirects, and stop at the redirect back to the server.
 * Answers that callback URL (with code, state and iss), or the provider's error redirect.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  account: string,
  jar = new CookieJar(),
): Promise<URL> {
  const providerOrigin = new URL(authorizationUrl).origin;
  let url = new URL(authorizationUrl);
  let init: RequestInit = {};
  for (let step = 0; step < 10; step++) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.store(response);
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (response.status === 200 && /^\/interaction\/[^/]+$/.test(url.pathname)) {
      url = new URL(`${url.pathname}/login`, providerOrigin);
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: account }).toString(),
      };
      continue;
    }
    if (!location) throw new Error(`the provider answered ${response.status} at ${url.pathname}`);
    const next = new URL(location, url);
    if (next.origin !== providerOrigin) return next;
    url = next;
    init = {};
  }
  throw new Error('too many redirects at the provider');
}
