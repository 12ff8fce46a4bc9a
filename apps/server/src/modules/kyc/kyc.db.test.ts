import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IdentificationBody, Language } from '@swx/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { hasGps, jp2Image, jpegWithGps, pngImage } from '../../../../../tests/support/images.ts';
import { ApiError } from '../../platform/http.ts';
import { FileStorage } from '../../platform/storage.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { AuditService } from '../audit/audit.service.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { NoticesService } from '../notices/notices.service.ts';
import { type ReviewQueue, ReviewService } from '../review/review.service.ts';
import { UploadsService } from '../uploads/uploads.service.ts';
import { kycReview } from './kyc.review.ts';
import { KycService } from './kyc.service.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const COMPLIANCE = { staffId: 0 };

describe(`KYC on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let kyc: KycService;
  let notices: NoticesService;
  let review: ReviewQueue<ReturnType<typeof kycReview>['calls']>;
  let uploads: UploadsService;
  let images: { front: Buffer; back: Buffer; inHand: Buffer };
  beforeAll(async () => {
    t = await openTestDatabase();
    const audit = new AuditService(t.db);
    notices = new NoticesService(t.db);
    const customers = new CustomerDirectory(t.db);
    uploads = new UploadsService({
      db: t.db,
      storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-kyc-'))),
    });
    kyc = new KycService({
      db: t.db,
      uploads,
      audit,
      customers,
    });
    ctx = await createTestContext(t.db, { audit, notices });
    review = new ReviewService({ db: t.db, audit, notices, staff: ctx.staff, customers }).register(
      kycReview(kyc, ctx.staff),
    );
    COMPLIANCE.staffId = (await ctx.staffMember('compliance', 'c@example.com')).id;
    images = { front: await jpegWithGps(), back: await pngImage(), inHand: await jp2Image() };
  });
  afterAll(() => t.close());

  async function customer(name: string, language: Language = 'en'): Promise<number> {
    return (await ctx.customer({ name, language })).id;
  }

  /** The customer uploads the three photos (JPEG with GPS, PNG, JPEG 2000) through the uploads service. */
  async function upload(userId: number): Promise<IdentificationBody['photos']> {
    const id = async (purpose: 'kyc_front' | 'kyc_back' | 'kyc_in_hand', bytes: Buffer) =>
      (await uploads.store(userId, purpose, async () => bytes)).id;
    return {
      front: await id('kyc_front', images.front),
      back: await id('kyc_back', images.back),
      inHand: await id('kyc_in_hand', images.inHand),
    };
  }

  const body = (
    photos: IdentificationBody['photos'],
    overrides: Partial<IdentificationBody> = {},
  ): IdentificationBody => ({
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
    const photos = await upload(userId);
    const pending = await kyc.submit(userId, body(photos));
    expect(pending).toMatchObject({ state: 'pending', canSubmit: false, reason: null });
    // The result is due 48 hours after submission.
    expect(Date.parse(pending.dueAt ?? '') - Date.parse(pending.submittedAt ?? '')).toBe(48 * 3600_000);
    // The photos are the uploads, by their ids.
    expect(pending.details?.photos).toEqual([
      { id: photos.front, side: 'front' },
      { id: photos.back, side: 'back' },
      { id: photos.inHand, side: 'inHand' },
    ]);
    // Under review: no second submission.
    await expect(kyc.submit(userId, body(await upload(userId)))).rejects.toSatisfy(refusedWith(10019));

    const [queued] = (await kyc.queue()).filter((q) => q.userId === userId);
    expect(queued).toMatchObject({ name: 'Ada Lovelace', userName: 'kyc-de', overdue: false });
    await review.claim(COMPLIANCE, queued?.id ?? 0);
    const approved = await review.approve(COMPLIANCE, queued?.id ?? 0);
    expect(approved).toMatchObject({ status: 'verified', reviewedBy: `staff:${COMPLIANCE.staffId}` });
    expect((await kyc.status(userId)).state).toBe('verified');
    const score = await kyc.creditScore(userId);
    expect(score).toEqual({
      score: 80,
      max: 100,
      rules: [
        { key: 'base', points: 60, applied: true },
        { key: 'kycVerified', points: 20, applied: true },
        // The loans module's rules, listed whether or not they apply (no loan yet).
        { key: 'loanRepaidOnTime', points: 10, applied: false },
        { key: 'noLoanOverdue', points: 10, applied: false },
      ],
    });
    const [notice] = await notices.list(userId, 'de');
    expect(notice?.noticeContent).toContain('Ihre Identität ist bestätigt');
    // Read in another language, the same notice is in that language.
    expect((await notices.list(userId, 'en'))[0]?.noticeContent).toContain('Your identity is verified');
    // Decided once: a second decision and a new submission are refused.
    await expect(review.reject(COMPLIANCE, queued?.id ?? 0, 'late')).rejects.toSatisfy(refusedWith(10019));
    await expect(kyc.submit(userId, body(await upload(userId)))).rejects.toSatisfy(refusedWith(10019));
    await expect(review.approve(COMPLIANCE, 987_654)).rejects.toSatisfy(refusedWith(10028));
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
      { actor: `staff:${COMPLIANCE.staffId}`, action: 'kyc.claimed' },
      { actor: `staff:${COMPLIANCE.staffId}`, action: 'kyc.approved' },
    ]);
  });

  it('fails with a reason the customer sees, then allows a resubmission', async () => {
    const userId = await customer('kyc-fail', 'en');
    const first = await kyc.submit(userId, body(await upload(userId), { documentType: 'idCard' }));
    expect(first.state).toBe('pending');
    const [queued] = (await kyc.queue()).filter((q) => q.userId === userId);
    await review.claim(COMPLIANCE, queued?.id ?? 0);
    await review.reject(COMPLIANCE, queued?.id ?? 0, 'The back photo is blurred');
    const failed = await kyc.status(userId);
    expect(failed).toMatchObject({ state: 'failed', canSubmit: true, reason: 'The back photo is blurred' });
    expect((await notices.list(userId, 'en'))[0]?.noticeContent).toContain(
      'Reason: The back photo is blurred',
    );
    expect((await kyc.creditScore(userId)).score).toBe(60);
    // The photos of the failed submission are used: a resubmission sends new ones.
    const used = first.details?.photos.map((p) => p.id) ?? [];
    const reused = await kyc
      .submit(userId, body({ front: used[0] ?? '', back: used[1] ?? '', inHand: used[2] ?? '' }))
      .catch((e: unknown) => e);
    expect((reused as ApiError).data).toEqual([
      { path: 'photos.front', issue: 'used' },
      { path: 'photos.back', issue: 'used' },
      { path: 'photos.inHand', issue: 'used' },
    ]);
    const again = await kyc.submit(userId, body(await upload(userId), { documentType: 'driverLicence' }));
    expect(again).toMatchObject({ state: 'pending', reason: null });
    expect(again.details?.documentType).toBe('driverLicence');
  });

  it('keeps the photos as uploads: their owner and KYC staff read them, re-encoded without EXIF or GPS', async () => {
    const owner = await customer('kyc-owner');
    const other = await customer('kyc-other');
    const status = await kyc.submit(owner, body(await upload(owner)));
    const front = status.details?.photos.find((p) => p.side === 'front');
    const inHand = status.details?.photos.find((p) => p.side === 'inHand');
    if (!front || !inHand) throw new Error('no photos');
    expect(await uploads.fileForOwner(other, front.id)).toBeNull();
    const file = await uploads.fileForOwner(owner, front.id);
    expect(file?.contentType).toBe('image/jpeg');
    expect(await hasGps(file?.bytes ?? Buffer.alloc(0))).toBe(false);
    expect((await sharp(file?.bytes).metadata()).exif).toBeUndefined();
    // JPEG 2000 is kept as PNG, so every browser of staff can show it.
    expect((await uploads.fileForOwner(owner, inHand.id))?.contentType).toBe('image/png');
    const forStaff = await kyc.photoForStaff('compliance', front.id);
    expect(forStaff).toMatchObject({ contentType: 'image/jpeg', submissionId: expect.any(Number) });
    // The purpose names the roles: support and finance read no identity photo.
    expect(await kyc.photoForStaff('support', front.id)).toBeNull();
    expect(await kyc.photoForStaff('finance', front.id)).toBeNull();
    expect(await kyc.photoForStaff('compliance', 'f'.repeat(24))).toBeNull();
  });

  it('takes only the caller’s own unused uploads of each side’s purpose, and writes nothing otherwise', async () => {
    const userId = await customer('kyc-bad');
    const intruder = await customer('kyc-intruder');
    const mine = await upload(userId);
    const theirs = await upload(intruder);
    // Another customer's upload id: nothing found, whichever side names it.
    await expect(kyc.submit(userId, body({ ...mine, back: theirs.back }))).rejects.toSatisfy(
      refusedWith(10028),
    );
    await expect(kyc.submit(userId, body({ ...mine, front: 'f'.repeat(24) }))).rejects.toSatisfy(
      refusedWith(10028),
    );
    // Sides swapped: each upload is of another side's purpose.
    const swapped = await kyc
      .submit(userId, body({ ...mine, front: mine.back, back: mine.front }))
      .catch((e: unknown) => e);
    expect((swapped as ApiError).data).toEqual([
      { path: 'photos.front', issue: 'purpose' },
      { path: 'photos.back', issue: 'purpose' },
    ]);
    const young = new Date();
    const birthdate = `${young.getUTCFullYear() - 17}-01-01`;
    await expect(kyc.submit(userId, body(mine, { birthdate }))).rejects.toSatisfy(refusedWith(10026));
    await expect(kyc.submit(userId, body(mine, { country: 'XX' }))).rejects.toSatisfy(refusedWith(10026));
    await expect(kyc.submit(userId, body(mine, { birthdate: '1990-02-30' }))).rejects.toSatisfy(
      refusedWith(10026),
    );
    expect((await kyc.status(userId)).state).toBe('none');
    // Nothing was taken by the refused submissions: the same uploads still go through, once.
    expect((await kyc.submit(userId, body(mine))).state).toBe('pending');
    expect((await kyc.submit(intruder, body(theirs))).state).toBe('pending');
  });
});
