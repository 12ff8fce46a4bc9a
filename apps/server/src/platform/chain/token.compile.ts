import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Compiles TestUSDT.sol (and modules/nft's CharityNFT.sol) with the pinned solc-js (a dev
 * dependency): scripts/chain-compile.mjs writes the result to TestUSDT.json, and a unit test
 * compiles again and compares, so the committed artifact provably comes from the source. The
 * server itself only reads the artifact.
 */
export const SOLC_VERSION = '0.8.37';
/** A hardfork anvil 1.7.1 runs (its default is newer) and real chains have long had. */
export const EVM_VERSION = 'cancun';
export const SOURCE_PATH = join(import.meta.dirname, 'TestUSDT.sol');
export const ARTIFACT_PATH = join(import.meta.dirname, 'TestUSDT.json');

export type ContractArtifact<Name extends string = string> = {
  contractName: Name;
  compiler: string;
  evmVersion: string;
  optimizerRuns: number;
  abi: unknown[];
  bytecode: `0x${string}`;
};

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};

export type TokenArtifact = ContractArtifact<'TestUSDT'>;

export function compileTestUsdt(): TokenArtifact {
  return compileContract('TestUSDT', SOURCE_PATH);
}

/** Compiles the contract `name` of the single-file source at `sourcePath` (named `<name>.sol`). */
export function compileContract<Name extends string>(name: Name, sourcePath: string): ContractArtifact<Name> {
  const solc = createRequire(import.meta.url)('solc') as {
    version(): string;
    compile(input: string): string;
  };
  const version = solc.version();
  if (!version.startsWith(`${SOLC_VERSION}+`))
    throw new Error(`solc ${version} is not the pinned ${SOLC_VERSION}: run npm ci`);
  const input = {
    language: 'Solidity',
    sources: { [`${name}.sol`]: { content: readFileSync(sourcePath, 'utf8') } },
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      // No metadata hash: the bytecode depends on the source and the settings only.
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts?.[`${name}.sol`]?.[name];
  if (!contract) throw new Error(`solc produced no ${name}`);
  return {
    contractName: name,
    compiler: SOLC_VERSION,
    evmVersion: EVM_VERSION,
    optimizerRuns: 200,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
}
