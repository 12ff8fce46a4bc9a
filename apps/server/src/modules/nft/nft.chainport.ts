import type { OpenedChain } from '../../platform/chain/open.ts';
import type { NftSender } from './nft.send.ts';
import type { NftMinter } from './nft.staff.ts';

/**
 * The chain's side of drops (modules/nft/chain), loaded only when a chain is open and it has a
 * custody account: the collection deployed once (development chains), mints and transfers from
 * the custody account. Null otherwise: minting and sending answer 10031.
 */
export function nftChainParts(opened: OpenedChain | null): { minter: NftMinter; sender: NftSender } | null {
  if (!opened?.custody) return null;
  const custody = opened.custody.address;
  const chain = import('./chain/nft.chain.ts');
  let collection: Promise<`0x${string}`> | null = null;
  const collectionOf = async () => {
    const c = await chain;
    collection ??= c.deployCollection(opened);
    return collection;
  };
  return {
    minter: {
      network: 'ETH',
      mint: async (tokenId, uri) => {
        const address = await collectionOf();
        const txHash = await (await chain).mintToken(opened, address, custody, tokenId, uri);
        return { contractAddress: address, txHash };
      },
    },
    sender: async (to, tokenId) =>
      (await chain).transferToken(opened, await collectionOf(), custody, to as `0x${string}`, tokenId),
  };
}
