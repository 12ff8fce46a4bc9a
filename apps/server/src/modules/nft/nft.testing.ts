import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Book, NftDropAdmin, NftOrder } from '@swx/contract';
import { pngImage } from '../../../../../tests/support/images.ts';
import type { OpenedChain } from '../../platform/chain/open.ts';
import type { Database } from '../../platform/db.ts';
import { KeyRing } from '../../platform/keys.ts';
import { FileStorage } from '../../platform/storage.ts';
import { createTestContext, type TestContext, type TestStaff } from '../../test/context.ts';
import { UploadsService } from '../uploads/uploads.service.ts';
import { DonationLog } from './log/log.service.ts';
import { nftChainParts } from './nft.chainport.ts';
import { donationsOf, NftService } from './nft.service.ts';
import { NftStaff } from './nft.staff.ts';

/**
 * The NFT module on a test context's real services, as the module builds it, on an injected
 * clock: the real ledger, notices, staff (an admin signed in), quotes, and the chain given (a
 * development chain: drops are really minted). `auction` and `fixed` make a drop through the back
 * office and mint it; `bid` and `buy` go through quote then commit as the screens do.
 */
export async function testNft(db: Database, clock: { now: number }, chain: OpenedChain | null) {
  const now = () => clock.now;
  const ctx: TestContext = await createTestContext(db, { now });
  const keys = new KeyRing(Buffer.alloc(32, 9));
  const log = new DonationLog({ db, signingKeys: keys.purpose('donation-log-signing'), now });
  const nft = new NftService({
    db,
    ledger: ctx.ledger,
    notices: ctx.notices,
    audit: ctx.audit,
    quoteKeys: keys.purpose('quotes'),
    now,
    donations: donationsOf(log),
  });
  const uploads = new UploadsService({
    db,
    storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-nft-'))),
  });
  const desk = new NftStaff(nft, ctx.staff, uploads, nftChainParts(chain)?.minter ?? null);
  uploads.servePublicly('nft_artwork', (upload) => desk.artworkIsPublic(upload));
  const admin: TestStaff = await ctx.staffMember('admin');
  const charity = await desk.addCharity(admin.session, {
    name: "Children's Fund",
    address: '0x00000000000000000000000000000000000c4a41',
  });
  let n = 0;

  async function drop(
    terms: Partial<Parameters<NftStaff['createDrop']>[1]> & { saleType: 'fixed' | 'auction' },
  ): Promise<NftDropAdmin> {
    const art = await pngImage(320, 320, ++n);
    const artwork = await desk.uploadArtwork(admin.session, async () => art);
    const made = await desk.createDrop(admin.session, {
      book: 'live',
      name: `Drawing ${n}`,
      description: 'A drawing by a child of the programme.',
      creator: 'Mia, 9',
      artworkUploadId: artwork.id,
      charityId: Number(charity.id),
      asset: 'USDT',
      startPrice: '100',
      ...(terms.saleType === 'auction' ? { durationMinutes: 60 } : {}),
      ...terms,
    });
    return desk.mint(admin.session, Number(made.id));
  }

  async function bid(
    userId: number,
    /** A drop's id as the wire gives it (a string) or as a number. */
    drop: number | string,
    amount: string,
    options: { book?: Book; requestId?: string; kind?: 'bid' | 'buy' } = {},
  ): Promise<NftOrder> {
    const book = options.book ?? 'live';
    const kind = options.kind ?? 'bid';
    const dropId = Number(drop);
    const quote = await nft.quote(book, userId, { dropId, kind, ...(kind === 'bid' ? { amount } : {}) });
    return nft.commit(book, userId, {
      quoteId: quote.quoteId,
      requestId: options.requestId ?? `bid-${userId}-${dropId}-${++n}`,
    });
  }

  return { ctx, nft, log, uploads, desk, admin, charity, drop, bid };
}

export type TestNft = Awaited<ReturnType<typeof testNft>>;

/** The catalogue code a call was refused with (a test fails when it was not refused). */
export async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return (error as { code?: number }).code ?? error;
  }
  throw new Error('not refused');
}
