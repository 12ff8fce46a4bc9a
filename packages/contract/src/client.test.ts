/// <reference types="node" />
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  ApiFailure,
  createApiClient,
  fillPath,
  NETWORK_FAILURE,
  TIMED_OUT,
  toQueryString,
} from './client.ts';
import { Code } from './codes.ts';

describe('GET parameters (spec §7)', () => {
  it('repeats the key for arrays and skips undefined', () => {
    expect(toQueryString({ id: [1, 2], type: 2, skip: undefined })).toBe('?id=1&id=2&type=2');
    expect(toQueryString({})).toBe('');
  });

  it('fills path parameters, encoded', () => {
    expect(fillPath('/user/:id/photo/:name', { id: 7, name: 'a b/c' })).toBe('/user/7/photo/a%20b%2Fc');
  });
});

const calls = {
  echo: { method: 'POST', path: '/echo/:id', data: z.object({ id: z.string(), body: z.unknown() }) },
  refuse: { method: 'GET', path: '/refuse', data: z.null() },
  expire: { method: 'GET', path: '/expire', data: z.null() },
  shapeless: { method: 'GET', path: '/shapeless', data: z.object({ n: z.int() }) },
  submitted: { method: 'GET', path: '/submitted', data: z.null() },
  item: { method: 'GET', path: '/item/:id', data: z.object({ id: z.string() }) },
} as const;

type Seen = { url: string; headers: IncomingMessage['headers']; body: string };

/** A real HTTP server on loopback answering envelopes as the API does. */
let server: Server;
let base = '';
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      const answer = (status: number, envelope: unknown, type = 'application/json') => {
        response.writeHead(status, { 'content-type': type });
        response.end(typeof envelope === 'string' ? envelope : JSON.stringify(envelope));
      };
      const path = (request.url ?? '').replace(/^\/api/, '').replace(/\?.*$/, '');
      if (path.startsWith('/echo/'))
        answer(200, { code: 200, msg: 'ok', data: { id: path.slice(6), body: JSON.parse(body) } });
      else if (path.startsWith('/item/')) answer(200, { code: 200, msg: 'ok', data: { id: path.slice(6) } });
      else if (path === '/refuse')
        answer(400, { code: 10026, msg: 'Bad input', data: [{ path: 'email', issue: 'invalid_format' }] });
      else if (path === '/expire') answer(401, { code: 401, msg: 'Session over', data: null });
      else if (path === '/shapeless') answer(200, { code: 200, msg: 'ok', data: { n: 'x' } });
      else if (path === '/submitted') answer(200, { code: 20001, msg: 'Submitted', data: null });
      else if (path === '/file.csv') answer(200, 'a,b\n', 'text/csv; charset=utf-8');
      else answer(404, 'no');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

function client(expired: unknown[] = []) {
  return createApiClient({
    base,
    calls,
    headers: () => ({ 'accept-language': 'de-DE', authorization: 'token-1' }),
    onSessionExpired: (call) => expired.push(call),
    text: { network: () => 'offline', error: () => 'failed' },
  });
}

describe('the shared API client', () => {
  it('sends the app headers and a JSON body, fills the path and parses the data', async () => {
    const data = await client().call('echo', { params: { id: '42' }, query: { q: [1, 2] }, body: { a: 1 } });
    expect(data).toEqual({ id: '42', body: { a: 1 } });
    const request = seen.at(-1);
    expect(request?.url).toBe('/api/echo/42?q=1&q=2');
    expect(request?.headers['accept-language']).toBe('de-DE');
    expect(request?.headers.authorization).toBe('token-1');
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('sends an empty JSON object for a POST without a body', async () => {
    expect(await client().call('echo', { params: { id: '1' } })).toEqual({ id: '1', body: {} });
  });

  it('rejects a refusal with its code, message and data (10026: the field issues)', async () => {
    const failure = await client()
      .call('refuse')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({
      code: Code.INVALID_INPUT,
      message: 'Bad input',
      data: [{ path: 'email', issue: 'invalid_format' }],
    });
  });

  it('takes the 20001-20005 codes as successes', async () => {
    expect(await client().call('submitted')).toBeNull();
  });

  it('ends the session on a 401, naming the call, with the server message', async () => {
    const expired: unknown[] = [];
    const failure = await client(expired)
      .call('expire')
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: Code.SESSION_EXPIRED, message: 'Session over' });
    expect(expired).toEqual(['expire']);
  });

  it('refuses data that does not match the contract', async () => {
    const failure = await client()
      .call('shapeless')
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: Code.UNKNOWN_ERROR, message: 'failed' });
  });

  it('says so when the server cannot be reached', async () => {
    const offline = createApiClient({
      base: 'http://127.0.0.1:9/api',
      calls,
      headers: () => ({}),
      onSessionExpired: () => undefined,
      text: { network: () => 'offline', error: () => 'failed' },
    });
    const failure = await offline.call('refuse').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: NETWORK_FAILURE, message: 'offline' });
  });

  it('fetches a file of an accepted type, and refuses another', async () => {
    const blob = await client().file('/file.csv', { accepts: (type) => type.startsWith('text/csv') });
    expect(await blob.text()).toBe('a,b\n');
    const refused = await client()
      .file('/file.csv', { accepts: (type) => type.startsWith('image/') })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: Code.UNKNOWN_ERROR, message: 'failed' });
  });
});

describe('calls whose schemas load when first needed', () => {
  const routes = {
    echo: ['POST', '/echo/:id'],
    refuse: ['GET', '/refuse'],
    expire: ['GET', '/expire'],
    shapeless: ['GET', '/shapeless'],
    submitted: ['GET', '/submitted'],
    item: ['GET', '/item/:id'],
  } as const;

  /** A client whose loader waits for `release`, noting what it was asked for. */
  function lazyClient(release: Promise<void>, asked: string[], fail = false) {
    return createApiClient<typeof calls>({
      base,
      calls: {
        routes,
        load: async (name) => {
          asked.push(name);
          await release;
          if (fail) throw new TypeError('Failed to fetch dynamically imported module');
          return calls[name];
        },
      },
      headers: () => ({}),
      onSessionExpired: () => undefined,
      text: { network: () => 'offline', error: () => 'failed' },
    });
  }

  it('sends a GET by its route while the schemas load, then parses with them', async () => {
    let release: () => void = () => undefined;
    const loaded = new Promise<void>((done) => {
      release = done;
    });
    const asked: string[] = [];
    const before = seen.length;
    const pending = lazyClient(loaded, asked).call('item', { params: { id: '9' } });
    // The request reaches the server before the definition has loaded.
    await expect.poll(() => seen.length).toBe(before + 1);
    expect(seen.at(-1)?.url).toBe('/api/item/9');
    expect(asked).toEqual(['item']);
    release();
    expect(await pending).toEqual({ id: '9' });
  });

  it('still refuses data that does not match the loaded schema', async () => {
    const failure = await lazyClient(Promise.resolve(), [])
      .call('shapeless')
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: Code.UNKNOWN_ERROR, message: 'failed' });
  });

  it('reads an answer received by other means with the loaded schema', async () => {
    const client = lazyClient(Promise.resolve(), []);
    expect(await client.answerOf('submitted', 200, { code: 20001, msg: 'Submitted', data: null })).toBeNull();
    await expect(client.answerOf('shapeless', 200, { code: 200, data: { n: 'x' } })).rejects.toMatchObject({
      code: Code.UNKNOWN_ERROR,
    });
    expect(client.urlOf('echo', { id: 3 })).toBe(`${base}/echo/3`);
  });

  it('says the network failed when the schemas cannot load (offline, a new release)', async () => {
    const failure = await lazyClient(Promise.resolve(), [], true)
      .call('submitted')
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: NETWORK_FAILURE, message: 'offline' });
  });

  it('sends a POST only once its schemas have loaded, so a failure to load them changes nothing', async () => {
    const before = seen.length;
    const failure = await lazyClient(Promise.resolve(), [], true)
      .call('echo', { params: { id: '5' }, body: { order: 1 } })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: NETWORK_FAILURE, message: 'offline' });
    expect(seen.length).toBe(before);
  });
});

describe('a GET the page already sent (the customer app sends its first screen’s call before it runs)', () => {
  /** A client whose `sent` hook is asked about every request; it holds `already` for one URL. */
  function hooked(already: { url: string; response: Promise<Response> } | null, asked: unknown[]) {
    return createApiClient({
      base,
      calls,
      headers: () => ({ 'accept-language': 'ar', authorization: 'token-2' }),
      sent: (url, headers) => {
        asked.push({ url, headers });
        return already && url === already.url ? already.response : undefined;
      },
      onSessionExpired: () => undefined,
      text: { network: () => 'offline', error: () => 'failed' },
    });
  }

  it('takes its answer instead of sending the GET again, asked with the URL and headers it would send', async () => {
    const url = `${base}/item/7`;
    const response = fetch(url);
    await expect.poll(() => seen.at(-1)?.url).toBe('/api/item/7');
    const before = seen.length;
    const asked: unknown[] = [];
    expect(await hooked({ url, response }, asked).call('item', { params: { id: '7' } })).toEqual({ id: '7' });
    expect(seen.length).toBe(before);
    expect(asked).toEqual([
      { url, headers: { accept: 'application/json', 'accept-language': 'ar', authorization: 'token-2' } },
    ]);
  });

  it('sends any other GET itself, and never asks about a POST', async () => {
    const asked: unknown[] = [];
    const client = hooked({ url: `${base}/item/7`, response: fetch(`${base}/item/7`) }, asked);
    const before = seen.length;
    expect(await client.call('item', { params: { id: '8' } })).toEqual({ id: '8' });
    expect(await client.call('echo', { params: { id: '8' }, body: { a: 1 } })).toEqual({
      id: '8',
      body: { a: 1 },
    });
    await expect.poll(() => seen.slice(before).map((request) => request.url)).toContain('/api/echo/8');
    expect(seen.slice(before).map((request) => request.url)).toContain('/api/item/8');
    expect(asked).toEqual([expect.objectContaining({ url: `${base}/item/8` })]);
  });

  it('applies the envelope rules to its answer, and a request that got none is the usual failure', async () => {
    const refused = hooked({ url: `${base}/refuse`, response: fetch(`${base}/refuse`) }, []);
    await expect(refused.call('refuse')).rejects.toMatchObject({ code: Code.INVALID_INPUT });
    const offline = hooked(
      { url: `${base}/refuse`, response: Promise.reject(new TypeError('Failed to fetch')) },
      [],
    );
    await expect(offline.call('refuse')).rejects.toMatchObject({ code: NETWORK_FAILURE, message: 'offline' });
    const late = hooked(
      { url: `${base}/refuse`, response: Promise.reject(new DOMException('late', 'TimeoutError')) },
      [],
    );
    await expect(late.call('refuse')).rejects.toMatchObject({ code: TIMED_OUT, message: 'offline' });
  });
});
