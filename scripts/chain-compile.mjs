// Compiles the development chains' test token (apps/server/src/platform/chain/TestUSDT.sol) with the
// pinned solc-js and writes its artifact (abi + bytecode) next to it, TestUSDT.json, which is
// committed: the server deploys it, and a unit test checks it still equals a fresh compilation.
// Run after editing the source: node scripts/chain-compile.mjs
import { writeFileSync } from 'node:fs';
import { ARTIFACT_PATH, compileTestUsdt } from '../apps/server/src/platform/chain/token.compile.ts';

const artifact = compileTestUsdt();
writeFileSync(ARTIFACT_PATH, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${ARTIFACT_PATH} (${(artifact.bytecode.length - 2) / 2} bytes of creation code)`);
