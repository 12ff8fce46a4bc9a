import type { Language } from '@swx/contract';

/** The NFT screens' query keys, under one root (`nftKeys.all` after a change). */
export const nftKeys = {
  all: ['nft'] as const,
  drops: (language: Language) => ['nft', language, 'drops'] as const,
  auctions: (language: Language) => ['nft', language, 'auctions'] as const,
  charity: (language: Language) => ['nft', language, 'charity'] as const,
  payouts: (language: Language) => ['nft', language, 'payouts'] as const,
  heads: (language: Language) => ['nft', language, 'heads'] as const,
};
