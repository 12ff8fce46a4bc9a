import { type CallDefinition, call, planned } from './define.ts';

/** NFTs (planned). */
export const nftCalls = {
  listNftMarket: call({
    method: 'GET',
    path: '/index/listNft',
    summary: 'NFTs on sale',
    auth: false,
    status: 'planned',
    data: planned,
  }),
  buyNft: call({
    method: 'POST',
    path: '/user/buyNft',
    summary: 'Buy or bid on an NFT',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listMyNft: call({
    method: 'GET',
    path: '/user/listNft',
    summary: 'My NFTs',
    auth: true,
    status: 'planned',
    data: planned,
  }),
} as const satisfies Record<string, CallDefinition>;
