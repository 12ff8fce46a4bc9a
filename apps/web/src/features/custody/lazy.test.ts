import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * keys.ts holds the elliptic curve and BIP-32 code: no screen loads it before it derives or signs
 * (an `import()` in the handler), so opening a wallet screen does not parse and run it (the restore
 * screen checks words with words.ts alone). A static import of a value from keys.ts in any of the
 * feature's files would put it back into the screens' chunks; a type import costs nothing.
 */
const DIR = import.meta.dirname;
const STATIC_VALUE_IMPORT = /^import\s+(?!type\s)[^;]*?from\s+'\.\/keys\.ts'/m;

describe('the key code is loaded only when needed', () => {
  const files = readdirSync(DIR).filter((f) => /\.tsx?$/.test(f) && !f.includes('.test.') && f !== 'keys.ts');

  it('reads the feature files', () => {
    expect(files).toContain('Restore.tsx');
    expect(files).toContain('routes.ts');
  });

  it.each(files)('%s imports no value of keys.ts statically', (file) => {
    expect(readFileSync(join(DIR, file), 'utf8')).not.toMatch(STATIC_VALUE_IMPORT);
  });
});
