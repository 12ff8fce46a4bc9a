import { encode } from 'uqr';

/** Light modules around the code, as the QR standard asks (4), so phone cameras find its edge. */
export const QR_QUIET_ZONE = 4;

/**
 * A QR code of `text` drawn as one SVG path: `size` is the side in modules including the quiet
 * zone, `path` the dark modules, row by row as runs (`M x y h n v 1 h -n z`). Made in the browser:
 * the secret never leaves the page for an image service.
 */
export function qrPath(text: string): { size: number; path: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  const parts: string[] = [];
  for (let y = 0; y < size; y++) {
    const row = data[y] ?? [];
    let x = 0;
    while (x < size) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x++;
      parts.push(`M${start + QR_QUIET_ZONE} ${y + QR_QUIET_ZONE}h${x - start}v1h-${x - start}z`);
    }
  }
  return { size: size + 2 * QR_QUIET_ZONE, path: parts.join('') };
}
