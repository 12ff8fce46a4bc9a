import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/**
 * Real image files for upload tests, made in the test: PNG and JPEG by sharp (the JPEG with EXIF
 * and GPS tags, to prove they are stripped), JPEG 2000 by OpenJPEG (WebAssembly build, a
 * devDependency) wrapped in a JP2 file, plus the things that must be refused: polyglots, a PDF or
 * ZIP named .jpg, oversize files.
 */

/** A photo-like picture: a gradient with a block of colour, so encoders have real content. */
function pixels(width: number, height: number, seed: number): Buffer {
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const block = x > width / 3 && x < (2 * width) / 3 && y > height / 3 && y < (2 * height) / 3;
      out[i] = block ? 30 : (x * 255) / width;
      out[i + 1] = block ? 90 + seed * 20 : (y * 255) / height;
      out[i + 2] = (seed * 60 + x + y) % 256;
    }
  return out;
}

export async function pngImage(width = 320, height = 200, seed = 1): Promise<Buffer> {
  return sharp(pixels(width, height, seed), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A JPEG carrying EXIF (make, model, owner) and GPS coordinates, like a phone photo. */
export async function jpegWithGps(width = 320, height = 200, seed = 2): Promise<Buffer> {
  return sharp(pixels(width, height, seed), { raw: { width, height, channels: 3 } })
    .withExif({
      IFD0: { Make: 'TestPhone', Model: 'X1', Copyright: 'exif-owner-marker' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Does this file carry an EXIF block with a GPS IFD pointer (tag 0x8825, either byte order)? */
export async function hasGps(bytes: Buffer): Promise<boolean> {
  const exif = (await sharp(bytes).metadata()).exif;
  if (!exif) return false;
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}

type J2kEncoder = {
  getDecodedBuffer(info: {
    width: number;
    height: number;
    bitsPerSample: number;
    componentCount: number;
    isSigned: boolean;
  }): Uint8Array;
  setQuality(lossless: boolean, quality: number): void;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
};
type OpenJpeg = { J2KEncoder: new () => J2kEncoder };
let openjpeg: Promise<OpenJpeg> | null = null;

/** A raw JPEG 2000 codestream (SOC … EOC), lossless, from OpenJPEG. */
export async function j2kCodestream(width = 160, height = 120, seed = 3): Promise<Buffer> {
  openjpeg ??= (
    createRequire(import.meta.url)('@cornerstonejs/codec-openjpeg/wasmjs') as () => Promise<OpenJpeg>
  )();
  const codec = await openjpeg;
  const encoder = new codec.J2KEncoder();
  encoder
    .getDecodedBuffer({ width, height, bitsPerSample: 8, componentCount: 3, isSigned: false })
    .set(pixels(width, height, seed));
  encoder.setQuality(true, 0);
  encoder.encode();
  return Buffer.from(encoder.getEncodedBuffer());
}

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** A JP2 file (ISO/IEC 15444-1 annex I): signature, file type, header (ihdr, colr), codestream. */
export async function jp2Image(width = 160, height = 120, seed = 3): Promise<Buffer> {
  const codestream = await j2kCodestream(width, height, seed);
  const ihdr = Buffer.alloc(14);
  ihdr.writeUInt32BE(height, 0);
  ihdr.writeUInt32BE(width, 4);
  ihdr.writeUInt16BE(3, 8);
  ihdr[10] = 7; // 8 bits, unsigned
  ihdr[11] = 7; // compression: JPEG 2000
  const colr = Buffer.from([1, 0, 0, 0, 0, 0, 16]); // enumerated sRGB
  return Buffer.concat([
    Buffer.from('0000000c6a5020200d0a870a', 'hex'),
    box(
      'ftyp',
      Buffer.concat([Buffer.from('jp2 ', 'latin1'), Buffer.alloc(4), Buffer.from('jp2 ', 'latin1')]),
    ),
    box('jp2h', Buffer.concat([box('ihdr', ihdr), box('colr', colr)])),
    box('jp2c', codestream),
  ]);
}

/** A stored (uncompressed) ZIP archive of one file, made by hand. */
export function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

/** A small but well-formed PDF. */
export function pdfDocument(): Buffer {
  const objects = [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\n',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const object of objects) {
    offsets.push(body.length);
    body += object;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A PNG over 2 MB: noise does not compress. */
export async function oversizePng(): Promise<Buffer> {
  const width = 1000;
  const height = 800;
  const noise = Buffer.alloc(width * height * 3);
  let x = 12345;
  for (let i = 0; i < noise.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    noise[i] = x >>> 24;
  }
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** The same bytes with something appended after the image's end. */
export function appended(image: Buffer, extra: Buffer | string): Buffer {
  return Buffer.concat([image, typeof extra === 'string' ? Buffer.from(extra) : extra]);
}
