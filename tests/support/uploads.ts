import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CUSTOMER_API_BASE, UPLOAD_FIELD, type UploadPurpose } from '@swx/contract';

export type UploadAnswer = { status: number; code: number; msg: string; data: unknown };

/**
 * Uploads one file as the browser's form does: multipart/form-data, one part named "file" with a
 * file name and a declared type (which the server ignores: the bytes decide).
 */
export async function uploadByApi(
  baseUrl: string,
  token: string,
  purpose: UploadPurpose | string,
  bytes: Buffer,
  name = 'photo.png',
  type = 'image/png',
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append(UPLOAD_FIELD, new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${baseUrl}${CUSTOMER_API_BASE}/upload/${purpose}`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  const body = (await response.json()) as { code: number; msg: string; data: unknown };
  return { status: response.status, ...body };
}

/** The id of an upload that must be accepted. */
export async function uploadedId(
  baseUrl: string,
  token: string,
  purpose: UploadPurpose,
  bytes: Buffer,
): Promise<string> {
  const answer = await uploadByApi(baseUrl, token, purpose, bytes);
  if (answer.code !== 200) throw new Error(`upload answered ${answer.code} ${JSON.stringify(answer.data)}`);
  return (answer.data as { id: string }).id;
}

/** The files a server keeps in its private storage (DATA_DIR/files), without their .json sidecars. */
export function storedFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'files'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      /[a-f0-9]{32}$/.test(f),
    );
  } catch {
    return [];
  }
}

/**
 * A customer's three identity photos, uploaded as the verification screen does: a JPEG carrying
 * EXIF and GPS, a PNG and a JPEG 2000 file. Answers their upload ids by side, for identification.
 */
export async function uploadKycPhotos(
  baseUrl: string,
  token: string,
): Promise<{ front: string; back: string; inHand: string }> {
  const { jp2Image, jpegWithGps, pngImage } = await import('./images.ts');
  return {
    front: await uploadedId(baseUrl, token, 'kyc_front', await jpegWithGps(640, 400)),
    back: await uploadedId(baseUrl, token, 'kyc_back', await pngImage(640, 400)),
    inHand: await uploadedId(baseUrl, token, 'kyc_in_hand', await jp2Image(320, 240)),
  };
}
