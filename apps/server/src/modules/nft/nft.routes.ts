import { adminCalls, Code, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError, mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { readFilePart, withUploadScope } from '../uploads/uploads.routes.ts';
import { type DonationLog, DonationLogError } from './log/log.service.ts';
import type { NftPayouts } from './nft.payouts.ts';
import type { NftSends } from './nft.send.ts';
import type { NftService } from './nft.service.ts';
import type { NftStaff } from './nft.staff.ts';

/**
 * The NFT calls: the market and a drop are public (the signed-in customer's own bids are marked);
 * every other customer call acts on the session's customer in the request's book, so another
 * customer's id finds nothing (10028). Staff calls in the back office, each change audited.
 */
type Parts = {
  nft: NftService;
  sends: NftSends;
  desk: NftStaff;
  payouts: NftPayouts;
  log: DonationLog;
  staff: StaffService;
};

export function nftRoutes(app: FastifyInstance, parts: Parts): void {
  const { nft, sends, log } = parts;
  mountCall(app, calls.listNftMarket, ({ query, request }) =>
    nft.market(request.book, query, request.customer?.userId ?? null),
  );
  mountCall(app, calls.getNft, ({ query, request }) =>
    nft.detail(request.book, query.id, request.customer?.userId ?? null),
  );
  mountCall(app, calls.quoteNft, ({ customer, body, request }) =>
    nft.quote(request.book, customer.userId, body),
  );
  mountCall(
    app,
    calls.buyNft,
    ({ customer, body, request }) => nft.commit(request.book, customer.userId, body),
    {
      successCode: Code.OPERATION_SUCCESSFUL,
    },
  );
  mountCall(app, calls.listMyNft, ({ customer, request }) => nft.myNfts(request.book, customer.userId));
  mountCall(app, calls.listMyNftBids, ({ customer, request }) => nft.myBids(request.book, customer.userId));
  mountCall(app, calls.quoteNftSend, ({ customer, body, request }) =>
    sends.quote(request.book, customer.userId, body),
  );
  mountCall(app, calls.sendNftCode, ({ customer, body, request }) =>
    sends.sendCode(request.book, customer.userId, request.language, body.quoteId),
  );
  mountCall(app, calls.sendNft, ({ customer, body, request }) =>
    sends.send(request.book, customer.userId, body),
  );
  // The public donation log: anyone reads it and checks its proofs (a size beyond the log: 10026).
  mountCall(app, calls.getNftLogHead, () => log.treeHead());
  mountCall(app, calls.listNftLogHeads, () => log.heads());
  mountCall(app, calls.listNftLogLeaves, ({ query }) =>
    log.leaves(query.before ?? null, query.size ?? 50, query.dropId ?? null),
  );
  mountCall(app, calls.getNftLogInclusion, ({ query }) =>
    proof(() => log.inclusion(query.index, query.size)),
  );
  mountCall(app, calls.getNftLogConsistency, ({ query }) => proof(() => log.consistency(query.m, query.n)));
  nftStaffRoutes(app, parts);
}

/** The back office's drops, artwork, auctions, charities, payouts and tree heads. */
function nftStaffRoutes(app: FastifyInstance, { desk, payouts, log, staff }: Parts): void {
  mountStaffCall(app, staff, adminCalls.listNftTreeHeads, () => log.heads(100));
  mountStaffCall(app, staff, adminCalls.listNftDrops, ({ query }) => desk.drops(query));
  mountStaffCall(app, staff, adminCalls.createNftDrop, ({ staff: session, body }) =>
    desk.createDrop(session, body),
  );
  // The artwork: uploaded by staff, checked and re-encoded like every upload.
  withUploadScope(app, (scope) =>
    mountStaffCall(scope, staff, adminCalls.uploadNftArtwork, ({ staff: session, request }) =>
      desk.uploadArtwork(session, (maxBytes) => readFilePart(request, maxBytes)),
    ),
  );
  mountStaffCall(app, staff, adminCalls.mintNftDrop, ({ staff: session, body }) =>
    desk.mint(session, body.dropId),
  );
  mountStaffCall(app, staff, adminCalls.listNftAuctions, () => desk.auctions());
  mountStaffCall(app, staff, adminCalls.addNftCharity, ({ staff: session, body }) =>
    desk.addCharity(session, body),
  );
  mountStaffCall(app, staff, adminCalls.listNftCharities, async () => ({
    ...(await desk.account()),
    payoutAssets: payouts.sendable(),
  }));
  mountStaffCall(app, staff, adminCalls.listNftPayouts, () => payouts.list());
  mountStaffCall(app, staff, adminCalls.proposeNftPayout, ({ staff: session, body }) =>
    payouts.propose(session, body),
  );
  mountStaffCall(app, staff, adminCalls.decideNftPayout, ({ staff: session, body }) =>
    payouts.decide(session, body),
  );
}

/** A proof the log cannot give (an index or size beyond it) is bad input, never a fault. */
async function proof<T>(make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof DonationLogError)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'size', issue: 'range' }]);
    throw error;
  }
}
