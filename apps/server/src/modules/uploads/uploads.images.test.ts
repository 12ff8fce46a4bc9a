import { UPLOAD_PURPOSES } from '@swx/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  appended,
  hasGps,
  j2kCodestream,
  jp2Image,
  jpegWithGps,
  oversizePng,
  pdfDocument,
  pngImage,
  zipOf,
} from '../../../../../tests/support/images.ts';
import { checkImage, ImageRefusal, sniff } from './uploads.images.ts';

// The smallest limit of any purpose: an identity photo's 2 MB.
const LIMIT = UPLOAD_PURPOSES.kyc_front.maxBytes;

async function refusal(bytes: Buffer): Promise<string> {
  try {
    await checkImage(bytes, LIMIT);
  } catch (error) {
    if (error instanceof ImageRefusal) return error.issue;
    throw error;
  }
  return 'accepted';
}

describe('upload image checks, on real image files', () => {
  it('accepts a PNG and re-encodes it as a PNG of the same size', async () => {
    const png = await pngImage(320, 200);
    const checked = await checkImage(png, LIMIT);
    expect(checked).toMatchObject({ format: 'png', contentType: 'image/png', width: 320, height: 200 });
    expect((await sharp(checked.bytes).metadata()).format).toBe('png');
  });

  it('accepts a JPEG and strips its EXIF and GPS', async () => {
    const jpeg = await jpegWithGps();
    expect(await hasGps(jpeg)).toBe(true);
    expect(jpeg.includes(Buffer.from('exif-owner-marker'))).toBe(true);
    const checked = await checkImage(jpeg, LIMIT);
    expect(checked.contentType).toBe('image/jpeg');
    const meta = await sharp(checked.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(await hasGps(checked.bytes)).toBe(false);
    expect(checked.bytes.includes(Buffer.from('exif-owner-marker'))).toBe(false);
    expect(checked.bytes.includes(Buffer.from('TestPhone'))).toBe(false);
  });

  it('accepts JPEG 2000 (a JP2 file and a raw codestream), decoded and re-encoded as PNG', async () => {
    const jp2 = await jp2Image(160, 120);
    expect(sniff(jp2)).toBe('jp2');
    const checked = await checkImage(jp2, LIMIT);
    expect(checked).toMatchObject({ format: 'jp2', contentType: 'image/png', width: 160, height: 120 });
    // Lossless JPEG 2000: the decoded pixels are the ones encoded.
    const original = await sharp(await pngImage(160, 120, 3))
      .raw()
      .toBuffer();
    const { data } = await sharp(checked.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data.equals(original)).toBe(true);
    const raw = await checkImage(await j2kCodestream(64, 64), LIMIT);
    expect(raw).toMatchObject({ format: 'jp2', width: 64, height: 64 });
  });

  it('refuses polyglots: a PNG with a ZIP or HTML appended, script inside a JPEG, data after a JP2', async () => {
    const png = await pngImage();
    expect(await refusal(appended(png, zipOf('evil.html', '<b>hi</b>')))).toBe('polyglot');
    expect(await refusal(appended(png, '<html><script>alert(1)</script></html>'))).toBe('polyglot');
    const jpeg = await jpegWithGps();
    expect(await refusal(appended(jpeg, zipOf('a.txt', 'zip')))).toBe('polyglot');
    // A comment segment (COM, 0xFFFE) right after SOI carrying a script: inside the structure.
    const script = Buffer.from('<script>alert(document.cookie)</script>');
    const com = Buffer.alloc(4);
    com.writeUInt16BE(0xfffe, 0);
    com.writeUInt16BE(script.length + 2, 2);
    expect(await refusal(Buffer.concat([jpeg.subarray(0, 2), com, script, jpeg.subarray(2)]))).toBe(
      'polyglot',
    );
    expect(await refusal(appended(await jp2Image(), 'trailing bytes'))).not.toBe('accepted');
  });

  it('refuses a file that starts like a JPEG but is something else', async () => {
    const fake = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<html>not a photo</html>'),
    ]);
    expect(await refusal(fake)).not.toBe('accepted');
    const cut = (await jpegWithGps()).subarray(0, 400);
    expect(await refusal(cut)).toBe('corrupt');
  });

  it('refuses a PDF, a ZIP and a GIF whatever their name says', async () => {
    expect(await refusal(pdfDocument())).toBe('type');
    expect(await refusal(zipOf('photo.jpg', 'not an image'))).toBe('type');
    const gif = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#888' } })
      .gif()
      .toBuffer();
    expect(await refusal(gif)).toBe('type');
  });

  it('refuses a file over 2 MB, a broken CRC and a tiny image', async () => {
    const big = await oversizePng();
    expect(big.length).toBeGreaterThan(LIMIT);
    expect(await refusal(big)).toBe('size');
    const png = Buffer.from(await pngImage());
    png[40] = (png[40] ?? 0) ^ 0xff; // inside IDAT: its CRC no longer matches
    expect(await refusal(png)).toBe('corrupt');
    expect(await refusal(await pngImage(8, 8))).toBe('dimensions');
  });
});
