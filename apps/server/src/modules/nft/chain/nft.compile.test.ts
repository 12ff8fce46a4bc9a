import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileCharityNft, NFT_ARTIFACT_PATH } from './nft.compile.ts';

describe('the charity NFT artifact', () => {
  it('is exactly what the pinned compiler makes of CharityNFT.sol (node scripts/chain-compile.mjs)', () => {
    const committed = JSON.parse(readFileSync(NFT_ARTIFACT_PATH, 'utf8')) as unknown;
    expect(committed).toEqual(compileCharityNft());
  }, 60_000);
});
