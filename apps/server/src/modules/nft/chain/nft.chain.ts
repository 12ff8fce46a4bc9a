import {
  BaseError,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  parseAbi,
  parseAbiParameters,
} from 'viem';
import { DEV_ACCOUNTS } from '../../../platform/chain/accounts.ts';
import { devSigner } from '../../../platform/chain/development.ts';
import type { OpenedChain } from '../../../platform/chain/open.ts';
import { DEV_FEES } from '../../../platform/chain/signer.ts';
import type { CallSigner, Hex } from '../../../platform/chain.ts';
import artifact from './CharityNFT.json' with { type: 'json' };

/**
 * The charity NFTs on the chain (CharityNFT.sol, an ERC-721 whose owner mints): deploy the
 * collection, mint to the custody account, send from it, read owners and metadata. Mints and
 * transfers are signed by `opened.custody` (the NFT custody account, the contract's owner), each
 * with that account's next nonce, one at a time in this process; each call answers once its
 * transaction is mined and succeeded (else NftChainError). This file imports viem: load it with
 * import() when a chain is open.
 */

export const COLLECTION_NAME = 'Charity NFT';
export const COLLECTION_SYMBOL = 'CHARITY';
/** The deployer's nonce of the collection's deployment: after the test token's three set-up transactions. */
export const DEV_COLLECTION_NONCE = 3;
/** The collection's address on a development chain: the development deployer's nonce-3 contract. */
export const DEV_COLLECTION_ADDRESS = getContractAddress({
  from: DEV_ACCOUNTS.deployer.address,
  nonce: BigInt(DEV_COLLECTION_NONCE),
}).toLowerCase() as Hex;
/** The longest metadata URI minted (its storage costs gas per 32 bytes). */
export const MAX_URI_BYTES = 2048;

const ABI = parseAbi([
  'function owner() view returns (address)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function mint(address to, uint256 tokenId, string uri)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
]);
const DEPLOY_GAS = 3_000_000n;
const TRANSFER_GAS = 200_000n;
const MINED_TIMEOUT_MS = 120_000;

export class NftChainError extends Error {}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const lower = (address: string) => address.toLowerCase() as Hex;

function checkAddress(what: string, address: string): Hex {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new NftChainError(`${what} is not an address: ${address}`);
  return lower(address);
}

function checkTokenId(tokenId: bigint): void {
  if (tokenId < 0n || tokenId >= 1n << 256n) throw new NftChainError('a token id is a uint256');
}

function custodyOf(opened: OpenedChain): CallSigner {
  if (!opened.custody) throw new NftChainError('no NFT custody signer on this chain');
  return opened.custody;
}

/** The gas limit of a mint: the token's slots and its URI's (a slot per 32 bytes) with room to spare. */
export function mintGas(uri: string): bigint {
  const bytes = Buffer.byteLength(uri, 'utf8');
  return 150_000n + 25_000n * BigInt(Math.ceil(bytes / 32)) + 16n * BigInt(bytes);
}

async function minedOk(opened: OpenedChain, hash: Hex, what: string): Promise<Hex> {
  const deadline = Date.now() + MINED_TIMEOUT_MS;
  for (;;) {
    const receipt = await opened.chain.receipt(hash);
    if (receipt) {
      if (receipt.status !== 'success') throw new NftChainError(`${what} ${hash} reverted`);
      return hash;
    }
    if (Date.now() > deadline) throw new NftChainError(`${what} ${hash} was not mined in time`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** One custody transaction at a time per account in this process: each takes the next pending nonce. */
const queues = new Map<string, Promise<unknown>>();

function custodyCall(
  opened: OpenedChain,
  call: { to: Hex; data: Hex; gas: bigint },
  what: string,
): Promise<Hex> {
  const custody = custodyOf(opened);
  const next = (queues.get(custody.address) ?? Promise.resolve()).then(async () => {
    const nonce = await opened.chain.nonce(custody.address);
    const { raw, hash } = await custody.signCall({ ...call, nonce });
    await opened.chain.broadcast(raw);
    return hash;
  });
  queues.set(
    custody.address,
    next.catch(() => undefined),
  );
  return next.then((hash) => minedOk(opened, hash, what));
}

async function read<F extends 'owner' | 'ownerOf' | 'tokenURI'>(
  opened: OpenedChain,
  collection: Hex,
  functionName: F,
  args: F extends 'owner' ? [] : [bigint],
): Promise<string | null> {
  const data = encodeFunctionData({ abi: ABI, functionName, args } as never);
  let answer: Hex;
  try {
    answer = await opened.chain.call(checkAddress('the collection', collection), data);
  } catch (error) {
    // A revert (no such token) is an answer; a node or network failure is not.
    if (error instanceof BaseError && error.walk((e) => /revert/i.test((e as Error).message)) !== null)
      return null;
    throw error;
  }
  if (answer === '0x') return null;
  return decodeFunctionResult({ abi: ABI, functionName, data: answer } as never) as string;
}

/** The owner of a token (lowercase), or null when it was never minted. */
export async function ownerOf(opened: OpenedChain, collection: Hex, tokenId: bigint): Promise<Hex | null> {
  checkTokenId(tokenId);
  const owner = await read(opened, collection, 'ownerOf', [tokenId]);
  return owner === null ? null : lower(owner);
}

/** A token's metadata URI, or null when it was never minted. */
export async function tokenURI(
  opened: OpenedChain,
  collection: Hex,
  tokenId: bigint,
): Promise<string | null> {
  checkTokenId(tokenId);
  return read(opened, collection, 'tokenURI', [tokenId]);
}

/** The collection contract's owner (the account that mints), or null when no collection is there. */
export async function collectionOwner(opened: OpenedChain, collection: Hex): Promise<Hex | null> {
  const owner = await read(opened, collection, 'owner', []);
  return owner === null ? null : lower(owner);
}

/**
 * Makes sure the collection is deployed on a development chain and answers its address: the
 * development deployer's nonce-3 contract (after the test token's set-up), owned by the custody
 * account, deployed with fixed fields, so nodes starting together send the same transaction. Real
 * chains: deploy the contract (owner: the custody address) yourself and configure its address.
 */
export async function deployCollection(opened: OpenedChain): Promise<Hex> {
  const custody = custodyOf(opened);
  if (!opened.dev) throw new NftChainError('the collection is deployed here on development chains only');
  const existing = await collectionOwner(opened, DEV_COLLECTION_ADDRESS);
  if (existing !== null) {
    if (existing !== custody.address)
      throw new NftChainError(`the collection at ${DEV_COLLECTION_ADDRESS} is owned by ${existing}`);
    return DEV_COLLECTION_ADDRESS;
  }
  const deployer = devSigner('deployer');
  const nonce = await opened.chain.nonce(deployer.address);
  if (nonce !== DEV_COLLECTION_NONCE)
    throw new NftChainError(
      `the development deployer is at nonce ${nonce}, not ${DEV_COLLECTION_NONCE}: no collection can be deployed at ${DEV_COLLECTION_ADDRESS}`,
    );
  const constructorArgs = encodeAbiParameters(parseAbiParameters('string, string, address'), [
    COLLECTION_NAME,
    COLLECTION_SYMBOL,
    custody.address,
  ]);
  const raw = await deployer.signTransaction({
    type: 'eip1559',
    chainId: opened.chain.chainId,
    nonce,
    gas: DEPLOY_GAS,
    ...DEV_FEES,
    data: `${artifact.bytecode as Hex}${constructorArgs.slice(2)}`,
  });
  const hash = await opened.chain.broadcast(raw);
  await opened.dev.mine(1);
  await minedOk(opened, hash, 'the collection deployment');
  return DEV_COLLECTION_ADDRESS;
}

/** Mints `tokenId` with its metadata URI to `to` (the custody address, for the platform's own stock). */
export async function mintToken(
  opened: OpenedChain,
  collection: Hex,
  to: Hex,
  tokenId: bigint,
  uri: string,
): Promise<Hex> {
  checkTokenId(tokenId);
  if (Buffer.byteLength(uri, 'utf8') > MAX_URI_BYTES) throw new NftChainError('the token URI is too long');
  const data = encodeFunctionData({
    abi: ABI,
    functionName: 'mint',
    args: [checkAddress('to', to), tokenId, uri],
  });
  return custodyCall(
    opened,
    { to: checkAddress('the collection', collection), data, gas: mintGas(uri) },
    'mint',
  );
}

/**
 * Sends `tokenId` from the custody account (`from`, which must be it) to `to` with
 * safeTransferFrom (a contract that does not accept ERC-721 tokens refuses it). Answers the hash.
 */
export async function transferToken(
  opened: OpenedChain,
  collection: Hex,
  from: Hex,
  to: Hex,
  tokenId: bigint,
): Promise<Hex> {
  checkTokenId(tokenId);
  const sender = checkAddress('from', from);
  if (sender !== custodyOf(opened).address)
    throw new NftChainError('only the custody account sends tokens from here');
  const recipient = checkAddress('to', to);
  if (!ADDRESS.test(recipient) || recipient === `0x${'0'.repeat(40)}`)
    throw new NftChainError('not a recipient');
  const data = encodeFunctionData({
    abi: ABI,
    functionName: 'safeTransferFrom',
    args: [sender, recipient, tokenId],
  });
  return custodyCall(
    opened,
    { to: checkAddress('the collection', collection), data, gas: TRANSFER_GAS },
    'transfer',
  );
}
