import { dailyKey } from '../../platform/jobs.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { ChainPayout, ChainPayoutAssets, WithdrawalAddressBook } from '../products/ports.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { DonationLog } from './log/log.service.ts';
import { nftChainParts } from './nft.chainport.ts';
import { NftPayouts } from './nft.payouts.ts';
import { NFT_QUOTE } from './nft.quote.ts';
import { nftRoutes } from './nft.routes.ts';
import { NFT_SEND, NftSends } from './nft.send.ts';
import { donationsOf, NftService } from './nft.service.ts';
import { NftStaff } from './nft.staff.ts';

/** How often the settlement runner looks for sales past their end. */
const SETTLE_EVERY_MS = 5_000;

/**
 * Charity NFTs: drops minted on the chain, sold at a fixed price or by auction; a bid is a ledger
 * hold, the settlement runner closes each sale once (buyer → charity in one entry, the donation
 * logged); my NFTs, sent to an address under a withdrawal's rules.
 */
export const nftModule = defineProduct({
  name: 'nft',
  create: (
    platform,
    deps: ProductNeeds<{
      identity: IdentityService;
      withdrawalAddressBook: WithdrawalAddressBook;
      chainPayout: ChainPayout;
      chainPayoutAssets: ChainPayoutAssets;
    }>,
  ) => {
    const quoteKeys = platform.keys.purpose('quotes');
    const now = deps.clock.now;
    const log = new DonationLog({
      db: platform.db,
      signingKeys: platform.keys.purpose('donation-log-signing'),
      now,
    });
    const nft = new NftService({
      db: platform.db,
      ledger: deps.ledger,
      notices: deps.notices,
      audit: deps.audit,
      quoteKeys,
      now,
      donations: donationsOf(log),
    });
    const parts = nftChainParts(platform.chain);
    const sends = new NftSends({
      nft,
      identity: deps.identity,
      addresses: deps.withdrawalAddressBook,
      sender: parts?.sender ?? null,
      quoteKeys,
    });
    const nftStaff = new NftStaff(nft, deps.staff, deps.uploads, parts?.minter ?? null);
    // A drop's artwork is served to anyone once the drop is minted.
    deps.uploads.servePublicly('nft_artwork', (upload) => nftStaff.artworkIsPublic(upload));
    // Payouts are sent from the hot wallet through the wallet's port; their leaves go to the log.
    const nftPayouts = new NftPayouts(nft, deps.staff, {
      send: deps.chainPayout,
      assets: deps.chainPayoutAssets,
      appendLeaf: (tx, leaf) => log.append(tx, leaf),
      onError: (payoutId, err) =>
        platform.logger.warn({ err, payoutId }, 'nft payout not moved on; tried again'),
    });
    return { nft, nftSends: sends, nftStaff, nftPayouts, donationLog: log };
  },
  quotes: [NFT_QUOTE, NFT_SEND],
  notices: ['nft_outbid'],
  routes: (server, { nft, nftSends, nftStaff, nftPayouts, donationLog, staff }) =>
    nftRoutes(server, { nft, sends: nftSends, desk: nftStaff, payouts: nftPayouts, log: donationLog, staff }),
  jobs: ({ nft, nftPayouts, donationLog }) => [
    {
      // Approved payouts sent on the chain to the charity's address, and followed to sent or failed.
      name: 'nft.payouts',
      everyMs: SETTLE_EVERY_MS,
      runKey: (now) => String(Math.floor(now.getTime() / SETTLE_EVERY_MS)),
      run: async ({ logger }) => {
        const outcomes = [...(await nftPayouts.sendDue()).values()];
        const done = outcomes.filter((o) => o !== 'pending').length;
        if (done > 0) logger.info(`nft: ${done} payouts sent or failed`);
      },
    },
    {
      // The day's signed tree head: anyone can check that today's log extends yesterday's.
      name: 'nft.log.head',
      everyMs: 15 * 60_000,
      runKey: dailyKey,
      run: async ({ logger }) => {
        const head = await donationLog.publishTreeHead();
        logger.info(`nft: donation log head of ${head.treeSize} leaves published`);
      },
    },
    {
      name: 'nft.settle',
      everyMs: SETTLE_EVERY_MS,
      // One run per 5-second slot of the service clock; each run closes every sale due then.
      runKey: (now) => String(Math.floor(now.getTime() / SETTLE_EVERY_MS)),
      run: async ({ logger }) => {
        const closed = await nft.settleDue();
        if (closed > 0) logger.info(`nft: ${closed} sales closed`);
      },
    },
  ],
});
