import {
  ASSET_SCALES,
  formatMinor,
  type MyNft,
  NFT_EXTENSION_SECONDS,
  type NftBid,
  type NftDropAdmin,
  type NftView,
  uploadFileUrl,
} from '@swx/contract';
import { shownEvmAddress } from '@swx/contract/evmAddress';
import { isOpen, minNextBid, reserveMet } from './nft.auction.ts';
import type { BidRow, HoldingRow } from './nft.bids.repository.ts';
import type { DropRow } from './nft.repository.ts';

/** Wire shapes of drops, bids and holdings, built from rows (never a row on the wire). */

/**
 * An EVM address as customers and staff read it (every wire shape here, so every NFT screen): its
 * EIP-55 checksummed form, as the wallet's. Kept lowercase, compared lowercase; anything that is
 * not an EVM address as it is.
 */
export const shownAddress = shownEvmAddress;

/** The same, for an address that may not be there yet (before a mint, before a send). */
export function shownOrNull(address: string | null): string | null {
  return address === null ? null : shownAddress(address);
}

const money = (minor: bigint | null, asset: DropRow['asset']) =>
  minor === null ? null : formatMinor(minor, ASSET_SCALES[asset]);

/** The state a customer sees: scheduled before the start, ended past the end until settled. */
function stateOf(d: DropRow, now: number): NftView['state'] {
  if (d.state !== 'listed') return d.state;
  if (d.startsAt !== null && now < d.startsAt) return 'scheduled';
  return d.endsAt !== null && now >= d.endsAt ? 'ended' : 'live';
}

/** A database id on the wire: a decimal string (the contract's `dbId`). */
export const idOrNull = (id: number | null): string | null => (id === null ? null : String(id));

export function nftViewOf(d: DropRow, now: number, cumulative: bigint, viewer: number | null): NftView {
  const open = isOpen(d, now);
  return {
    id: String(d.id),
    book: d.book,
    name: d.name,
    description: d.description,
    creator: d.creator,
    chain: 'ETH',
    contractAddress: shownOrNull(d.contractAddress),
    tokenId: d.tokenId?.toString() ?? null,
    imageUrl: uploadFileUrl(d.artworkUploadId),
    asset: d.asset,
    rules: {
      saleType: d.saleType,
      startPrice: money(d.startPrice, d.asset) as string,
      reserve: money(d.reserve, d.asset),
      minIncrementBps: d.minIncrementBps,
      buyNow: money(d.buyNow, d.asset),
      extensionSeconds: NFT_EXTENSION_SECONDS,
      platformFeeBps: d.platformFeeBps,
    },
    charity: {
      id: String(d.charity.id),
      name: d.charity.name,
      address: shownAddress(d.charity.address),
      shareBps: d.charityShareBps,
    },
    state: stateOf(d, now),
    currentBid: money(d.currentBid, d.asset),
    bidCount: d.bidCount,
    minNextBid: open && d.saleType === 'auction' ? money(minNextBid(d), d.asset) : null,
    reserveMet: reserveMet(d),
    startsAt: new Date(d.startsAt ?? Date.parse(d.createdAt)).toISOString(),
    endsAt: d.saleType === 'auction' && d.endsAt !== null ? new Date(d.endsAt).toISOString() : null,
    remainingSeconds:
      d.saleType === 'auction' && d.endsAt !== null ? Math.max(0, Math.ceil((d.endsAt - now) / 1000)) : null,
    cumulativeDonation: money(cumulative, d.asset) as string,
    leadingMine: viewer !== null && (d.leaderUserId === viewer || d.buyerId === viewer),
  };
}

/** A bidder as others see them: the first letter of a stable tag, never a name or id. */
const maskBidder = (userId: number) => `bidder-${((userId * 2_654_435_761) >>> 0).toString(36).slice(0, 5)}`;

export function nftBidOf(b: BidRow, asset: DropRow['asset'], viewer: number | null): NftBid {
  return {
    id: String(b.id),
    bidder: maskBidder(b.userId),
    amount: money(b.amount, asset) as string,
    state: b.state === 'refused' ? 'lost' : b.state,
    endsAfter: b.endsAfter,
    createdAt: b.createdAt,
    mine: viewer !== null && b.userId === viewer,
  };
}

export function myNftOf(h: HoldingRow, d: DropRow): MyNft {
  return {
    id: String(h.id),
    dropId: String(d.id),
    book: h.book,
    name: d.name,
    creator: d.creator,
    imageUrl: uploadFileUrl(d.artworkUploadId),
    chain: 'ETH',
    contractAddress: shownAddress(d.contractAddress ?? ''),
    tokenId: d.tokenId?.toString() ?? '',
    asset: d.asset,
    price: money(h.price, d.asset) as string,
    donation: money(h.donation, d.asset) as string,
    charityName: d.charity.name,
    acquiredAt: h.acquiredAt,
    state: h.state,
    sentTo: shownOrNull(h.sentTo),
    txHash: h.txHash,
  };
}

export function dropAdminOf(d: DropRow, now: number, cumulative: bigint): NftDropAdmin {
  return {
    ...nftViewOf(d, now, cumulative, null),
    artworkUploadId: d.artworkUploadId,
    createdBy: d.createdBy,
    createdAt: d.createdAt,
    mintedAt: d.mintedAt,
    mintTxHash: d.mintTxHash,
    settledAt: d.settledAt,
    entryId: idOrNull(d.entryId),
    buyerId: idOrNull(d.buyerId),
  };
}
