// Compiles the development chains' test token (apps/server/src/platform/chain/TestUSDT.sol) and the
// charity NFT contract (apps/server/src/modules/nft/chain/CharityNFT.sol) with the pinned solc-js
// and writes each artifact (abi + bytecode) next to its source, TestUSDT.json and CharityNFT.json,
// which are committed: the server deploys them, and unit tests check they still equal a fresh
// compilation. Run after editing a source: node scripts/chain-compile.mjs
import { writeFileSync } from 'node:fs';
import { compileCharityNft, NFT_ARTIFACT_PATH } from '../apps/server/src/modules/nft/chain/nft.compile.ts';
import { ARTIFACT_PATH, compileTestUsdt } from '../apps/server/src/platform/chain/token.compile.ts';

for (const [path, artifact] of [
  [ARTIFACT_PATH, compileTestUsdt()],
  [NFT_ARTIFACT_PATH, compileCharityNft()],
]) {
  writeFileSync(path, `${JSON.stringify(artifact, null, 2)}\n`);
  console.log(`wrote ${path} (${(artifact.bytecode.length - 2) / 2} bytes of creation code)`);
}
