import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The focus indicator stands out on every background it can appear on (WCAG 1.4.11, 3:1): the
 * ring (`--focus-ring`) or its halo (`--focus-ring-halo`, between the control and the ring) reaches
 * 3:1 against each colour token any stylesheet of either app paints a background with, and the
 * two differ from each other by 3:1 as well.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const tokensText = readFileSync(join(ROOT, 'apps/web/src/styles/tokens.css'), 'utf8').replace(
  /\/\*[\s\S]*?\*\//g,
  '',
);
const TOKENS = new Map(
  [...tokensText.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1] ?? '', (m[2] ?? '').trim()]),
);

type Rgba = [number, number, number, number];

function parseColour(value: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(value);
  if (hex?.[1]) {
    const n = Number.parseInt(hex[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  const rgb = /^rgb\((\d+) (\d+) (\d+)(?: \/ (\d+)%)?\)$/.exec(value);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] ? Number(rgb[4]) / 100 : 1];
  throw new Error(`not a colour this test reads: ${value}`);
}

/** A token's colour, through its chain of `var()`s; a translucent one laid over `under`. */
function colour(token: string, under?: Rgba): Rgba {
  let value = TOKENS.get(token);
  for (let hops = 0; value?.startsWith('var('); hops++) {
    if (hops > 10) throw new Error(`a loop of var()s at ${token}`);
    value = TOKENS.get(value.slice(4, -1).trim());
  }
  if (value === undefined) throw new Error(`no token ${token}`);
  const [r, g, b, a] = parseColour(value);
  if (a === 1) return [r, g, b, 1];
  const [ur, ug, ub] = under ?? colour('--surface');
  return [r * a + ur * (1 - a), g * a + ug * (1 - a), b * a + ub * (1 - a), 1];
}

function luminance([r, g, b]: Rgba): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function stylesheets(): string[] {
  return ['apps/web/src', 'apps/admin/src'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.css'))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))),
  );
}

/** Every colour token some stylesheet paints a background with (gradients' stops included). */
function backgroundTokens(): string[] {
  const found = new Set<string>();
  for (const file of stylesheets()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [, value = ''] of text.matchAll(/background(?:-color)?:\s*([^;]+);/g))
      for (const [, token = ''] of value.matchAll(/var\((--[\w-]+)\)/g)) found.add(token);
  }
  return [...found].sort();
}

describe('focus ring', () => {
  const ring = colour('--focus-ring');
  const halo = colour('--focus-ring-halo');

  it('measures contrast as WCAG does (the check itself can fail)', () => {
    expect(contrast(parseColour('#ffffff'), parseColour('#000000'))).toBeCloseTo(21, 5);
    // The old ring, amber on white: 2.15:1.
    expect(contrast(parseColour('#f59e0b'), parseColour('#ffffff'))).toBeCloseTo(2.15, 2);
  });

  it('is drawn from the two tokens by both apps', () => {
    for (const file of ['apps/web/src/styles/base.css', 'apps/admin/src/admin.css']) {
      const rule = /:focus-visible\s*\{([^}]*)\}/.exec(readFileSync(join(ROOT, file), 'utf8'))?.[1] ?? '';
      expect(rule, file).toMatch(/outline:\s*3px solid var\(--focus-ring\)/);
      expect(rule, file).toMatch(/box-shadow:\s*0 0 0 2px var\(--focus-ring-halo\)/);
    }
  });

  it('has a ring and a halo 3:1 apart', () => {
    expect(contrast(ring, halo)).toBeGreaterThanOrEqual(3);
  });

  it('stands 3:1 against every background colour token, by its ring or its halo', () => {
    const backgrounds = backgroundTokens();
    expect(backgrounds).toEqual(expect.arrayContaining(['--surface', '--bg', '--footer-bg', '--brand']));
    const weak = backgrounds
      .map((token) => {
        const bg = colour(token);
        return { token, ring: contrast(ring, bg), halo: contrast(halo, bg) };
      })
      .filter((row) => Math.max(row.ring, row.halo) < 3);
    expect(weak).toEqual([]);
  });

  it('on the dark footer and the welcome board, stands 3:1 by its outer ring, which meets the surface', () => {
    const darkRing = colour('--focus-ring-on-dark');
    const darkHalo = colour('--focus-ring-halo-on-dark');
    expect(contrast(darkRing, darkHalo)).toBeGreaterThanOrEqual(3);
    const weak = ['--footer-bg', '--footer-hover', '--brand', '--brand-deep']
      .map((token) => ({ token, ring: contrast(darkRing, colour(token)) }))
      .filter((row) => row.ring < 3);
    expect(weak).toEqual([]);
    // The halo stands against what it surrounds there: the light buttons of the board.
    expect(contrast(darkHalo, colour('--surface'))).toBeGreaterThanOrEqual(3);
    const shell = readFileSync(join(ROOT, 'apps/web/src/shell/shell.css'), 'utf8');
    const rule = /\.site-footer :focus-visible,[^{]*\{([^}]*)\}/.exec(shell)?.[1] ?? '';
    expect(rule).toMatch(/outline-color:\s*var\(--focus-ring-on-dark\)/);
    expect(rule).toMatch(/box-shadow:\s*0 0 0 2px var\(--focus-ring-halo-on-dark\)/);
  });
});
