import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UPLOAD_PURPOSES, uploadFileUrl } from '@swx/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { appended, hasGps, jp2Image, jpegWithGps, oversizePng, pngImage, zipOf } from '../support/images.ts';
import { api, type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';
import { storedFiles, uploadByApi, uploadedId, uploadKycPhotos } from '../support/uploads.ts';

const auth = (token: string) => ({ authorization: token });
const MB = 1024 * 1024;

/** The attacks of DESIGN §3 Files, tried over HTTP against a real server process. */
describe('uploads over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let dataDir: string;
  const staff: Record<string, string> = {};
  let alice: Session;
  let bob: Session;

  beforeAll(async () => {
    inbox = await startInbox();
    dataDir = mkdtempSync(join(tmpdir(), 'swx-it-uploads-'));
    const passwords = {
      compliance: createStaffByCli(dataDir, 'compliance@swx.test', 'compliance'),
      support: createStaffByCli(dataDir, 'support@swx.test', 'support'),
      finance: createStaffByCli(dataDir, 'finance@swx.test', 'finance'),
    };
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}` }, { dataDir });
    for (const [role, password] of Object.entries(passwords))
      staff[role] = (await enrolStaffByApi(server.baseUrl, `${role}@swx.test`, password)).token;
    alice = await registerByApi(server, inbox, 'alice.upload@example.com');
    bob = await registerByApi(server, inbox, 'bob.upload@example.com');
  });
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const fileOf = (id: string, token?: string) =>
    fetch(`${server.baseUrl}${uploadFileUrl(id)}`, { headers: token ? auth(token) : {} });

  it('refuses a PHP script and an HTML page named .png, by their bytes, and stores nothing', async () => {
    const before = storedFiles(dataDir).length;
    const php = Buffer.from('<?php echo shell_exec($_GET["cmd"]); ?>\n');
    const html = Buffer.from(
      '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
    );
    for (const bytes of [php, html]) {
      const r = await uploadByApi(server.baseUrl, alice.token, 'kyc_front', bytes, 'photo.png', 'image/png');
      expect(r).toMatchObject({ status: 400, code: 10026, data: [{ path: 'file', issue: 'type' }] });
    }
    // A PHP script behind real PNG magic bytes is a polyglot.
    const fakePng = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), php]);
    const r = await uploadByApi(server.baseUrl, alice.token, 'kyc_front', fakePng, 'photo.png');
    expect(r).toMatchObject({ status: 400, code: 10026 });
    expect(storedFiles(dataDir).length).toBe(before);
  });

  it('refuses polyglots: a PNG carrying a ZIP with a PHP file, a JPEG carrying a script, a JP2 with a page after it', async () => {
    const before = storedFiles(dataDir).length;
    const zipped = appended(await pngImage(), zipOf('shell.php', '<?php system($_GET["c"]); ?>'));
    const script = Buffer.from('<script>fetch("/swx/customer/user/getUserInfo")</script>');
    const com = Buffer.alloc(4);
    com.writeUInt16BE(0xfffe, 0);
    com.writeUInt16BE(script.length + 2, 2);
    const jpeg = await jpegWithGps();
    const scripted = Buffer.concat([jpeg.subarray(0, 2), com, script, jpeg.subarray(2)]);
    const jp2 = appended(await jp2Image(), '<html><body>hello</body></html>');
    for (const [bytes, name] of [
      [zipped, 'a.png'],
      [scripted, 'b.jpg'],
      [jp2, 'c.jp2'],
    ] as const) {
      const r = await uploadByApi(server.baseUrl, alice.token, 'kyc_back', bytes, name, 'image/png');
      expect(r.code, name).toBe(10026);
      expect(r.data, name).toEqual([{ path: 'file', issue: expect.stringMatching(/^(polyglot|corrupt)$/) }]);
    }
    expect(
      (await uploadByApi(server.baseUrl, alice.token, 'kyc_back', zipped, 'a.png')).data as unknown[],
    ).toEqual([{ path: 'file', issue: 'polyglot' }]);
    expect(storedFiles(dataDir).length).toBe(before);
  });

  it('limits the size per purpose: over 2 MB is refused as an identity photo (never stored) and accepted as a fund proof', async () => {
    const big = await oversizePng();
    expect(big.length).toBeGreaterThan(2 * MB);
    const before = storedFiles(dataDir).length;
    const refused = await uploadByApi(server.baseUrl, alice.token, 'kyc_front', big);
    expect(refused).toMatchObject({
      status: 413,
      code: 10034,
      msg: 'The file is larger than this upload allows.',
      data: { maxBytes: UPLOAD_PURPOSES.kyc_front.maxBytes },
    });
    expect(storedFiles(dataDir).length).toBe(before);
    const kept = await uploadByApi(server.baseUrl, alice.token, 'fund_proof', big);
    expect(kept).toMatchObject({ code: 200, data: { purpose: 'fund_proof', contentType: 'image/png' } });
    expect(storedFiles(dataDir).length).toBe(before + 1);
  });

  it('refuses a file one byte over its limit, read as a stream with no declared length, and a truncated body', async () => {
    const before = storedFiles(dataDir).length;
    const limit = UPLOAD_PURPOSES.kyc_front.maxBytes;
    // Valid PNG bytes at the start, then filler up to one byte over the limit: the size decides.
    const head = await pngImage();
    const overByOne = Buffer.concat([head, Buffer.alloc(limit + 1 - head.length, 0x41)]);
    const boundary = 'swxboundary7d1c';
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      overByOne,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    /** Sends the body in 64 KB pieces, chunked (no declared length), as a slow client would. */
    const open = () =>
      httpRequest(`${server.baseUrl}/swx/customer/upload/kyc_front`, {
        method: 'POST',
        headers: {
          authorization: alice.token,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
    const writeIn = (req: ReturnType<typeof open>, body: Buffer) => {
      for (let at = 0; at < body.length; at += 65_536) req.write(body.subarray(at, at + 65_536));
    };
    const send = (body: Buffer) =>
      new Promise<{ status: number; body: { code: number; data: unknown } }>((resolve, reject) => {
        const req = open();
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        writeIn(req, body);
        req.end();
      });
    /** The client gives up mid-file: the connection closes before the multipart body ends. */
    const abandon = (body: Buffer) =>
      new Promise<void>((resolve) => {
        const req = open();
        req.on('error', () => undefined);
        req.on('close', () => resolve());
        writeIn(req, body);
        req.flushHeaders();
        setImmediate(() => req.destroy());
      });
    const over = await send(multipart);
    expect(over).toMatchObject({ status: 413, body: { code: 10034, data: { maxBytes: limit } } });
    // A body cut off in the middle of the file: nothing is stored either.
    await abandon(multipart.subarray(0, 300_000));
    // The same file at exactly the limit is read whole (then refused by its content, not its size).
    const atLimit = Buffer.concat([head, Buffer.alloc(limit - head.length, 0x41)]);
    expect(await uploadByApi(server.baseUrl, alice.token, 'kyc_front', atLimit)).toMatchObject({
      code: 10026,
      data: [{ path: 'file', issue: 'polyglot' }],
    });
    expect(storedFiles(dataDir).length).toBe(before);
  });

  it('answers an unknown purpose, a missing file and a JSON body with 10026', async () => {
    expect((await uploadByApi(server.baseUrl, alice.token, 'avatar', await pngImage())).code).toBe(10026);
    const form = new FormData();
    form.append('picture', new Blob([new Uint8Array(await pngImage())]), 'a.png');
    const wrongField = await fetch(`${server.baseUrl}/swx/customer/upload/kyc_front`, {
      method: 'POST',
      headers: auth(alice.token),
      body: form,
    });
    expect(((await wrongField.json()) as { code: number }).code).toBe(10026);
    const json = await api(server.baseUrl, '/swx/customer/upload/kyc_front', {
      method: 'POST',
      headers: { ...auth(alice.token), 'content-type': 'application/json' },
      body: JSON.stringify({ file: 'iVBORw0KGgo=' }),
    });
    expect(json.body.code).toBe(10026);
    const anonymous = await fetch(`${server.baseUrl}/swx/customer/upload/kyc_front`, {
      method: 'POST',
      body: form,
    });
    expect(anonymous.status).toBe(401);
  });

  it('re-encodes: EXIF and GPS are gone from the file served back', async () => {
    const photo = await jpegWithGps(640, 400);
    expect(await hasGps(photo)).toBe(true);
    const id = await uploadedId(server.baseUrl, alice.token, 'kyc_front', photo);
    const own = await fileOf(id, alice.token);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(own.headers.get('cache-control')).toContain('no-store');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await own.arrayBuffer());
    expect(await hasGps(bytes)).toBe(false);
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 640, height: 400 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('exif-owner-marker'))).toBe(false);
    expect(bytes.includes(Buffer.from('TestPhone'))).toBe(false);
  });

  it('serves a file to its owner and to staff of the purpose’s roles only (audited); anyone else gets nothing', async () => {
    const kycId = await uploadedId(server.baseUrl, alice.token, 'kyc_in_hand', await pngImage());
    const fundId = await uploadedId(server.baseUrl, alice.token, 'fund_proof', await pngImage());
    // Another customer, an unknown id, a malformed id: 10028. No session: 401.
    for (const id of [kycId, fundId, 'f'.repeat(24), '..%2F..%2Fswx.lock']) {
      const other = await fileOf(id, bob.token);
      expect(other.status, id).toBe(404);
      expect(((await other.json()) as { code: number }).code, id).toBe(10028);
    }
    expect((await fileOf(kycId)).status).toBe(401);
    // Staff: the purpose names the roles. A role not named finds nothing, as if it did not exist.
    const seen = async (id: string, role: string) => (await fileOf(id, staff[role])).status;
    expect(await seen(kycId, 'compliance')).toBe(200);
    expect(await seen(kycId, 'support')).toBe(404);
    expect(await seen(kycId, 'finance')).toBe(404);
    expect(await seen(fundId, 'finance')).toBe(200);
    expect(await seen(fundId, 'compliance')).toBe(404);
    expect(await seen(fundId, 'support')).toBe(404);
    // Each staff view is in the audit log, with the staff member as actor.
    const audit = await api(server.baseUrl, `/swx/admin/audit?subject=upload:${kycId}`, {
      headers: auth(staff.compliance ?? ''),
    });
    const rows = (audit.body.data as { rows: { action: string; subject: string }[] }).rows;
    expect(rows.map((r) => [r.action, r.subject])).toEqual([['upload.viewed', `upload:${kycId}`]]);
  });

  it('identification takes only the caller’s own unused uploads: another customer’s id is 10028', async () => {
    const mine = await uploadKycPhotos(server.baseUrl, alice.token);
    const bobsBack = await uploadedId(server.baseUrl, bob.token, 'kyc_back', await pngImage());
    const body = (photos: typeof mine) => ({
      firstName: 'Alice',
      lastName: 'Liddell',
      birthdate: '1992-05-04',
      sex: 'female',
      country: 'GB',
      address: '1 Wonderland Road, Oxford',
      phoneCode: '+44',
      phone: '1865000000',
      documentType: 'idCard',
      photos,
    });
    const submit = (token: string, photos: typeof mine) =>
      api(server.baseUrl, '/swx/customer/user/identification', {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify(body(photos)),
      });
    const stolen = await submit(alice.token, { ...mine, back: bobsBack });
    expect(stolen).toMatchObject({ status: 404, body: { code: 10028 } });
    const swapped = await submit(alice.token, { ...mine, front: mine.inHand, inHand: mine.front });
    expect(swapped.body).toMatchObject({
      code: 10026,
      data: [
        { path: 'photos.front', issue: 'purpose' },
        { path: 'photos.inHand', issue: 'purpose' },
      ],
    });
    const done = await submit(alice.token, mine);
    expect(done.body).toMatchObject({ code: 20001, data: { state: 'pending' } });
    expect((done.body.data as { details: { photos: unknown[] } }).details.photos).toEqual([
      { id: mine.front, side: 'front' },
      { id: mine.back, side: 'back' },
      { id: mine.inHand, side: 'inHand' },
    ]);
    // Bob's upload was not taken by the refused attempt: it is still his, and only his.
    expect((await fileOf(bobsBack, bob.token)).status).toBe(200);
    expect((await fileOf(bobsBack, alice.token)).status).toBe(404);
  });
});
