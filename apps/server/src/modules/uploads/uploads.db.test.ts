import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, UPLOAD_PURPOSES } from '@swx/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import {
  appended,
  hasGps,
  jpegWithGps,
  oversizePng,
  pdfDocument,
  pngImage,
  zipOf,
} from '../../../../../tests/support/images.ts';
import { storedFiles } from '../../../../../tests/support/uploads.ts';
import { ApiError } from '../../platform/http.ts';
import { migrate, readMigrations } from '../../platform/migrate.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { FileStorage } from '../../platform/storage.ts';
import { UNUSED_KEPT, UPLOAD_LIMIT, UploadsService } from './uploads.service.ts';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (e: unknown) => {
      if (e instanceof ApiError) return { code: e.code, data: e.data };
      throw e;
    },
  );

describe(`uploads on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let dataDir: string;
  let storage: FileStorage;
  let uploads: UploadsService;
  beforeAll(async () => {
    t = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'swx-uploads-'));
    storage = new FileStorage(dataDir);
    uploads = new UploadsService({ db: t.db, storage });
  });
  afterAll(() => t.close());

  async function customer(name: string): Promise<number> {
    const [row] = await t.db.query<{ id: string }>(
      "INSERT INTO users (user_name, password_hash, language) VALUES ($1, '$argon2id$x', 'en') RETURNING id",
      [name],
    );
    return Number(row?.id);
  }
  const countOf = async (ownerId: number) =>
    Number(
      (await t.db.query<{ n: string }>('SELECT count(*) AS n FROM uploads WHERE owner_id = $1', [ownerId]))[0]
        ?.n,
    );

  it('limits the size per purpose: a 2.4 MB PNG is refused as an identity photo and kept as a fund proof', async () => {
    const owner = await customer('up-size');
    const big = await oversizePng();
    expect(big.length).toBeGreaterThan(UPLOAD_PURPOSES.kyc_front.maxBytes);
    expect(big.length).toBeLessThan(UPLOAD_PURPOSES.fund_proof.maxBytes);
    const before = storedFiles(dataDir).length;
    expect(await refusal(uploads.store(owner, 'kyc_front', async () => big))).toEqual({
      code: Code.FILE_TOO_LARGE,
      data: { maxBytes: 2 * 1024 * 1024 },
    });
    expect(await countOf(owner)).toBe(0);
    expect(storedFiles(dataDir).length).toBe(before);
    const proof = await uploads.store(owner, 'fund_proof', async () => big);
    expect(proof).toMatchObject({
      purpose: 'fund_proof',
      contentType: 'image/png',
      width: 1000,
      height: 800,
    });
    expect(proof.id).toMatch(/^[a-f0-9]{24}$/);
    expect(storedFiles(dataDir).length).toBe(before + 1);
  });

  it('refuses by content (a PDF, a polyglot) without storing, and strips EXIF and GPS from what it keeps', async () => {
    const owner = await customer('up-content');
    const before = storedFiles(dataDir).length;
    expect(await refusal(uploads.store(owner, 'kyc_back', async () => pdfDocument()))).toEqual({
      code: Code.INVALID_INPUT,
      data: [{ path: 'file', issue: 'type' }],
    });
    const polyglot = appended(await pngImage(), zipOf('shell.php', '<?php system($_GET["c"]); ?>'));
    expect(await refusal(uploads.store(owner, 'kyc_back', async () => polyglot))).toEqual({
      code: Code.INVALID_INPUT,
      data: [{ path: 'file', issue: 'polyglot' }],
    });
    expect(await countOf(owner)).toBe(0);
    expect(storedFiles(dataDir).length).toBe(before);

    const photo = await uploads.store(owner, 'kyc_front', async () => jpegWithGps());
    const file = await uploads.fileForOwner(owner, photo.id);
    expect(file?.bytes.length).toBe(photo.size);
    expect(await hasGps(file?.bytes ?? Buffer.alloc(0))).toBe(false);
    expect((await sharp(file?.bytes).metadata()).exif).toBeUndefined();
  });

  it('keeps a bounded number of unused uploads per purpose, never a used one', async () => {
    const owner = await customer('up-bound');
    const png = await pngImage(64, 64);
    const first = await uploads.store(owner, 'deposit_proof', async () => png);
    await t.db.transaction((tx) =>
      uploads.takeInTx(tx, owner, [{ path: 'proof', id: first.id, purpose: 'deposit_proof' }], 'deposit:1'),
    );
    const unused = [];
    for (let i = 0; i < UNUSED_KEPT + 2; i++)
      unused.push(await uploads.store(owner, 'deposit_proof', async () => png));
    const left = await t.db.query<{ id: string }>('SELECT id FROM uploads WHERE owner_id = $1 ORDER BY id', [
      owner,
    ]);
    // The used one, and the newest UNUSED_KEPT unused ones; the two oldest unused are gone with their files.
    expect(left.map((r) => r.id).sort()).toEqual([first.id, ...unused.slice(2).map((u) => u.id)].sort());
    expect(await uploads.fileForOwner(owner, unused[0]?.id ?? '')).toBeNull();
    expect(await uploads.fileForOwner(owner, first.id)).not.toBeNull();
  });

  it('is taken once: a taken upload cannot be taken again nor made unused', async () => {
    const owner = await customer('up-take');
    const other = await customer('up-other');
    const { id } = await uploads.store(owner, 'loan_repayment_proof', async () => pngImage(64, 64));
    const take = (who: number, usedFor: string) =>
      t.db.transaction((tx) =>
        uploads.takeInTx(tx, who, [{ path: 'proof', id, purpose: 'loan_repayment_proof' }], usedFor),
      );
    expect(await refusal(take(other, 'repayment:1'))).toEqual({ code: Code.NOT_FOUND, data: null });
    // A transaction that fails after the take leaves the upload unused.
    await expect(
      t.db.transaction(async (tx) => {
        await uploads.takeInTx(
          tx,
          owner,
          [{ path: 'proof', id, purpose: 'loan_repayment_proof' }],
          'repayment:2',
        );
        throw new Error('the feature failed');
      }),
    ).rejects.toThrow('the feature failed');
    expect((await take(owner, 'repayment:3')).map((r) => r.id)).toEqual([id]);
    expect(await refusal(take(owner, 'repayment:4'))).toEqual({
      code: Code.INVALID_INPUT,
      data: [{ path: 'proof', issue: 'used' }],
    });
    await expect(
      t.db.query('UPDATE uploads SET used_for = NULL, used_at = NULL WHERE id = $1', [id]),
    ).rejects.toThrow(/used and cannot change/);
    const [row] = await t.db.query<{ used_for: string }>('SELECT used_for FROM uploads WHERE id = $1', [id]);
    expect(row?.used_for).toBe('repayment:3');
  });

  it('serves staff only the purposes their role reads', async () => {
    const owner = await customer('up-staff');
    const kyc = await uploads.store(owner, 'kyc_in_hand', async () => pngImage(64, 64));
    const fund = await uploads.store(owner, 'fund_proof', async () => pngImage(64, 64));
    expect(await uploads.fileForStaff('compliance', kyc.id)).toMatchObject({ upload: { ownerId: owner } });
    expect(await uploads.fileForStaff('admin', kyc.id)).not.toBeNull();
    expect(await uploads.fileForStaff('finance', kyc.id)).toBeNull();
    expect(await uploads.fileForStaff('support', kyc.id)).toBeNull();
    expect(await uploads.fileForStaff('finance', fund.id)).not.toBeNull();
    expect(await uploads.fileForStaff('compliance', fund.id)).toBeNull();
  });

  it('counts uploads per customer before reading a byte: the 31st in an hour is 10027', async () => {
    const limited = new UploadsService({ db: t.db, storage, rateLimiter: createMemoryRateLimiter() });
    const owner = await customer('up-limit');
    let reads = 0;
    const read = async () => {
      reads++;
      throw new ApiError(Code.FILE_TOO_LARGE, {});
    };
    for (let i = 0; i < UPLOAD_LIMIT.limit; i++)
      expect((await refusal(limited.store(owner, 'kyc_front', read))) as { code: number }).toMatchObject({
        code: Code.FILE_TOO_LARGE,
      });
    expect(await refusal(limited.store(owner, 'kyc_front', read))).toMatchObject({
      code: Code.TOO_MANY_REQUESTS,
    });
    expect(reads).toBe(UPLOAD_LIMIT.limit);
  });
});

describe(`migration 0021 on ${TEST_DB}`, () => {
  it('turns the KYC photos stored before it into taken uploads under the same ids', async () => {
    const t = await openTestDatabase({ migrated: false });
    try {
      const all = readMigrations();
      await migrate(
        t.db,
        all.filter((m) => m.version < '0021'),
      );
      const [user] = await t.db.query<{ id: string }>(
        "INSERT INTO users (user_name, password_hash) VALUES ('legacy', '$argon2id$x') RETURNING id",
      );
      const [submission] = await t.db.query<{ id: string }>(
        `INSERT INTO kyc_submissions (user_id, first_name, last_name, birthdate, sex, country, address, phone_code,
           phone_number, document_type, due_at)
         VALUES ($1, 'Ada', 'Lovelace', '1990-01-01', 'female', 'GB', '1 Some Street', '+44', '2079460000', 'passport',
           now()) RETURNING id`,
        [user?.id],
      );
      const sides = ['front', 'back', 'inHand'];
      for (const [i, side] of sides.entries())
        await t.db.query(
          `INSERT INTO kyc_photos (id, submission_id, side, storage_key, content_type, width, height)
           VALUES ($1, $2, $3, $4, 'image/png', 320, 200)`,
          [`${i}`.repeat(24), submission?.id, side, `${i}`.repeat(32)],
        );
      await migrate(t.db, all);
      const rows = await t.db.query<{
        id: string;
        owner_id: string;
        purpose: string;
        storage_key: string;
        used_for: string;
        size: string | null;
      }>('SELECT id, owner_id, purpose, storage_key, used_for, size FROM uploads ORDER BY id');
      expect(rows).toEqual(
        ['kyc_front', 'kyc_back', 'kyc_in_hand'].map((purpose, i) => ({
          id: `${i}`.repeat(24),
          owner_id: String(user?.id),
          purpose,
          storage_key: `${i}`.repeat(32),
          used_for: `kyc:${submission?.id}`,
          size: null,
        })),
      );
      const photos = await t.db.query('SELECT upload_id, side FROM kyc_photos ORDER BY upload_id');
      expect(photos).toEqual(sides.map((side, i) => ({ upload_id: `${i}`.repeat(24), side })));
    } finally {
      await t.close();
    }
  });
});
