import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { sendPush, type Vapid, vapidOf } from './pricealerts.push.ts';

/**
 * Web Push delivery against a real push endpoint: an HTTPS server started here receives the
 * request; the test checks the VAPID JWT's signature with the service's public key (RFC 8292) and
 * decrypts the aes128gcm payload (RFC 8188, RFC 8291) with the subscription's private key it made,
 * as a browser would. A 410 from the push service reports the subscription gone.
 */
type Received = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

const b64u = (buffer: Buffer) => buffer.toString('base64url');
let server: Server;
let agent: Agent;
let origin: string;
const received: Received[] = [];

beforeAll(async () => {
  // A self-signed certificate for 127.0.0.1 (the push service's TLS), trusted by this test's agent only.
  const dir = mkdtempSync(join(tmpdir(), 'swx-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(join(dir, 'cert.pem'));
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(request.url?.startsWith('/gone') ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = new Agent({ ca: cert });
});
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** A browser's subscription keys: a P-256 key pair and a 16-byte auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: b64u(ecdh.getPublicKey()), authText: b64u(auth) };
}

/** Checks the VAPID header: `vapid t=<ES256 JWT>, k=<public key>`; answers the JWT's claims. */
function vapidClaims(header: string, vapid: Vapid): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  expect(match).not.toBeNull();
  const [, jwt, k] = match as RegExpExecArray;
  expect(k).toBe(vapid.publicKey);
  const [head, claims, signature] = (jwt as string).split('.') as [string, string, string];
  expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const raw = Buffer.from(vapid.publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  const signed = Buffer.from(`${head}.${claims}`);
  const sig = Buffer.from(signature, 'base64url');
  expect(verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, sig)).toBe(true);
  // Any other message does not verify under that signature.
  expect(verify('sha256', Buffer.from(`${head}.x${claims}`), { key, dsaEncoding: 'ieee-p1363' }, sig)).toBe(
    false,
  );
  return JSON.parse(Buffer.from(claims, 'base64url').toString());
}

/** Decrypts one aes128gcm record (RFC 8188) with the keys RFC 8291 derives for the browser. */
function decrypt(body: Buffer, keys: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = keys.ecdh.computeSecret(serverPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, keys.auth, info, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record: the text, the delimiter 0x02, then zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  expect(plain[end]).toBe(2);
  return plain.subarray(0, end).toString('utf8');
}

describe('web push delivery', () => {
  const vapid: Vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:alerts@swx.test' };

  it('posts an encrypted, VAPID-signed notification the subscription can read', async () => {
    const keys = browserKeys();
    const payload = {
      title: 'Price alert: BTCUSDT',
      body: 'BTCUSDT rose to 91000.00',
      url: '/instrument?code=BTCUSDT',
      tag: 'price-alert-7',
    };
    const outcome = await sendPush(
      vapid,
      { endpoint: `${origin}/push/abc`, p256dh: keys.p256dh, auth: keys.authText },
      payload,
      agent,
    );
    expect(outcome).toBe('sent');
    const request = received.at(-1) as Received;
    expect(request.path).toBe('/push/abc');
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    const claims = vapidClaims(String(request.headers.authorization), vapid);
    expect(claims.aud).toBe(origin);
    expect(claims.sub).toBe(vapid.subject);
    expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000);
    expect(JSON.parse(decrypt(request.body, keys))).toEqual(payload);
  });

  it('reports a subscription the push service no longer knows (410) as gone', async () => {
    const keys = browserKeys();
    const outcome = await sendPush(
      vapid,
      { endpoint: `${origin}/gone/xyz`, p256dh: keys.p256dh, auth: keys.authText },
      { title: 't', body: 'b', url: '/', tag: 'x' },
      agent,
    );
    expect(outcome).toBe('gone');
  });

  it('is off without VAPID settings and refuses some but not all of them', () => {
    expect(vapidOf(undefined)).toBeNull();
    expect(vapidOf({})).toBeNull();
    expect(() => vapidOf({ publicKey: vapid.publicKey })).toThrow(/all three/);
    expect(vapidOf(vapid)).toEqual(vapid);
  });
});
