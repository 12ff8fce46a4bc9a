import { join } from 'node:path';
import { type ContractArtifact, compileContract } from '../../../platform/chain/token.compile.ts';

/**
 * CharityNFT.sol compiled by the pinned solc-js with the test token's settings
 * (platform/chain/token.compile.ts): `node scripts/chain-compile.mjs` writes CharityNFT.json, which
 * is committed; nft.compile.test.ts compiles again and compares. The server only reads the JSON.
 */
export const NFT_SOURCE_PATH = join(import.meta.dirname, 'CharityNFT.sol');
export const NFT_ARTIFACT_PATH = join(import.meta.dirname, 'CharityNFT.json');

export function compileCharityNft(): ContractArtifact<'CharityNFT'> {
  return compileContract('CharityNFT', NFT_SOURCE_PATH);
}
