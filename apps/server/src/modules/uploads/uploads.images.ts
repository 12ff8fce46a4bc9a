import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import type { UploadIssue } from '@swx/contract';
import type { Metadata } from 'sharp';

/**
 * Upload checks by content (DESIGN §3 Files, spec §5): the bytes, never the file name or the
 * declared type, decide. The uploads service runs them on every file before it is stored. An
 * image is accepted when
 *  1. it is within the size limit of its purpose;
 *  2. its magic bytes say JPEG, JPEG 2000 (JP2 file or raw codestream) or PNG;
 *  3. its structure, walked marker by marker (JPEG), chunk by chunk with CRCs (PNG) or box by box
 *     (JP2), ends exactly where the file ends: nothing appended (a ZIP, HTML, a script);
 *  4. it carries no markup or archive hidden inside (HTML/script/PHP/PDF signatures, a ZIP's
 *     local header and end record);
 *  5. it decodes as the format its bytes claim, within pixel limits;
 * and it is then re-encoded from its pixels, so EXIF, GPS, comments, ICC and any other metadata
 * are gone: JPEG stays JPEG (orientation applied first), PNG stays PNG, JPEG 2000 becomes PNG.
 *
 * Decoding: sharp (libvips) for JPEG and PNG. sharp's prebuilt libvips has no JPEG 2000 decoder
 * (no OpenJPEG), so JPEG 2000 is decoded by `jpeg2000`, pdf.js's pure-JavaScript JPX decoder, in
 * a worker thread (one at a time, 20 s at most) after the header has been read here and its
 * dimensions checked; sharp then encodes the pixels as PNG.
 */
export type ImageFormat = 'jpeg' | 'png' | 'jp2';
export type CheckedImage = {
  format: ImageFormat;
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
};

/** Why an image was refused: a content issue of the contract, or over the size limit. */
export type ImageIssue = UploadIssue | 'size';

export class ImageRefusal extends Error {
  readonly issue: ImageIssue;
  constructor(issue: ImageIssue, detail = '') {
    super(`image refused: ${issue}${detail ? ` (${detail})` : ''}`);
    this.issue = issue;
  }
}

/** Larger than any phone photo of a document; bounds the memory a decode may take. */
export const MAX_PIXELS = 40_000_000;
export const MAX_SIDE = 12_000;
export const MIN_SIDE = 32;

const JP2_SIGNATURE = Buffer.from('0000000c6a5020200d0a870a', 'hex');
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

/** Whether the bytes start as a PDF document does (`%PDF-1.`): uploads.pdf.ts checks the rest. */
export const isPdf = (b: Uint8Array) =>
  b.length >= 8 && Buffer.from(b.buffer, b.byteOffset, 8).toString('latin1').startsWith('%PDF-1.');

/** sharp (libvips), loaded when the first picture is checked: a start does not spend its time on it. */
const sharpModule = () => import('sharp').then((loaded) => loaded.default);

/** The format the first bytes name, or null. */
export function sniff(bytes: Uint8Array): ImageFormat | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (b.length >= 12 && b.subarray(0, 12).equals(JP2_SIGNATURE)) return 'jp2';
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0x4f && b[2] === 0xff && b[3] === 0x51) return 'jp2';
  return null;
}

/**
 * The offset where a JPEG's EOI marker ends. Segments are walked by their lengths; after each
 * start-of-scan the entropy-coded data runs to the next marker that is neither a stuffed 0xFF00
 * nor a restart marker. Throws 'corrupt' when the structure breaks or EOI never comes.
 */
export function jpegEnd(b: Buffer): number {
  let pos = 2;
  let sawFrame = false;
  for (let segments = 0; segments < 10_000; segments++) {
    if (pos + 1 >= b.length || b[pos] !== 0xff) throw new ImageRefusal('corrupt', 'jpeg marker expected');
    while (b[pos + 1] === 0xff && pos + 2 < b.length) pos++; // fill bytes
    const marker = b[pos + 1] as number;
    pos += 2;
    if (marker === 0xd9) {
      if (!sawFrame) throw new ImageRefusal('corrupt', 'jpeg without a frame');
      return pos;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (pos + 2 > b.length) throw new ImageRefusal('corrupt', 'jpeg segment cut');
    const length = b.readUInt16BE(pos);
    if (length < 2 || pos + length > b.length) throw new ImageRefusal('corrupt', 'jpeg segment length');
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      sawFrame = true;
    pos += length;
    if (marker === 0xda) {
      if (!sawFrame) throw new ImageRefusal('corrupt', 'jpeg scan before frame');
      while (pos + 1 < b.length) {
        if (b[pos] === 0xff) {
          const next = b[pos + 1] as number;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
            pos += 2;
            continue;
          }
          if (next === 0xff) {
            pos += 1;
            continue;
          }
          break;
        }
        pos++;
      }
    }
  }
  throw new ImageRefusal('corrupt', 'jpeg has no end');
}

/** The offset where a PNG's IEND chunk ends; every chunk's CRC is checked on the way. */
export function pngEnd(b: Buffer): number {
  let pos = 8;
  for (let chunks = 0; chunks < 100_000; chunks++) {
    if (pos + 12 > b.length) throw new ImageRefusal('corrupt', 'png chunk cut');
    const length = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (!/^[A-Za-z]{4}$/.test(type) || length > 0x7fffffff || pos + 12 + length > b.length)
      throw new ImageRefusal('corrupt', 'png chunk header');
    if (chunks === 0 && type !== 'IHDR') throw new ImageRefusal('corrupt', 'png must start with IHDR');
    const crc = b.readUInt32BE(pos + 8 + length);
    if (crc32(b.subarray(pos + 4, pos + 8 + length)) !== crc) throw new ImageRefusal('corrupt', 'png crc');
    pos += 12 + length;
    if (type === 'IEND') return pos;
  }
  throw new ImageRefusal('corrupt', 'png has no end');
}

type Jp2Layout = { end: number; codestream: Buffer };

/** Walks a JP2 file's boxes (or takes a raw codestream) and finds the codestream. */
export function jp2Layout(b: Buffer): Jp2Layout {
  if (b[0] === 0xff && b[1] === 0x4f) return { end: codestreamEnd(b), codestream: b };
  let pos = 0;
  let codestream: Buffer | null = null;
  let sawHeader = false;
  for (let boxes = 0; boxes < 1000 && pos < b.length; boxes++) {
    if (pos + 8 > b.length) throw new ImageRefusal('corrupt', 'jp2 box cut');
    let length = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    let header = 8;
    if (length === 1) {
      if (pos + 16 > b.length) throw new ImageRefusal('corrupt', 'jp2 box cut');
      const big = b.readBigUInt64BE(pos + 8);
      if (big > BigInt(b.length)) throw new ImageRefusal('corrupt', 'jp2 box length');
      length = Number(big);
      header = 16;
    } else if (length === 0) {
      length = b.length - pos; // the last box runs to the end of the file
    }
    if (length < header || pos + length > b.length) throw new ImageRefusal('corrupt', 'jp2 box length');
    if (boxes === 0 && type !== 'jP  ') throw new ImageRefusal('corrupt', 'jp2 signature box');
    if (boxes === 1 && type !== 'ftyp') throw new ImageRefusal('corrupt', 'jp2 file type box');
    if (type === 'jp2h') sawHeader = true;
    if (type === 'jp2c') {
      if (codestream) throw new ImageRefusal('corrupt', 'jp2 has two codestreams');
      codestream = b.subarray(pos + header, pos + length);
      if (codestreamEnd(codestream) !== codestream.length)
        throw new ImageRefusal('polyglot', 'bytes after the jp2 codestream');
    }
    pos += length;
  }
  if (!sawHeader || !codestream) throw new ImageRefusal('corrupt', 'jp2 without header or codestream');
  return { end: pos, codestream };
}

/** A codestream starts with SOC and SIZ and ends with EOC (0xFFD9) as its last two bytes. */
function codestreamEnd(c: Buffer): number {
  if (c.length < 4 || c[0] !== 0xff || c[1] !== 0x4f || c[2] !== 0xff || c[3] !== 0x51)
    throw new ImageRefusal('corrupt', 'jpeg 2000 codestream start');
  const last = c.lastIndexOf(Buffer.from([0xff, 0xd9]));
  if (last < 0) throw new ImageRefusal('corrupt', 'jpeg 2000 codestream has no end');
  return last + 2;
}

/** Width, height and components from a codestream's SIZ segment. */
export function codestreamSize(c: Buffer): { width: number; height: number; components: number } {
  if (c.length < 42) throw new ImageRefusal('corrupt', 'jpeg 2000 SIZ cut');
  const xsiz = c.readUInt32BE(8);
  const ysiz = c.readUInt32BE(12);
  const xo = c.readUInt32BE(16);
  const yo = c.readUInt32BE(20);
  const components = c.readUInt16BE(40);
  return { width: xsiz - xo, height: ysiz - yo, components };
}

const MARKUP = ['<script', '<html', '<?php', '<!doctype', '<iframe', '<body', '<svg', 'javascript:'].map(
  (s) => Buffer.from(s, 'latin1'),
);

/**
 * Markup or an archive inside the image. Signatures are long enough (or paired, for ZIP) that
 * compressed pixel data does not match them by chance in practice.
 */
export function hiddenContent(b: Buffer): string | null {
  const lower = Buffer.allocUnsafe(b.length);
  for (let i = 0; i < b.length; i++) {
    const c = b[i] as number;
    lower[i] = c >= 0x41 && c <= 0x5a ? c + 32 : c;
  }
  for (const signature of MARKUP) {
    // '<svg' alone is short: count it only when it opens a tag (followed by space or '>').
    let at = lower.indexOf(signature);
    while (at >= 0) {
      const next = lower[at + signature.length];
      if (signature.length > 4 || next === 0x20 || next === 0x3e || next === 0x0a)
        return signature.toString();
      at = lower.indexOf(signature, at + 1);
    }
  }
  if (b.includes(Buffer.from('%PDF-', 'latin1'))) return '%PDF-';
  const zipLocal = b.includes(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const zipEnd = b.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (zipLocal && zipEnd) return 'zip';
  return null;
}

/** JPEG 2000 decodes run one at a time, each in a worker thread with a time limit. */
export const JP2_DECODE_TIMEOUT_MS = 20_000;
let jp2Queue: Promise<unknown> = Promise.resolve();

function decodeInWorker(
  codestream: Buffer,
): Promise<{ pixels: Buffer; width: number; height: number; channels: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./uploads.jp2.worker.ts', import.meta.url), {
      workerData: { codestream: new Uint8Array(codestream) },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new ImageRefusal('corrupt', 'jpeg 2000 decode took too long'));
    }, JP2_DECODE_TIMEOUT_MS);
    worker.once(
      'message',
      (message: {
        ok: boolean;
        message?: string;
        width: number;
        height: number;
        channels: number;
        pixels: Uint8Array;
      }) => {
        clearTimeout(timer);
        void worker.terminate();
        if (!message.ok) reject(new ImageRefusal('corrupt', message.message ?? 'jpeg 2000'));
        else
          resolve({
            pixels: Buffer.from(message.pixels.buffer, message.pixels.byteOffset, message.pixels.byteLength),
            width: message.width,
            height: message.height,
            channels: message.channels,
          });
      },
    );
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(new ImageRefusal('corrupt', error.message));
    });
  });
}

/** Decodes a JPEG 2000 codestream to interleaved 8-bit pixels (header checked first). */
async function decodeJp2(
  codestream: Buffer,
): Promise<{ pixels: Buffer; width: number; height: number; channels: 1 | 3 | 4 }> {
  const size = codestreamSize(codestream);
  checkDimensions(size.width, size.height);
  if (![1, 3, 4].includes(size.components)) throw new ImageRefusal('corrupt', 'jpeg 2000 components');
  const turn = jp2Queue.then(() => decodeInWorker(codestream));
  jp2Queue = turn.catch(() => undefined);
  const decoded = await turn;
  if (decoded.width !== size.width || decoded.height !== size.height || decoded.channels !== size.components)
    throw new ImageRefusal('corrupt', 'jpeg 2000 size mismatch');
  return { ...decoded, channels: decoded.channels as 1 | 3 | 4 };
}

function checkDimensions(width: number, height: number): void {
  if (!(width >= MIN_SIDE && height >= MIN_SIDE && width <= MAX_SIDE && height <= MAX_SIDE))
    throw new ImageRefusal('dimensions', `${width}x${height}`);
  if (width * height > MAX_PIXELS) throw new ImageRefusal('dimensions', `${width}x${height}`);
}

/** Runs every check and re-encodes the image without metadata; throws ImageRefusal. */
export async function checkImage(input: Uint8Array, maxBytes: number): Promise<CheckedImage> {
  const b = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (b.length > maxBytes) throw new ImageRefusal('size', `${b.length} bytes`);
  const format = sniff(b);
  if (!format) throw new ImageRefusal('type');
  let end: number;
  let jp2: Jp2Layout | null = null;
  if (format === 'jpeg') end = jpegEnd(b);
  else if (format === 'png') end = pngEnd(b);
  else {
    jp2 = jp2Layout(b);
    end = jp2.end;
  }
  if (end !== b.length) throw new ImageRefusal('polyglot', `${b.length - end} bytes after the image`);
  const hidden = hiddenContent(b);
  if (hidden) throw new ImageRefusal('polyglot', hidden);
  const sharp = await sharpModule();

  if (jp2) {
    const decoded = await decodeJp2(jp2.codestream);
    const bytes = await sharp(decoded.pixels, {
      raw: { width: decoded.width, height: decoded.height, channels: decoded.channels },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    return { format, bytes, contentType: 'image/png', width: decoded.width, height: decoded.height };
  }

  const options = { failOn: 'error', limitInputPixels: MAX_PIXELS } as const;
  let meta: Metadata;
  try {
    meta = await sharp(b, options).metadata();
  } catch (error) {
    throw new ImageRefusal('corrupt', (error as Error).message);
  }
  if (meta.format !== format) throw new ImageRefusal('type', `decodes as ${meta.format}`);
  checkDimensions(meta.width ?? 0, meta.height ?? 0);
  try {
    // rotate() applies the EXIF orientation before the metadata goes; sharp writes none back.
    const pipeline = sharp(b, options).rotate();
    const out =
      format === 'jpeg'
        ? await pipeline.jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true })
        : await pipeline.png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
    return {
      format,
      bytes: out.data,
      contentType: format === 'jpeg' ? 'image/jpeg' : 'image/png',
      width: out.info.width,
      height: out.info.height,
    };
  } catch (error) {
    throw new ImageRefusal('corrupt', (error as Error).message);
  }
}
