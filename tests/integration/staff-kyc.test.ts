import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadFileUrl } from '@swx/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { appended, hasGps, pngImage, zipOf } from '../support/images.ts';
import { api, type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';
import { uploadByApi, uploadKycPhotos } from '../support/uploads.ts';

const C = '/swx/customer';
const A = '/swx/admin';
const auth = (token: string) => ({ authorization: token });
const post = (body: unknown, token?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? auth(token) : {}) },
  body: JSON.stringify(body ?? {}),
});

describe('back office and KYC over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let dataDir: string;
  const staff: Record<string, string> = {};
  let alice: Session;
  let bob: Session;
  /** Alice's three photos, uploaded (the upload ids). */
  let photos: { front: string; back: string; inHand: string };

  beforeAll(async () => {
    inbox = await startInbox();
    dataDir = mkdtempSync(join(tmpdir(), 'swx-it-staff-'));
    // The operator command, before the server holds the PGlite folder.
    const passwords = {
      compliance: createStaffByCli(dataDir, 'compliance@swx.test', 'compliance'),
      support: createStaffByCli(dataDir, 'support@swx.test', 'support'),
      finance: createStaffByCli(dataDir, 'finance@swx.test', 'finance'),
    };
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}` }, { dataDir });
    for (const [role, password] of Object.entries(passwords))
      staff[role] = (await enrolStaffByApi(server.baseUrl, `${role}@swx.test`, password)).token;
    alice = await registerByApi(server, inbox, 'alice.kyc@example.com');
    bob = await registerByApi(server, inbox, 'bob.kyc@example.com');
    photos = await uploadKycPhotos(server.baseUrl, alice.token);
  });
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const kycBody = (p = photos) => ({
    firstName: 'Alice',
    lastName: 'Liddell',
    birthdate: '1992-05-04',
    sex: 'female',
    country: 'GB',
    address: '1 Wonderland Road, Oxford',
    phoneCode: '+44',
    phone: '1865000000',
    documentType: 'idCard',
    photos: p,
  });

  it('refuses a customer token on /swx/admin and a staff token on customer calls', async () => {
    const asCustomer = await api(server.baseUrl, `${A}/customers`, { headers: auth(alice.token) });
    expect(asCustomer.status).toBe(401);
    expect(asCustomer.body.code).toBe(401);
    const queue = await api(server.baseUrl, `${A}/kyc/queue`, { headers: auth(alice.token) });
    expect(queue.body.code).toBe(401);
    expect((await api(server.baseUrl, `${A}/auth/me`)).body.code).toBe(401);
    const asStaff = await api(server.baseUrl, `${C}/user/getUserInfo`, post({}, staff.compliance));
    expect(asStaff.status).toBe(401);
    const me = await api(server.baseUrl, `${A}/auth/me`, { headers: auth(staff.compliance ?? '') });
    expect(me.body.data).toMatchObject({ email: 'compliance@swx.test', role: 'compliance' });
  });

  it('checks uploads by content over HTTP: a polyglot photo is refused when uploaded', async () => {
    const polyglot = appended(await pngImage(), zipOf('x.html', '<script>1</script>'));
    const r = await uploadByApi(server.baseUrl, bob.token, 'kyc_back', polyglot);
    expect(r.status).toBe(400);
    expect(r).toMatchObject({ code: 10026, data: [{ path: 'file', issue: 'polyglot' }] });
  });

  it('KYC submit → another customer cannot reach the photos → support cannot approve → compliance approves → verified and notified', async () => {
    const submitted = await api(server.baseUrl, `${C}/user/identification`, post(kycBody(), alice.token));
    expect(submitted.body.code).toBe(20001);
    const status = submitted.body.data as {
      state: string;
      details: { photos: { id: string; side: string }[] };
    };
    expect(status.state).toBe('pending');
    const front = status.details.photos.find((p) => p.side === 'front')?.id ?? '';

    expect(front).toBe(photos.front);
    // Another customer's photo id answers nothing; so does no session.
    const other = await fetch(`${server.baseUrl}${uploadFileUrl(front)}`, { headers: auth(bob.token) });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { code: number }).code).toBe(10028);
    expect((await fetch(`${server.baseUrl}${uploadFileUrl(front)}`)).status).toBe(401);
    const own = await fetch(`${server.baseUrl}${uploadFileUrl(front)}`, { headers: auth(alice.token) });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(own.headers.get('cache-control')).toContain('no-store');
    const bytes = Buffer.from(await own.arrayBuffer());
    expect(await hasGps(bytes)).toBe(false);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    // Staff reach it only through the staff API, with a KYC role.
    expect(
      (await fetch(`${server.baseUrl}${A}/kyc/photo/${front}`, { headers: auth(alice.token) })).status,
    ).toBe(401);
    expect(
      (await fetch(`${server.baseUrl}${A}/kyc/photo/${front}`, { headers: auth(staff.support ?? '') }))
        .status,
    ).toBe(403);
    expect(
      (await fetch(`${server.baseUrl}${A}/kyc/photo/${front}`, { headers: auth(staff.compliance ?? '') }))
        .status,
    ).toBe(200);

    const queue = await api(server.baseUrl, `${A}/kyc/queue`, { headers: auth(staff.compliance ?? '') });
    const item = (queue.body.data as { id: number; userId: number }[]).find(
      (q) => q.userId === alice.userInfo.id,
    );
    expect(item).toBeDefined();
    const id = item?.id ?? 0;
    for (const role of ['support', 'finance']) {
      const refused = await api(server.baseUrl, `${A}/kyc/${id}/approve`, post({}, staff[role]));
      expect(refused.status, role).toBe(403);
      expect(refused.body.code, role).toBe(10029);
    }
    expect((await api(server.baseUrl, `${A}/kyc/${id}/approve`, post({}, alice.token))).body.code).toBe(401);
    expect(
      (await api(server.baseUrl, `${C}/user/getIdentification`, { headers: auth(alice.token) })).body.data,
    ).toMatchObject({ state: 'pending' });

    // Deciding needs a live claim of the decider: without one, 10036; claimed, the queue names who.
    expect((await api(server.baseUrl, `${A}/kyc/${id}/approve`, post({}, staff.compliance))).body.code).toBe(
      10036,
    );
    const claimed = await api(server.baseUrl, `${A}/kyc/${id}/claim`, post({}, staff.compliance));
    expect(claimed.body).toMatchObject({
      code: 200,
      data: { review: { state: 'pending', claim: { staff: { email: 'compliance@swx.test' } } } },
    });
    const listed = await api(server.baseUrl, `${A}/kyc/queue`, { headers: auth(staff.compliance ?? '') });
    expect(
      (listed.body.data as { id: number; review: unknown }[]).find((q) => q.id === id)?.review,
    ).toMatchObject({
      claim: { staff: { email: 'compliance@swx.test' } },
    });
    const approved = await api(server.baseUrl, `${A}/kyc/${id}/approve`, post({}, staff.compliance));
    expect(approved.body).toMatchObject({
      code: 200,
      data: {
        status: 'verified',
        review: { state: 'approved', decidedBy: { email: 'compliance@swx.test' } },
      },
    });
    const mine = await api(server.baseUrl, `${C}/user/getIdentification`, { headers: auth(alice.token) });
    expect(mine.body.data).toMatchObject({ state: 'verified', canSubmit: false });
    const score = await api(server.baseUrl, `${C}/user/getCreditScore`, { headers: auth(alice.token) });
    expect(score.body.data).toMatchObject({ score: 80, max: 100 });
    const notices = await api(server.baseUrl, `${C}/user/getNoticeList`, { headers: auth(alice.token) });
    expect((notices.body.data as { noticeContent: string }[]).map((n) => n.noticeContent)).toContainEqual(
      expect.stringContaining('Your identity is verified'),
    );
    // Decided once.
    const twice = await api(
      server.baseUrl,
      `${A}/kyc/${id}/reject`,
      post({ reason: 'changed my mind' }, staff.compliance),
    );
    expect(twice.body.code).toBe(10019);
  });

  it('locking a customer ends their session and refuses login; finance may look but not lock', async () => {
    const carol = await registerByApi(server, inbox, 'carol.lock@example.com', 'carol password 1');
    expect((await api(server.baseUrl, `${C}/user/getUserInfo`, post({}, carol.token))).body.code).toBe(200);
    const found = await api(server.baseUrl, `${A}/customers?q=carol.lock`, {
      headers: auth(staff.finance ?? ''),
    });
    expect((found.body.data as { id: number }[]).map((c) => c.id)).toEqual([carol.userInfo.id]);
    const byFinance = await api(
      server.baseUrl,
      `${A}/customers/${carol.userInfo.id}/lock`,
      post({ reason: 'suspicious activity' }, staff.finance),
    );
    expect(byFinance.body.code).toBe(10029);

    const locked = await api(
      server.baseUrl,
      `${A}/customers/${carol.userInfo.id}/lock`,
      post({ reason: 'suspicious activity' }, staff.support),
    );
    expect(locked.body.data).toMatchObject({ status: 'locked', liveSessions: 0 });
    const after = await api(server.baseUrl, `${C}/user/getUserInfo`, post({}, carol.token));
    expect(after.status).toBe(401);
    const login = await api(
      server.baseUrl,
      `${C}/login/login`,
      post({ userName: 'carol.lock@example.com', password: 'carol password 1' }),
    );
    expect(login.body.code).toBe(10005);

    const unlocked = await api(
      server.baseUrl,
      `${A}/customers/${carol.userInfo.id}/unlock`,
      post({ reason: 'verified by phone' }, staff.support),
    );
    expect(unlocked.body.data).toMatchObject({ status: 'active' });
    expect((unlocked.body.data as { history: unknown[] }).history).toHaveLength(2);
    const again = await api(
      server.baseUrl,
      `${C}/login/login`,
      post({ userName: 'carol.lock@example.com', password: 'carol password 1' }),
    );
    expect(again.body.code).toBe(200);
  });
});
