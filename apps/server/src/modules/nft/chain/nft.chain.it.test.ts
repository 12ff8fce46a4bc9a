import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../../tests/support/chain.ts';
import { DEV_ACCOUNTS } from '../../../platform/chain/accounts.ts';
import { devSigner } from '../../../platform/chain/development.ts';
import { localCallSigner } from '../../../platform/chain/signer.ts';
import type { Hex } from '../../../platform/chain.ts';
import {
  collectionOwner,
  DEV_COLLECTION_ADDRESS,
  deployCollection,
  mintToken,
  NftChainError,
  ownerOf,
  tokenURI,
  transferToken,
} from './nft.chain.ts';

let chain: TestChain;
const custody = DEV_ACCOUNTS.nftCustody.address;
/** A fresh self-custody address: a key made for this run, which no development account is. */
const buyer = privateKeyToAccount(`0x${'5e'.repeat(32)}`).address.toLowerCase() as Hex;

beforeAll(async () => {
  chain = await startTestChain();
}, 120_000);
afterAll(async () => {
  await chain?.close();
});

describe('the charity NFT collection on the embedded chain', () => {
  it('is deployed once, at the deterministic address, owned by the custody account', async () => {
    const address = await deployCollection(chain);
    expect(address).toBe(DEV_COLLECTION_ADDRESS);
    expect(await collectionOwner(chain, address)).toBe(custody);
    // Asked again (another node starting, a restart): the same contract, no second deployment.
    expect(await deployCollection(chain)).toBe(address);
    expect(await chain.chain.nonce(DEV_ACCOUNTS.deployer.address)).toBe(4);
  });

  it('mints to the custody account, with its metadata; ownerOf and tokenURI agree', async () => {
    const collection = await deployCollection(chain);
    expect(await ownerOf(chain, collection, 1n)).toBeNull();
    const hash = await mintToken(chain, collection, custody, 1n, 'https://example.test/nft/1.json');
    expect((await chain.chain.receipt(hash))?.status).toBe('success');
    expect(await ownerOf(chain, collection, 1n)).toBe(custody);
    expect(await tokenURI(chain, collection, 1n)).toBe('https://example.test/nft/1.json');
    expect(await tokenURI(chain, collection, 2n)).toBeNull();
    // Each id once.
    await expect(mintToken(chain, collection, custody, 1n, 'again')).rejects.toThrow(NftChainError);
    expect(await tokenURI(chain, collection, 1n)).toBe('https://example.test/nft/1.json');
  });

  it('sends a token from custody to a fresh address, on the chain', async () => {
    const collection = await deployCollection(chain);
    await mintToken(chain, collection, custody, 7n, 'ipfs://token-7');
    const hash = await transferToken(chain, collection, custody, buyer, 7n);
    const receipt = await chain.chain.receipt(hash);
    expect(receipt?.status).toBe('success');
    expect(await ownerOf(chain, collection, 7n)).toBe(buyer);
    // Custody no longer holds it: a second send is refused by the contract.
    await expect(transferToken(chain, collection, custody, buyer, 7n)).rejects.toThrow(/reverted/);
    // A contract that does not take ERC-721 tokens (the test token) is refused by safeTransferFrom.
    await mintToken(chain, collection, custody, 8n, 'ipfs://token-8');
    await expect(transferToken(chain, collection, custody, chain.chain.tokens.USDT, 8n)).rejects.toThrow(
      /reverted/,
    );
    expect(await ownerOf(chain, collection, 8n)).toBe(custody);
  });

  it('refuses a mint signed by anyone but the owner', async () => {
    const collection = await deployCollection(chain);
    const intruder = { ...chain, custody: localCallSigner(devSigner('faucet'), chain.chain.chainId) };
    await expect(mintToken(intruder, collection, intruder.custody.address, 9n, 'x')).rejects.toThrow(
      /mint 0x[0-9a-f]{64} reverted/,
    );
    expect(await ownerOf(chain, collection, 9n)).toBeNull();
    // And the custody signer sends only the custody account's tokens.
    await expect(transferToken(chain, collection, buyer, custody, 7n)).rejects.toThrow(NftChainError);
  });
});
