import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARTIFACT_PATH, compileTestUsdt } from './token.compile.ts';

describe('the test token artifact', () => {
  it('is exactly what the pinned compiler makes of TestUSDT.sol (node scripts/chain-compile.mjs)', () => {
    const committed = JSON.parse(readFileSync(ARTIFACT_PATH, 'utf8')) as unknown;
    expect(committed).toEqual(compileTestUsdt());
  }, 60_000);
});
