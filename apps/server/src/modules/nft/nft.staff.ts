import {
  ASSET_SCALES,
  BOOKS,
  Code,
  formatMinor,
  MoneyFormatError,
  NFT_ASSETS,
  NFT_CHARITY_SHARE_BPS,
  NFT_MIN_INCREMENT_BPS,
  type NftCharity,
  type NftCharityAccount,
  type NftDropAdmin,
  type NftDropCreateBody,
  parseMinor,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { StaffSession } from '../staff/staff.shared.ts';
import type { UploadRow } from '../uploads/uploads.repository.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { paidOutTotal } from './nft.payouts.repository.ts';
import {
  donatedTotal,
  dropById,
  insertCharity,
  insertDrop,
  listCharities,
  listDrops,
  markMinted,
} from './nft.repository.ts';
import type { NftService } from './nft.service.ts';
import { dropAdminOf, shownAddress } from './nft.views.ts';

/**
 * The chain as drops need it (modules/nft/chain, wired in nft.module.ts): the collection's
 * network name, and a mint to the platform's custody account that answers once mined.
 */
export type NftMinter = {
  network: string;
  mint(tokenId: bigint, uri: string): Promise<{ contractAddress: string; txHash: string }>;
};

const bad = (path: string, issue: string) => new ApiError(Code.INVALID_INPUT, [{ path, issue }]);

function amountOf(text: string | undefined, asset: 'USDT' | 'USDC', path: string): bigint | null {
  if (text === undefined) return null;
  try {
    return parseMinor(text, ASSET_SCALES[asset]);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw bad(path, 'too_many_decimals');
    throw error;
  }
}

/** The back office's drops, charities and auctions. */
export class NftStaff {
  private readonly nft: NftService;
  private readonly staff: StaffService;
  private readonly minter: NftMinter | null;
  private readonly uploads: UploadsService;

  constructor(nft: NftService, staff: StaffService, uploads: UploadsService, minter: NftMinter | null) {
    this.nft = nft;
    this.staff = staff;
    this.uploads = uploads;
    this.minter = minter;
  }

  /** The artwork's upload is public once its drop is minted (a draft's only to staff). */
  async artworkIsPublic(upload: UploadRow): Promise<boolean> {
    const id = /^nft_drop:(\d+)$/.exec(upload.usedFor ?? '')?.[1];
    const drop = id ? await dropById(this.nft.db, Number(id)) : null;
    return drop !== null && drop.state !== 'draft' && drop.artworkUploadId === upload.id;
  }

  /** Stores a staff member's artwork upload (checked, re-encoded); a drop takes it by its id. */
  uploadArtwork(session: StaffSession, read: (maxBytes: number) => Promise<Uint8Array>) {
    return this.uploads.store(`staff:${session.staffId}`, 'nft_artwork', read);
  }

  private async admin(id: number): Promise<NftDropAdmin> {
    const drop = await dropById(this.nft.db, id);
    if (!drop) throw new ApiError(Code.NOT_FOUND);
    return dropAdminOf(drop, this.nft.now(), await this.nft.cumulative(drop.book, drop.asset));
  }

  async charities(): Promise<NftCharity[]> {
    return (await listCharities(this.nft.db)).map((c) => ({
      ...c,
      id: String(c.id),
      address: shownAddress(c.address),
      shareBps: NFT_CHARITY_SHARE_BPS,
    }));
  }

  /**
   * A charity with its own address: an address in mixed case must be a valid EIP-55 checksum
   * (10026 `checksum`: a mistyped letter); kept lowercase, shown checksummed.
   */
  async addCharity(session: StaffSession, body: { name: string; address: string }): Promise<NftCharity> {
    const at = new Date(this.nft.now()).toISOString();
    const address = body.address.toLowerCase();
    const hex = body.address.slice(2);
    const mixed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
    if (mixed && shownAddress(address) !== body.address) throw bad('address', 'checksum');
    const row = await this.nft.transaction(async (tx) => {
      const charity = await insertCharity(tx, { name: body.name, address, createdBy: session.email, at });
      await this.staff.record(session, 'nft.charity.added', `nft_charity:${charity.id}`, body, tx);
      return charity;
    });
    return {
      ...row,
      id: String(row.id),
      address: shownAddress(row.address),
      shareBps: NFT_CHARITY_SHARE_BPS,
    };
  }

  /**
   * A draft drop. Refused (10026): a reserve or buy-now below the start price, an auction without a
   * duration, a fixed price with auction terms, a charity share and platform fee that are not the
   * whole (the fee, 0 to 20 % by the contract, is stated on the drop before any bid).
   */
  async createDrop(session: StaffSession, body: NftDropCreateBody): Promise<NftDropAdmin> {
    const fee = body.platformFeeBps ?? 0;
    const share = body.charityShareBps ?? NFT_CHARITY_SHARE_BPS - fee;
    if (share + fee !== 10_000) throw bad('charityShareBps', 'sum');
    const startPrice = amountOf(body.startPrice, body.asset, 'startPrice') as bigint;
    const reserve = amountOf(body.reserve, body.asset, 'reserve');
    const buyNow = amountOf(body.buyNow, body.asset, 'buyNow');
    const auction = body.saleType === 'auction';
    if (!auction && (reserve !== null || buyNow !== null || body.durationMinutes !== undefined))
      throw bad('saleType', 'fixed_has_auction_terms');
    if (auction && body.durationMinutes === undefined) throw bad('durationMinutes', 'required');
    if (reserve !== null && reserve < startPrice) throw bad('reserve', 'below_start');
    if (buyNow !== null && buyNow < (reserve ?? startPrice)) throw bad('buyNow', 'below_reserve');
    if (!(await listCharities(this.nft.db)).some((c) => c.id === body.charityId))
      throw bad('charityId', 'unknown');
    const at = new Date(this.nft.now()).toISOString();
    const id = await this.nft.transaction(async (tx) => {
      const dropId = await insertDrop(tx, {
        book: body.book,
        name: body.name,
        description: body.description,
        creator: body.creator,
        artworkUploadId: body.artworkUploadId,
        charityId: body.charityId,
        charityShareBps: share,
        platformFeeBps: fee,
        asset: body.asset,
        saleType: body.saleType,
        startPrice,
        reserve,
        minIncrementBps: body.minIncrementBps ?? NFT_MIN_INCREMENT_BPS,
        buyNow,
        durationSeconds: auction ? (body.durationMinutes as number) * 60 : null,
        startsAt: body.startsAt ?? null,
        createdBy: session.email,
        createdAt: at,
      });
      // The artwork: this staff member's upload of purpose nft_artwork, not taken yet (10028 / 10026).
      await this.uploads.takeInTx(
        tx,
        `staff:${session.staffId}`,
        [{ path: 'artworkUploadId', id: body.artworkUploadId, purpose: 'nft_artwork' }],
        `nft_drop:${dropId}`,
      );
      await this.staff.record(session, 'nft.drop.created', `nft_drop:${dropId}`, body, tx);
      return dropId;
    });
    return this.admin(id);
  }

  /**
   * Mints a draft's token (token id = the drop's id) to the custody account and lists the drop:
   * its sale opens at its start (now when none was set) and an auction ends `duration` later.
   * 10066 for a drop that is not a draft; 10031 without a chain.
   */
  async mint(session: StaffSession, dropId: number): Promise<NftDropAdmin> {
    const drop = await dropById(this.nft.db, dropId);
    if (!drop) throw new ApiError(Code.NOT_FOUND);
    if (drop.state !== 'draft') throw new ApiError(Code.NFT_DROP_STATE, { state: drop.state });
    if (!this.minter) throw new ApiError(Code.SERVICE_UNAVAILABLE, { reason: 'chain_off' });
    const minted = await this.minter.mint(BigInt(drop.id), `/swx/customer/index/getNft?id=${drop.id}`);
    const now = this.nft.now();
    const starts = Math.max(now, drop.startsAt ?? now);
    const ends = drop.durationSeconds === null ? null : starts + drop.durationSeconds * 1000;
    const done = await this.nft.transaction(async (tx) => {
      const ok = await markMinted(tx, drop.id, {
        tokenId: BigInt(drop.id),
        contractAddress: minted.contractAddress.toLowerCase(),
        txHash: minted.txHash,
        at: new Date(now).toISOString(),
        startsAt: new Date(starts).toISOString(),
        endsAt: ends === null ? null : new Date(ends).toISOString(),
      });
      if (ok) await this.staff.record(session, 'nft.drop.minted', `nft_drop:${drop.id}`, minted, tx);
      return ok;
    });
    if (!done) throw new ApiError(Code.NFT_DROP_STATE, { state: 'listed' });
    return this.admin(drop.id);
  }

  async drops(query: { state?: string; before?: number }): Promise<NftDropAdmin[]> {
    const rows = await listDrops(this.nft.db, {
      book: null,
      drafts: true,
      ...(query.before ? { before: query.before } : {}),
      size: 100,
      now: new Date(this.nft.now()).toISOString(),
    });
    const now = this.nft.now();
    const out: NftDropAdmin[] = [];
    for (const d of rows) {
      const view = dropAdminOf(d, now, await this.nft.cumulative(d.book, d.asset));
      if (!query.state || view.state === query.state) out.push(view);
    }
    return out;
  }

  /** The charity account (the ledger's `charity` account) per book and asset, and what was given. */
  /** The charity account (the assets a payout can be sent in are the payouts' to add: `NftPayouts.sendable`). */
  async account(): Promise<Omit<NftCharityAccount, 'payoutAssets'>> {
    const balances: NftCharityAccount['balances'] = [];
    const donated: NftCharityAccount['donated'] = [];
    for (const asset of NFT_ASSETS) {
      const scale = ASSET_SCALES[asset];
      for (const book of BOOKS) {
        const row = await this.nft.ledger.account(
          await this.nft.ledger.systemAccount(book, asset, 'charity'),
        );
        balances.push({ book, asset, balance: formatMinor(row?.balance ?? 0n, scale) });
      }
      const given = await donatedTotal(this.nft.db, 'live', asset);
      // Paid out: the payouts sent on the chain (each is a leaf of the donation log too).
      const paidOut = await paidOutTotal(this.nft.db, asset);
      donated.push({ asset, given: formatMinor(given, scale), paidOut: formatMinor(paidOut, scale) });
    }
    return { charities: await this.charities(), balances, donated };
  }

  /** Auctions live or waiting for settlement, soonest end first. */
  async auctions(): Promise<NftDropAdmin[]> {
    const all = await this.drops({});
    return all
      .filter(
        (d) =>
          d.rules.saleType === 'auction' &&
          (d.state === 'live' || d.state === 'ended' || d.state === 'scheduled'),
      )
      .sort((a, b) => (a.endsAt ?? '').localeCompare(b.endsAt ?? ''));
  }
}
