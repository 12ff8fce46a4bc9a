import { featureRoutes } from '../../app/routeTypes.ts';

/** Charity NFTs: the market (a tab), an NFT, my NFTs and bids, and the public donation log. */
export const nftRoutes = featureRoutes(import.meta.url, [
  {
    path: '/nfts',
    title: 'nfts',
    tab: 'nfts',
    tabRoot: true,
    view: { load: () => import('./Market.tsx') },
  },
  {
    path: '/nfts/mine',
    title: 'myNfts',
    tab: 'nfts',
    account: { order: 230 },
    view: { load: () => import('./MyNfts.tsx') },
  },
  { path: '/nfts/log', title: 'nftLog', tab: 'nfts', view: { load: () => import('./DonationLog.tsx') } },
  { path: '/nfts/:id', title: 'nft', tab: 'nfts', view: { load: () => import('./Detail.tsx') } },
]);
