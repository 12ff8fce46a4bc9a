import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IdentificationBody, Language } from '@swx/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { hasGps, jp2Image, jpegWithGps, pdfDocument, pngImage } from '../../../../../tests/support/images.ts';
import { ApiError } from '../../platform/http.ts';
import { FileStorage } from '../../platform/storage.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { AuditService } from '../audit/audit.service.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { NoticesService } from '../notices/notices.service.ts';
import { KycService } from './kyc.service.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const COMPLIANCE = { staffId: 0 };

describe(`KYC on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let kyc: KycService;
  let notices: NoticesService;
  let photos: IdentificationBody['photos'];
  beforeAll(async () => {
    t = await openTestDatabase();
    const audit = new AuditService(t.db);
    notices = new NoticesService(t.db);
    kyc = new KycService({
      db: t.db,
      storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-kyc-'))),
      audit,
      notices,
      customers: new CustomerDirectory(t.db),
    });
    ctx = await createTestContext(t.db, { audit, notices });
    COMPLIANCE.staffId = (await ctx.staffMember('compliance', 'c@example.com')).id;
    photos = {
      front: (await jpegWithGps()).toString('base64'),
      back: (await pngImage()).toString('base64'),
      inHand: (await jp2Image()).toString('base64'),
    };
  });
  afterAll(() => t.close());

  async function customer(name: string, language: Language = 'en'): Promise<number> {
    return (await ctx.customer({ name, language })).id;
  }

  const body = (overrides: Partial<IdentificationBody> = {}): IdentificationBody => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthdate: '1990-12-10',
    sex: 'female',
    country: 'GB',
    address: '12 St James Square, London',
    phoneCode: '+44',
    phone: '2079460000',
    documentType: 'passport',
    photos,
    ...overrides,
  });

  it('moves none → pending → verified, notifies in the customer’s language, raises the credit score', async () => {
    const userId = await customer('kyc-de', 'de');
    expect(await kyc.status(userId)).toMatchObject({ state: 'none', canSubmit: true, details: null });
    expect((await kyc.creditScore(userId)).score).toBe(60);
    const pending = await kyc.submit(userId, body());
    expect(pending).toMatchObject({ state: 'pending', canSubmit: false, reason: null });
    // The result is due 48 hours after submission.
    expect(Date.parse(pending.dueAt ?? '') - Date.parse(pending.submittedAt ?? '')).toBe(48 * 3600_000);
    expect(pending.details?.photos.map((p) => p.side)).toEqual(['front', 'back', 'inHand']);
    // Under review: no second submission.
    await expect(kyc.submit(userId, body())).rejects.toSatisfy(refusedWith(10019));

    const [queued] = (await kyc.queue()).filter((q) => q.userId === userId);
    expect(queued).toMatchObject({ name: 'Ada Lovelace', userName: 'kyc-de', overdue: false });
    const approved = await kyc.decide(COMPLIANCE, queued?.id ?? 0, { approve: true });
    expect(approved).toMatchObject({ status: 'verified', reviewedBy: `staff:${COMPLIANCE.staffId}` });
    expect((await kyc.status(userId)).state).toBe('verified');
    const score = await kyc.creditScore(userId);
    expect(score).toEqual({
      score: 80,
      max: 100,
      rules: [
        { key: 'base', points: 60, applied: true },
        { key: 'kycVerified', points: 20, applied: true },
      ],
    });
    const [notice] = await notices.list(userId, 'de');
    expect(notice?.noticeContent).toContain('Ihre Identität ist bestätigt');
    // Read in another language, the same notice is in that language.
    expect((await notices.list(userId, 'en'))[0]?.noticeContent).toContain('Your identity is verified');
    // Decided once: a second decision and a new submission are refused.
    await expect(
      kyc.decide(COMPLIANCE, queued?.id ?? 0, { approve: false, reason: 'late' }),
    ).rejects.toSatisfy(refusedWith(10019));
    await expect(kyc.submit(userId, body())).rejects.toSatisfy(refusedWith(10019));
    await expect(kyc.decide(COMPLIANCE, 987_654, { approve: true })).rejects.toSatisfy(refusedWith(10028));
    // The database itself refuses to change a decided submission.
    await expect(
      t.db.query("UPDATE kyc_submissions SET status = 'failed', reason = 'edit' WHERE id = $1", [queued?.id]),
    ).rejects.toThrow(/cannot change/);
    const audit = await t.db.query<{ actor: string; action: string }>(
      'SELECT actor, action FROM audit_log WHERE subject = $1 ORDER BY seq',
      [`kyc:${queued?.id}`],
    );
    expect(audit).toEqual([
      { actor: `user:${userId}`, action: 'kyc.submitted' },
      { actor: `staff:${COMPLIANCE.staffId}`, action: 'kyc.approved' },
    ]);
  });

  it('fails with a reason the customer sees, then allows a resubmission', async () => {
    const userId = await customer('kyc-fail', 'en');
    const first = await kyc.submit(userId, body({ documentType: 'idCard' }));
    expect(first.state).toBe('pending');
    const [queued] = (await kyc.queue()).filter((q) => q.userId === userId);
    await kyc.decide(COMPLIANCE, queued?.id ?? 0, { approve: false, reason: 'The back photo is blurred' });
    const failed = await kyc.status(userId);
    expect(failed).toMatchObject({ state: 'failed', canSubmit: true, reason: 'The back photo is blurred' });
    expect((await notices.list(userId, 'en'))[0]?.noticeContent).toContain(
      'Reason: The back photo is blurred',
    );
    expect((await kyc.creditScore(userId)).score).toBe(60);
    const again = await kyc.submit(userId, body({ documentType: 'driverLicence' }));
    expect(again).toMatchObject({ state: 'pending', reason: null });
    expect(again.details?.documentType).toBe('driverLicence');
  });

  it('serves a photo to its owner only, re-encoded without EXIF or GPS', async () => {
    const owner = await customer('kyc-owner');
    const other = await customer('kyc-other');
    const status = await kyc.submit(owner, body());
    const front = status.details?.photos.find((p) => p.side === 'front');
    const inHand = status.details?.photos.find((p) => p.side === 'inHand');
    if (!front || !inHand) throw new Error('no photos');
    expect(await kyc.photoForOwner(other, front.id)).toBeNull();
    expect(await kyc.photoForOwner(owner, 'f'.repeat(24))).toBeNull();
    const file = await kyc.photoForOwner(owner, front.id);
    expect(file?.contentType).toBe('image/jpeg');
    expect(await hasGps(file?.bytes ?? Buffer.alloc(0))).toBe(false);
    expect((await sharp(file?.bytes).metadata()).exif).toBeUndefined();
    // JPEG 2000 is kept as PNG, so every browser of staff can show it.
    expect((await kyc.photoForOwner(owner, inHand.id))?.contentType).toBe('image/png');
    expect((await kyc.photoForStaff(front.id))?.contentType).toBe('image/jpeg');
  });

  it('refuses bad photos side by side, an under-age birthdate and an unknown country', async () => {
    const userId = await customer('kyc-bad');
    const refusal = await kyc
      .submit(userId, body({ photos: { ...photos, back: pdfDocument().toString('base64') } }))
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).data).toEqual([{ path: 'photos.back', issue: 'type' }]);
    const young = new Date();
    const birthdate = `${young.getUTCFullYear() - 17}-01-01`;
    await expect(kyc.submit(userId, body({ birthdate }))).rejects.toSatisfy(refusedWith(10026));
    await expect(kyc.submit(userId, body({ country: 'XX' }))).rejects.toSatisfy(refusedWith(10026));
    await expect(kyc.submit(userId, body({ birthdate: '1990-02-30' }))).rejects.toSatisfy(refusedWith(10026));
    expect((await kyc.status(userId)).state).toBe('none');
  });
});
