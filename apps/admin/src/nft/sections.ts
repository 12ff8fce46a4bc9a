import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { Auctions } from './Auctions.tsx';
import { Charity } from './Charity.tsx';
import { Drops } from './Drops.tsx';
import { NewDrop } from './NewDrop.tsx';
import { NFT_TEXT } from './nft.text.ts';
import { TreeHeads } from './TreeHeads.tsx';

/** Charity NFTs: drops (made, minted), auctions, the charity account and its payouts, the log's heads. */
export const nftSections: readonly Section[] = [
  {
    label: (language) => NFT_TEXT[language].nav.nft,
    path: '/nft',
    roles: adminCalls.listNftDrops.roles,
    screens: [
      { path: '/nft', Screen: Drops },
      { path: '/nft/new', Screen: NewDrop },
      { path: '/nft/auctions', Screen: Auctions },
      { path: '/nft/charity', Screen: Charity },
      { path: '/nft/log', Screen: TreeHeads },
    ],
  },
];
