import { type IdentificationBody, uploadFileUrl } from '@swx/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { appended, hasGps, pngImage, zipOf } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { uploadByApi, uploadKycPhotos } from '../support/uploads.ts';

const A = '/swx/admin';
const auth = (token: string) => ({ authorization: token });

describe('back office and KYC over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  const staff: Record<string, StaffApi> = {};
  let alice: Session;
  let bob: Session;
  /** Alice's three photos, uploaded (the upload ids). */
  let photos: { front: string; back: string; inHand: string };

  // The operator command, before the server holds the PGlite folder.
  const roles = ['compliance', 'support', 'finance'] as const;
  useServer(
    { staff: roles.map((role) => ({ email: `${role}@swx.test`, role })) },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    for (const role of roles)
      staff[role] = staffApi(
        server,
        await enrolStaffByApi(server.baseUrl, `${role}@swx.test`, oneTimePasswords[`${role}@swx.test`] ?? ''),
      );
    alice = await registerByApi(server, inbox, 'alice.kyc@example.com');
    bob = await registerByApi(server, inbox, 'bob.kyc@example.com');
    photos = await uploadKycPhotos(server.baseUrl, alice.token);
  });

  const asStaff = (role: string) => staff[role] as StaffApi;
  const as = (session: Session) => customerApi(server, session);
  const kycBody = (p = photos): IdentificationBody => ({
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
    const customerAsStaff = staffApi(server, alice);
    const asCustomer = await customerAsStaff.call('searchCustomers');
    expect(asCustomer.status).toBe(401);
    expect(asCustomer.code).toBe(401);
    const queue = await customerAsStaff.call('kycQueue');
    expect(queue.code).toBe(401);
    expect((await staffApi(server).call('me')).code).toBe(401);
    const staffAsCustomer = await customerApi(server, asStaff('compliance').token).call('getUserInfo');
    expect(staffAsCustomer.status).toBe(401);
    const me = await asStaff('compliance').call('me');
    expect(me.data).toMatchObject({ email: 'compliance@swx.test', role: 'compliance' });
  });

  it('checks uploads by content over HTTP: a polyglot photo is refused when uploaded', async () => {
    const polyglot = appended(await pngImage(), zipOf('x.html', '<script>1</script>'));
    const r = await uploadByApi(server.baseUrl, bob.token, 'kyc_back', polyglot);
    expect(r.status).toBe(400);
    expect(r).toMatchObject({ code: 10026, data: [{ path: 'file', issue: 'polyglot' }] });
  });

  it('KYC submit → another customer cannot reach the photos → support cannot approve → compliance approves → verified and notified', async () => {
    const submitted = await as(alice).call('identification', kycBody());
    expect(submitted.code).toBe(20001);
    const status = submitted.data;
    expect(status.state).toBe('pending');
    const front = status.details?.photos.find((p) => p.side === 'front')?.id ?? '';

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
    // Staff reach it only through the staff API, with a KYC role (the image bytes: plain HTTP).
    expect(
      (await fetch(`${server.baseUrl}${A}/kyc/photo/${front}`, { headers: auth(alice.token) })).status,
    ).toBe(401);
    expect(
      (await fetch(`${server.baseUrl}${A}/kyc/photo/${front}`, { headers: auth(asStaff('support').token) }))
        .status,
    ).toBe(403);
    expect(
      (
        await fetch(`${server.baseUrl}${A}/kyc/photo/${front}`, {
          headers: auth(asStaff('compliance').token),
        })
      ).status,
    ).toBe(200);

    const queue = await asStaff('compliance').call('kycQueue');
    const item = queue.data.find((q) => q.userId === alice.userInfo.id);
    expect(item).toBeDefined();
    const id = item?.id ?? 0;
    for (const role of ['support', 'finance']) {
      const refused = await asStaff(role).call('approveKyc', { id });
      expect(refused.status, role).toBe(403);
      expect(refused.code, role).toBe(10029);
    }
    expect((await staffApi(server, alice).call('approveKyc', { id })).code).toBe(401);
    expect((await as(alice).call('getIdentification')).data).toMatchObject({ state: 'pending' });

    // Deciding needs a live claim of the decider: without one, 10036; claimed, the queue names who.
    expect((await asStaff('compliance').call('approveKyc', { id })).code).toBe(10036);
    const claimed = await asStaff('compliance').call('claimKyc', { id });
    expect(claimed).toMatchObject({
      code: 200,
      data: { review: { state: 'pending', claim: { staff: { email: 'compliance@swx.test' } } } },
    });
    const listed = await asStaff('compliance').call('kycQueue');
    expect(listed.data.find((q) => q.id === id)?.review).toMatchObject({
      claim: { staff: { email: 'compliance@swx.test' } },
    });
    const approved = await asStaff('compliance').call('approveKyc', { id });
    expect(approved).toMatchObject({
      code: 200,
      data: {
        status: 'verified',
        review: { state: 'approved', decidedBy: { email: 'compliance@swx.test' } },
      },
    });
    const mine = await as(alice).call('getIdentification');
    expect(mine.data).toMatchObject({ state: 'verified', canSubmit: false });
    const score = await as(alice).call('getCreditScore');
    expect(score.data).toMatchObject({ score: 80, max: 100 });
    const notices = await as(alice).call('getNoticeList');
    expect(notices.data.map((n) => n.noticeContent)).toContainEqual(
      expect.stringContaining('Your identity is verified'),
    );
    // Decided once.
    const twice = await asStaff('compliance').call('rejectKyc', { id, reason: 'changed my mind' });
    expect(twice.code).toBe(10019);
  });

  it('locking a customer ends their session and refuses login; finance may look but not lock', async () => {
    const carol = await registerByApi(server, inbox, 'carol.lock@example.com', 'carol password 1');
    expect((await as(carol).call('getUserInfo')).code).toBe(200);
    const found = await asStaff('finance').call('searchCustomers', { q: 'carol.lock' });
    expect(found.data.map((c) => c.id)).toEqual([carol.userInfo.id]);
    const byFinance = await asStaff('finance').call('lockCustomer', {
      id: carol.userInfo.id,
      reason: 'suspicious activity',
    });
    expect(byFinance.code).toBe(10029);

    const locked = await asStaff('support').call('lockCustomer', {
      id: carol.userInfo.id,
      reason: 'suspicious activity',
    });
    expect(locked.data).toMatchObject({ status: 'locked', liveSessions: 0 });
    const after = await as(carol).call('getUserInfo');
    expect(after.status).toBe(401);
    const anonymous = customerApi(server);
    const login = await anonymous.call('login', {
      userName: 'carol.lock@example.com',
      password: 'carol password 1',
    });
    expect(login.code).toBe(10005);

    const unlocked = await asStaff('support').call('unlockCustomer', {
      id: carol.userInfo.id,
      reason: 'verified by phone',
    });
    expect(unlocked.data).toMatchObject({ status: 'active' });
    expect(unlocked.data.history).toHaveLength(2);
    const again = await anonymous.call('login', {
      userName: 'carol.lock@example.com',
      password: 'carol password 1',
    });
    expect(again.code).toBe(200);
  });
});
