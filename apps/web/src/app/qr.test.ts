import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { QR_QUIET_ZONE, qrPath } from './qr.ts';

/** Reads the dark modules back out of the path. */
function darkModules(path: string): Set<string> {
  const dark = new Set<string>();
  for (const m of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
    const [x, y, n, back] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
    expect(back).toBe(n);
    for (let i = 0; i < n; i++) dark.add(`${x + i},${y}`);
  }
  return dark;
}

describe('two-step setup QR code', () => {
  const uri =
    'otpauth://totp/SWX:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=SWX&digits=6&period=30';

  it('draws exactly the dark modules of the encoded otpauth URI, inside a quiet zone', () => {
    const { size, path } = qrPath(uri);
    const { data, size: modules } = encode(uri, { ecc: 'M', border: 0 });
    expect(size).toBe(modules + 2 * QR_QUIET_ZONE);
    const drawn = darkModules(path);
    let expected = 0;
    for (let y = 0; y < modules; y++)
      for (let x = 0; x < modules; x++) {
        const isDark = data[y]?.[x] === true;
        if (isDark) expected++;
        expect(drawn.has(`${x + QR_QUIET_ZONE},${y + QR_QUIET_ZONE}`), `${x},${y}`).toBe(isDark);
      }
    expect(drawn.size).toBe(expected);
  });

  it('has the three finder squares a scanner looks for', () => {
    const { size, path } = qrPath(uri);
    const drawn = darkModules(path);
    const q = QR_QUIET_ZONE;
    const inner = size - 2 * q;
    for (const [ox, oy] of [
      [q, q],
      [q + inner - 7, q],
      [q, q + inner - 7],
    ] as const) {
      // 7×7 ring, white ring, 3×3 core.
      for (let i = 0; i < 7; i++) {
        expect(drawn.has(`${ox + i},${oy}`)).toBe(true);
        expect(drawn.has(`${ox + i},${oy + 6}`)).toBe(true);
        expect(drawn.has(`${ox},${oy + i}`)).toBe(true);
        expect(drawn.has(`${ox + 6},${oy + i}`)).toBe(true);
      }
      expect(drawn.has(`${ox + 1},${oy + 1}`)).toBe(false);
      expect(drawn.has(`${ox + 3},${oy + 3}`)).toBe(true);
    }
  });

  it('gives a different code for a different key', () => {
    expect(qrPath(uri).path).not.toBe(qrPath(uri.replace('JBSWY3DP', 'KRSXG5CT')).path);
  });
});
