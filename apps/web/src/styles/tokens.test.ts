import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One set of design tokens: a colour is written only in styles/tokens.css. Every stylesheet,
 * component and page of the customer app and the back office names a token instead; this test
 * reads them all and fails on a raw colour (hex, rgb/hsl and the other colour functions, or a CSS
 * colour name) anywhere else.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const TOKENS = 'apps/web/src/styles/tokens.css';
const SCANNED = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/service.html',
  'apps/web/public',
  'apps/admin',
];

/** The CSS colour keywords (CSS Color 4), besides transparent and currentcolor. */
const NAMED = new Set(
  `aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood
  cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray
  darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
  darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue
  firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew
  hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
  lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
  lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
  mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
  midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
  palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
  rebeccapurple red rosybrown royalblue saddlebrown salmon seagreen seashell sienna silver skyblue slateblue
  slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke
  yellow yellowgreen`.split(/\s+/),
);
const FUNCTION = /\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i;
const HEX = /#[0-9a-f]{3,8}(?![\w-])/i;
/** Properties (CSS) and attributes or style keys (TSX) whose value is a colour. */
const COLOUR_KEYS =
  /(?:^|[\s;{,"'])(?:color|background(?:-color|Color)?|border(?:-[a-z-]+)?(?:-color)?|outline(?:-color)?|fill|stroke|stop-?[cC]olor|accent-?[cC]olor|caret-?[cC]olor|text-decoration(?:-color)?|box-shadow|boxShadow|(?:upC|downC|textC|c)olor)\s*[:=]\s*\{?\s*['"`]?([^;'"`}]*)/g;

/** The raw colours of a stylesheet: in declaration values, custom properties included. */
function cssColours(text: string): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/"[^"]*"|'[^']*'/g, '""');
  for (const [, value = ''] of code.matchAll(/:\s*([^;{}]+)[;}]/g)) {
    if (HEX.test(value)) found.push(value.trim());
    else if (FUNCTION.test(value)) found.push(value.trim());
    else {
      const words = value.replace(/var\([^)]*\)|--[\w-]+/g, ' ').match(/(?<![\w-])[a-z]+(?![\w-])/gi) ?? [];
      if (words.some((word) => NAMED.has(word.toLowerCase()))) found.push(value.trim());
    }
  }
  return found;
}

/** The raw colours of a component or page: colour strings and colour-valued attributes and styles. */
function codeColours(text: string): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\/|(?<![:"'`])\/\/.*$/gm, '');
  for (const match of code.matchAll(/['"`]([^'"`\n]*)['"`]/g)) {
    const literal = match[1] ?? '';
    if (HEX.test(literal)) found.push(literal);
    else if (FUNCTION.test(literal) && /\d/.test(literal)) found.push(literal);
  }
  for (const [, value = ''] of code.matchAll(COLOUR_KEYS)) {
    const word = value.trim().toLowerCase();
    if (NAMED.has(word)) found.push(value.trim());
  }
  return found;
}

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  try {
    return readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
  } catch {
    return [path];
  }
}

function rawColours(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (file.endsWith('.css')) return cssColours(text);
  if (file.endsWith('.html')) {
    const styles = [...text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>|style="([^"]*)"/g)].map(
      (m) => `x{${m[1] ?? m[2]}}`,
    );
    return [...cssColours(styles.join('\n')), ...codeColours(text.replace(/<[^>]*>/g, ' '))];
  }
  return codeColours(text);
}

const sources = SCANNED.flatMap(filesUnder).filter(
  (file) =>
    /\.(css|tsx?|html|js)$/.test(file) &&
    !/\.test\.tsx?$/.test(file) &&
    !file.includes('/dist/') &&
    !file.includes('node_modules') &&
    !file.endsWith('vite.config.ts') &&
    !/\/locales\//.test(file) &&
    file !== TOKENS,
);

describe('design tokens', () => {
  it('finds a raw colour wherever one could be written (the check itself can fail)', () => {
    expect(cssColours('.a { color: #fff; }')).toHaveLength(1);
    expect(cssColours('.a { border: 1px solid rgb(0 0 0 / 10%); }')).toHaveLength(1);
    expect(cssColours('.a { background: linear-gradient(white, var(--bg)); }')).toHaveLength(1);
    expect(cssColours('.a { --x: hsl(10 20% 30%); }')).toHaveLength(1);
    expect(codeColours(`const c = { textColor: '#374151' };`)).toHaveLength(1);
    expect(codeColours('<rect fill="#ffffff" />')).toHaveLength(1);
    expect(codeColours('<path stroke="white" />')).toHaveLength(1);
    expect(codeColours(`ctx.fillStyle = 'rgba(0, 0, 0, 0.5)';`)).toHaveLength(1);
  });

  it('lets tokens, keywords and look-alikes through', () => {
    expect(
      cssColours('.a { color: var(--white); border: 1px solid transparent; fill: currentColor; }'),
    ).toEqual([]);
    expect(cssColours('.a { grid-template-areas: "start . end"; content: "red"; }')).toEqual([]);
    expect(codeColours(`<a href="#main" className="tan-line">{t('color.red')}</a>`)).toEqual([]);
  });

  it('has no raw colour outside the token file, in the customer app and the back office', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources).toContain('apps/admin/src/admin.css');
    const offenders = sources.flatMap((file) => rawColours(file).map((colour) => `${file}: ${colour}`));
    expect(offenders).toEqual([]);
  });

  it('declares the layer order in the token file, which each page loads first', () => {
    const tokens = readFileSync(join(ROOT, TOKENS), 'utf8');
    expect(tokens).toMatch(/^@layer tokens, base, shell, features;$/m);
    expect(tokens.indexOf('@layer tokens, base, shell, features;')).toBeLessThan(
      tokens.indexOf('@layer tokens {'),
    );
    for (const entry of [
      'apps/web/src/main.tsx',
      'apps/web/src/service/service.ts',
      'apps/admin/src/main.tsx',
    ]) {
      const firstImport = /^import\s+(?:[^'"]*from\s+)?['"]([^'"]+)['"]/m.exec(
        readFileSync(join(ROOT, entry), 'utf8'),
      );
      expect(firstImport?.[1], entry).toMatch(/styles\/tokens\.css$/);
    }
  });
});
