import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './audit.service.ts';

/** The definition canonicalJson is written out from: JSON.stringify with a sorting replacer. */
function byReplacer(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return v;
  });
}

describe('canonicalJson', () => {
  it('writes exactly what the sorting replacer writes, for any value', () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('0', '1', '10', '9', '01', '-1', '4294967295', 'a', 'B', '__proto__', 'toJSON'),
    );
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.double(),
        fc.integer(),
        fc.bigInt(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.date({ noInvalidDate: true }),
        fc.array(tie('any'), { maxLength: 5 }),
        fc.dictionary(key, tie('any'), { maxKeys: 6 }),
      ),
    })).any;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(byReplacer(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts keys, names bigints as text and lists index-like keys first, as a JS object does', () => {
    expect(canonicalJson({ b: 1n, a: [{ z: null, y: undefined }], 10: 'x', 9: 'y' })).toBe(
      '{"9":"y","10":"x","a":[{"z":null}],"b":"1"}',
    );
  });
});
