import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { ADMIN_API_BASE, adminCalls, type CallDefinition, CUSTOMER_API_BASE, calls } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerByApi, type Session } from '../support/accounts.ts';
import { api, type RunningServer, startServer } from '../support/server.ts';
import { smsCodeFor } from '../support/sms.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';

const C = CUSTOMER_API_BASE;
type Envelope = { code: number; msg: string; data: unknown };

/** Sends raw bytes on a fresh connection and returns all the server wrote before closing. */
function rawHttp(port: number, data: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    let out = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      out = Buffer.concat([out, chunk]);
    });
    socket.on('close', () => resolve(out.toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

/** A raw answer split into status, lower-cased headers and the parsed envelope. */
function parseRaw(raw: string): { status: number; headers: Record<string, string>; body: Envelope } {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = rest.join('\r\n\r\n');
  // A chunked answer: the envelope is the one chunk between the size line and the terminator.
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = body.split('\r\n')[1] ?? '';
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as Envelope };
}

/** The security headers of platform/security.ts, on an answer of any kind. */
function expectSecurityHeaders(get: (name: string) => string | null | undefined): void {
  expect(get('content-security-policy')).toContain("default-src 'self'");
  expect(get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(get('x-frame-options')).toBe('DENY');
  expect(get('strict-transport-security')).toContain('max-age=');
  expect(get('referrer-policy')).toBe('no-referrer');
}

const shapeOf = (schema: unknown): Record<string, unknown> =>
  ((schema as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape ??
    {}) as Record<string, unknown>;

/** One server for the whole file (a server start is the slow part): addresses by X-Forwarded-For. */
let server: RunningServer;
let inbox: Inbox;
const REFUSED = 'private.person.h@example.com';

beforeAll(async () => {
  inbox = await startInbox({ refuse: (address) => address === REFUSED });
  server = await startServer(
    { SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, TRUST_PROXY: 'true', LOG_LEVEL: 'info' },
    { startTimeoutMs: 200_000 },
  );
}, 240_000);
afterAll(async () => {
  await server?.stop();
  await inbox?.close();
});

describe('hardening over HTTP: control characters, framework errors, ids, books, websocket origin', () => {
  let alice: Session;
  let address = 0;
  /** A new client address per call (TRUST_PROXY), so the per-address API limit never interferes. */
  const nextAddress = () => `198.51.100.${(address++ % 250) + 1}`;

  beforeAll(async () => {
    alice = await registerByApi(server, inbox, 'alice.hardening@example.com');
  });

  const request = (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    api(server.baseUrl, path, {
      ...init,
      headers: { 'x-forwarded-for': nextAddress(), ...(init.headers ?? {}) },
    });

  it('answers 10026 (HTTP 400, envelope, security headers) to a control character in any string input of every call', {
    timeout: 180_000,
  }, async () => {
    const attacks = [
      'a\u0000b',
      'tab\there',
      'new\nline',
      'bell\u0007',
      'del\u007f',
      'c1\u0085',
      'lone\ud800',
    ];
    const tried: string[] = [];
    for (const [name, definition] of Object.entries(calls as Record<string, CallDefinition>)) {
      if (definition.status !== 'live') continue;
      const headers: Record<string, string> = { authorization: alice.token };
      const params = shapeOf(definition.params);
      // Valid path parameters, so each check below reaches the part it attacks.
      const valid: Record<string, string> = {
        provider: 'google',
        purpose: 'kyc_front',
        key: 'siteName',
        id: '1',
        x: '0',
        type: definition.path.includes(':x') ? '4' : '1',
      };
      const fill = (bad: string | null) =>
        definition.path.replace(/:([A-Za-z]+)/g, (_, key: string) =>
          encodeURIComponent(bad !== null && key === Object.keys(params)[0] ? bad : (valid[key] ?? '1')),
        );
      const central = (data: unknown) =>
        expect(data).toEqual([{ path: expect.any(String), issue: 'control_character' }]);
      const attack = attacks[tried.length % attacks.length] as string;
      // A lone surrogate cannot be percent-encoded; URLs get the NUL instead.
      const urlAttack = attack.includes('\ud800') ? 'a\u0000b' : attack;
      // Path parameters.
      if (Object.keys(params).length > 0) {
        const r = await request(C + fill(urlAttack), { method: definition.method, headers });
        expect([name, r.status, r.body.code]).toEqual([name, 400, 10026]);
        central(r.body.data);
        tried.push(`${name}:path`);
      }
      // Query strings.
      for (const key of Object.keys(shapeOf(definition.query))) {
        const r = await request(`${C + fill(null)}?${key}=${encodeURIComponent(urlAttack)}`, {
          method: definition.method,
          headers,
        });
        expect([name, key, r.status, r.body.code]).toEqual([name, key, 400, 10026]);
        central(r.body.data);
        expectSecurityHeaders((h) => r.headers.get(h));
        tried.push(`${name}:query.${key}`);
      }
      // Bodies: each top-level field, and a field the call does not know.
      if (definition.method === 'POST') {
        for (const key of [...Object.keys(shapeOf(definition.body)), 'unknownField']) {
          const r = await request(C + fill(null), {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ [key]: attack }),
          });
          expect([name, key, r.status, r.body.code]).toEqual([name, key, 400, 10026]);
          central(r.body.data);
          expect(JSON.stringify(r.body)).not.toContain(JSON.stringify(attack).slice(1, -1));
          tried.push(`${name}:body.${key}`);
        }
      }
    }
    // Every kind was tried, across many calls.
    expect(tried.some((t) => t.endsWith(':path'))).toBe(true);
    expect(tried.some((t) => t.includes(':query.'))).toBe(true);
    expect(tried.filter((t) => t.includes(':body.')).length).toBeGreaterThan(40);

    // Nested values and keys, arrays, and the staff API alike.
    for (const body of [
      { userName: 'someone', password: ['ok', 'x\u0000'] },
      { userName: 'someone', password: 'long enough pw', extra: { deep: { deeper: 'x\u0000' } } },
      { userName: 'someone', password: 'long enough pw', 'k\u0000ey': 1 },
    ]) {
      const r = await request(`${C}/login/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect([r.status, r.body.code]).toEqual([400, 10026]);
    }
    const r = await request(ADMIN_API_BASE + adminCalls.signIn.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'staff\u0000@example.com', password: 'x' }),
    });
    expect([r.status, r.body.code]).toEqual([400, 10026]);
  });

  it('answers 10026 to a control character in a header the app reads, never a 500', async () => {
    const headerAttacks: [string, Buffer][] = [
      ['User-Agent', Buffer.from([0x61, 0x85, 0x62])], // a C1 control as the parser hands it over
      ['User-Agent', Buffer.from('a\tb')],
      ['Accept-Language', Buffer.from('en\tde')],
      ['virtually', Buffer.from('Y\tES')], // (edge whitespace is trimmed by the parser)
      ['Cookie', Buffer.from([0x73, 0x3d, 0x9b])],
    ];
    for (const [name, value] of headerAttacks) {
      const raw = await rawHttp(
        server.port,
        Buffer.concat([
          Buffer.from(
            `GET ${C}/user/getUserInfo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${name}: `,
          ),
          value,
          Buffer.from('\r\n\r\n'),
        ]),
      );
      const answer = parseRaw(raw);
      expect([name, answer.status, answer.body.code]).toEqual([name, 400, 10026]);
      expectSecurityHeaders((h) => answer.headers[h]);
    }
  });

  it('answers framework errors with the envelope and the security headers, echoing nothing', async () => {
    const marker = `zq${randomUUID().replaceAll('-', '')}`;
    const raws: [string, string | Buffer, number][] = [
      ['malformed request line', `${marker} ${marker}\r\n\r\n`, 400],
      ['malformed header', `GET / HTTP/1.1\r\nHost: x\r\n${marker}\r\n\r\n`, 400],
      ['NUL in a header', `GET / HTTP/1.1\r\nHost: x\r\nX-${marker}: a\u0000b\r\n\r\n`, 400],
      ['bad HTTP version', `GET /${marker} HTTP/9.7\r\nHost: x\r\n\r\n`, 400],
      [
        'URL beyond the header limit',
        `GET /swx/${marker}${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        431,
      ],
      [
        'malformed URL encoding',
        `GET ${C}/%zz${marker}%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        400,
      ],
      [
        'path parameter too long',
        `GET ${C}/order/getOptionsOrderById/${'9'.repeat(150)}${marker} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        400, // Fastify's maxParamLength (100): FST_ERR_MAX_PARAM_LENGTH, a framework error
      ],
      ['unknown API path', `GET ${C}/${marker} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 404],
      [
        'long URL under the limit',
        `GET ${C}/${marker}/${'b'.repeat(9000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        404,
      ],
    ];
    for (const [what, data, status] of raws) {
      const raw = await rawHttp(server.port, data);
      expect(raw, what).not.toContain(marker);
      const answer = parseRaw(raw);
      expect([what, answer.status]).toEqual([what, status]);
      expect(answer.body.code, what).toBe(status === 404 ? 10028 : 10026);
      expect(typeof answer.body.msg).toBe('string');
      expectSecurityHeaders((h) => answer.headers[h]);
    }

    const bodies: [string, Record<string, string>, string][] = [
      ['bad JSON', { 'content-type': 'application/json' }, `{"userName": "${marker}`],
      ['unsupported media type', { 'content-type': 'text/x-marker' }, marker],
      [
        'body too large',
        { 'content-type': 'application/json' },
        JSON.stringify({ userName: marker, pad: 'x'.repeat(1_100_000) }),
      ],
    ];
    for (const [what, headers, body] of bodies) {
      const response = await fetch(`${server.baseUrl}${C}/login/login`, {
        method: 'POST',
        headers: { ...headers, 'x-forwarded-for': nextAddress(), 'accept-language': 'fr' },
        body,
      });
      const text = await response.text();
      expect(text, what).not.toContain(marker);
      expect([what, response.status, (JSON.parse(text) as Envelope).code]).toEqual([what, 400, 10026]);
      expect((JSON.parse(text) as Envelope).msg).toMatch(/valide/); // the request's language
      expectSecurityHeaders((h) => response.headers.get(h));
    }
  });

  it('accepts decimal digits only as path ids', async () => {
    for (const id of [
      '1e3',
      ' 1',
      '0x10',
      '+1',
      '1.0',
      '-1',
      '0',
      '99999999999999999999',
      '9007199254740992',
      '1 ',
    ]) {
      for (const path of [
        `/order/getOptionsOrderById/${encodeURIComponent(id)}`,
        `/index/getContentsById/${encodeURIComponent(id)}`,
      ]) {
        const r = await request(C + path, { headers: { authorization: alice.token } });
        expect([path, r.status, r.body.code]).toEqual([path, 400, 10026]);
      }
    }
    const digits = await request(`${C}/order/getOptionsOrderById/9007199254740991`, {
      headers: { authorization: alice.token },
    });
    expect(digits.body.code).toBe(10028);
    const notice = await request(`${C}/user/readNotice?noticeId=1e3`, {
      headers: { authorization: alice.token },
    });
    expect(notice.body.code).toBe(10026);
  });

  it('scopes every read and change of a position to the request’s book', async () => {
    const crypto = await request(`${C}/index/listMarketByType?type=2`);
    const btc = (crypto.body.data as { id: number; code: string }[]).find((i) => i.code === 'BTCUSDT');
    const ticket = { marketId: btc?.id, direction: 'long', lots: '0.05', leverage: 2, autoCloseAfter: null };
    const post = (path: string, body: unknown, book: 'YES' | 'NO') =>
      request(C + path, {
        method: 'POST',
        headers: { authorization: alice.token, virtually: book, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const first = await post(
      '/order/previewOptions',
      { ...ticket, stopLoss: '1.00', takeProfit: '1.00' },
      'NO',
    );
    const bid = (first.body.data as { bid: string }).bid;
    const scaled = (percent: bigint) => {
      const [whole = '0', fraction = ''] = bid.split('.');
      const ticks = (BigInt(whole + fraction) * percent) / 100n;
      const text = ticks.toString().padStart(fraction.length + 1, '0');
      return fraction ? `${text.slice(0, -fraction.length)}.${text.slice(-fraction.length)}` : text;
    };
    const stops = { stopLoss: scaled(90n), takeProfit: scaled(110n) };
    const preview = await post('/order/previewOptions', { ...ticket, ...stops }, 'NO');
    const requestId = randomUUID();
    const opened = await post(
      '/order/buyOptions',
      { ...ticket, ...stops, quoteId: (preview.body.data as { quoteId: string }).quoteId, requestId },
      'NO',
    );
    expect(opened.body.code).toBe(200);
    const id = (opened.body.data as { id: number }).id;

    // The demo position with the live header: nothing, for every read and change.
    const live = { authorization: alice.token, virtually: 'YES' };
    expect((await request(`${C}/order/getOptionsOrderById/${id}`, { headers: live })).body.code).toBe(10028);
    expect((await post('/order/updateOptions', { id, ...stops }, 'YES')).body.code).toBe(10028);
    expect((await post('/order/closeOptions', { id }, 'YES')).body.code).toBe(10028);
    const liveList = await request(`${C}/order/listOptionsOrder`, { headers: live });
    expect(liveList.body.data).toMatchObject({ total: 0, items: [] });
    // The same request id sent to the live book does not answer with the demo order: neither with
    // the demo quote (not the live book's) nor with a live one.
    const livePreview = await post('/order/previewOptions', { ...ticket, ...stops }, 'YES');
    for (const quoteId of [
      (preview.body.data as { quoteId: string }).quoteId,
      (livePreview.body.data as { quoteId: string }).quoteId,
    ]) {
      const replay = await post('/order/buyOptions', { ...ticket, ...stops, quoteId, requestId }, 'YES');
      expect(replay.body.code).not.toBe(200);
      expect(JSON.stringify(replay.body)).not.toContain(`"id":${id}`);
    }

    // With its own book's header it is there, still open.
    const demo = { authorization: alice.token, virtually: 'NO' };
    const own = await request(`${C}/order/getOptionsOrderById/${id}`, { headers: demo });
    expect(own.body).toMatchObject({ code: 200, data: { id, status: 'open' } });
    expect((await post('/order/closeOptions', { id }, 'NO')).body).toMatchObject({
      code: 200,
      data: { id, status: 'closed' },
    });
  });

  it('refuses a foreign Origin on /message; the CSP connects to this origin only', async () => {
    const handshake = (headers: Record<string, string>) =>
      new Promise<{ open: boolean; status?: number; body?: string; csp?: string }>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${server.port}/message`, { headers });
        socket.on('open', () => {
          socket.close();
          resolve({ open: true });
        });
        socket.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString();
          });
          res.on('end', () =>
            resolve({
              open: false,
              status: res.statusCode,
              body,
              csp: String(res.headers['content-security-policy']),
            }),
          );
        });
        socket.on('error', () => resolve({ open: false }));
      });
    expect((await handshake({})).open).toBe(true); // no Origin: not a browser page
    expect((await handshake({ origin: `http://127.0.0.1:${server.port}` })).open).toBe(true);
    for (const origin of [
      'https://evil.example',
      'null',
      `http://127.0.0.1:${server.port + 1}`,
      'http://127.0.0.1',
    ]) {
      const refused = await handshake({ origin });
      expect([origin, refused.open, refused.status]).toEqual([origin, false, 403]);
      expect(JSON.parse(refused.body ?? '{}')).toMatchObject({ code: 10029 });
      expect(refused.csp).toContain("default-src 'self'");
    }

    const page = await fetch(`${server.baseUrl}/`);
    const csp = page.headers.get('content-security-policy') ?? '';
    const connect = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));
    expect(connect).toBe(`connect-src 'self' ws://127.0.0.1:${server.port}`);
    // A Host header that is not a plain host adds nothing to the policy.
    const odd = parseRaw(
      await rawHttp(
        server.port,
        `GET ${C}/index/getIndexData HTTP/1.1\r\nHost: evil.example;x\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(odd.headers['content-security-policy']).toContain("connect-src 'self';");
    expect(odd.headers['content-security-policy']).not.toContain('evil');
  });
});

describe('sign-in limits that cannot be turned against the owner', () => {
  const login = (body: Record<string, string>, from: string, cookie?: string, language = 'en') =>
    api(server.baseUrl, `${C}/login/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': from,
        'accept-language': language,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    });
  const deviceCookie = (headers: Headers) =>
    headers
      .getSetCookie()
      .find((c) => c.startsWith('swx_device='))
      ?.split(';')[0];

  it('keeps the owner’s known device signing in while an attacker fails from other addresses; names count as one account', {
    timeout: 180_000,
  }, async () => {
    const email = 'owner.h@example.com';
    const password = 'the owner passphrase';
    const sent = await api(server.baseUrl, `${C}/login/sendCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
      body: JSON.stringify({ email, purpose: 'register' }),
    });
    expect(sent.body.code).toBe(200);
    const registered = await api(server.baseUrl, `${C}/login/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
      body: JSON.stringify({
        userName: 'owner_h',
        email,
        password,
        password2: password,
        code: await inbox.codeFor(email),
      }),
    });
    expect(registered.body.code).toBe(200);
    // The owner signs in on a phone: it gets a device cookie, HttpOnly and SameSite=Strict.
    const first = await login({ userName: 'owner_h', password }, '203.0.113.10');
    expect(first.body.code).toBe(200);
    const setCookie = first.headers.getSetCookie().find((c) => c.startsWith('swx_device=')) ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/swx\/customer\/login\//);
    const phone = deviceCookie(first.headers) as string;

    // Attacker 1 names the account by username: ten wrong passwords, then its address is stopped,
    // even with the right password.
    const one: number[] = [];
    for (let i = 0; i < 11; i++)
      one.push((await login({ userName: 'owner_h', password: `guess ${i}` }, '192.0.2.1')).body.code);
    expect(one).toEqual([...Array(10).fill(10004), 10027]);
    expect((await login({ userName: 'owner_h', password }, '192.0.2.1')).body.code).toBe(10027);
    // Attacker 2, another address, names it by email (upper case): nine more wrong passwords.
    const two: number[] = [];
    for (let i = 0; i < 9; i++)
      two.push(
        (await login({ userName: email.toUpperCase(), password: `other ${i}` }, '192.0.2.2')).body.code,
      );
    expect(two).toEqual(Array(9).fill(10004));

    // Twenty attempts from unknown devices (the phone's first sign-in, then nineteen guesses) under
    // two names: a new device of the owner waits, told so in its language. The names count as one
    // account: by username alone it is at eleven, by email at nine.
    const fresh = await login({ userName: 'owner_h', password }, '203.0.113.20', undefined, 'de');
    expect(fresh.status).toBe(429);
    expect(fresh.body.code).toBe(10027);
    expect(fresh.body.msg).toMatch(/warten/);
    expect((fresh.body.data as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    // The owner's phone still signs in — from its usual address and from another, by either name.
    const known = await login({ userName: 'owner_h', password }, '203.0.113.10', phone);
    expect(known.body.code).toBe(200);
    expect((known.body.data as { token: string }).token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await login({ userName: email, password }, '198.18.0.7', phone)).body.code).toBe(200);
    // The device keeps its name: the renewed cookie is the same device.
    expect(deviceCookie(known.headers)).toBe(phone);

    // A forged device cookie (another nonce under the same mac) is no exemption.
    const [cookieName, userId, nonce, mac] = phone.split(/[=.]/);
    const forged = `${cookieName}=${userId}.${nonce?.startsWith('A') ? 'B' : 'A'}${nonce?.slice(1)}.${mac}`;
    expect((await login({ userName: 'owner_h', password }, '203.0.113.21', forged)).body.code).toBe(10027);

    // The known device is limited on its own: ten attempts (two sign-ins above, eight typos here),
    // whatever the addresses.
    const device: number[] = [];
    for (let i = 0; i < 8; i++)
      device.push(
        (await login({ userName: 'owner_h', password: `typo ${i}` }, `198.18.1.${i + 1}`, phone)).body.code,
      );
    expect(device).toEqual(Array(8).fill(10004));
    expect((await login({ userName: 'owner_h', password }, '198.18.2.1', phone)).body.code).toBe(10027);
  });

  it('counts a phone account once whether it is named by area code and number or by E.164', {
    timeout: 180_000,
  }, async () => {
    const password = 'phone owner passphrase';
    const sms = await api(server.baseUrl, `${C}/login/sendSmsCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
      body: JSON.stringify({ areaCode: '+44', phone: '07700900456', purpose: 'register' }),
    });
    expect(sms.body.code).toBe(200);
    const registered = await api(server.baseUrl, `${C}/login/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
      body: JSON.stringify({
        areaCode: '+44',
        phone: '07700900456',
        password,
        password2: password,
        code: await smsCodeFor(server.dataDir, '+447700900456'),
      }),
    });
    expect(registered.body.code).toBe(200);
    const known = deviceCookie(registered.headers) as string; // the registering device is known
    for (let i = 0; i < 10; i++)
      expect(
        (await login({ areaCode: '+44', phone: '7700900456', password: `x ${i}` }, '192.0.2.30')).body.code,
      ).toBe(10004);
    for (let i = 0; i < 10; i++)
      expect((await login({ userName: '+447700900456', password: `y ${i}` }, '192.0.2.31')).body.code).toBe(
        10004,
      );
    expect((await login({ areaCode: '+44', phone: '07700900456', password }, '203.0.113.51')).body.code).toBe(
      10027,
    );
    expect((await login({ userName: '+447700900456', password }, '203.0.113.52', known)).body.code).toBe(200);
  });
});

describe('error logs hold no personal data', () => {
  it('keeps emails, phone numbers, query strings, passwords and tokens out of the log when a request fails', async () => {
    // The mail server refuses this recipient and quotes the address in its refusal.
    const sent = await api(server.baseUrl, `${C}/login/sendCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.9.1' },
      body: JSON.stringify({ email: REFUSED, purpose: 'register' }),
    });
    expect(sent.body.code).toBe(10030);
    await api(server.baseUrl, `${C}/login/checkUserNameOrPhone?areaCode=%2B44&phone=7700900789`, {
      headers: { 'x-forwarded-for': '198.18.9.2' },
    });
    await api(server.baseUrl, `${C}/login/checkUserNameOrPhone?userName=${encodeURIComponent(REFUSED)}`, {
      headers: { 'x-forwarded-for': '198.18.9.3' },
    });
    await api(server.baseUrl, `${C}/login/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'a'.repeat(43),
        'x-forwarded-for': '198.18.9.4',
      },
      body: JSON.stringify({ userName: REFUSED, password: 'secret passphrase h' }),
    });
    // The refusal was logged as an error (so this test reads a real error line) …
    await expect.poll(() => /SMTP refused a message/.test(server.output())).toBe(true);
    const log = server.output();
    expect(log).toMatch(/"level":50.*request failed/);
    // … and nothing personal is in the log: not the refused address, nor any address or number
    // used in this file, nor a password, a token, or a digest (a code hash is 64 hex digits).
    for (const secret of [
      REFUSED,
      'private.person',
      'alice.hardening@example.com',
      'owner.h@example.com',
      '7700900789',
      '7700900456',
      'secret passphrase h',
      'the owner passphrase',
      'a'.repeat(43),
    ])
      expect(log.toLowerCase(), secret).not.toContain(secret);
    expect(log).not.toMatch(/[a-f0-9]{64}/);
    expect(log).not.toMatch(/swx_device=/);
  });
});
