import { z } from 'zod/mini';
import { dbId, wireId, wireInt } from './ids.ts';
import { basisPoints } from './invites.ts';
import { bookSchema, decimalString } from './ledger.ts';
import { quoteFields, quoteId } from './quotes.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { uploadedFile, uploadId } from './uploads.ts';
import { amountInput, CONFIRMATION_METHODS } from './wallet.ts';

/**
 * Charity NFTs (spec §1 "Charity NFTs", §2 `/nfts`, §3 NFT: creator, chain, address, current bid,
 * remaining time, cumulative donation; §7 `index/listNft`, `user/buyNft`, `user/listNft`; issue 34).
 *
 * A **drop** is one ERC-721 token on the platform's chain, made by staff: its creator, artwork
 * (an upload), the charity and its share of the sale (100 % by default), the platform's fee (stated
 * up front, 0 by default) and its sale: a fixed price, or an auction (start price, reserve,
 * minimum increment, duration, optional buy-now). A drop lives in one book: demo drops are bid and
 * bought with demo money only, live drops with live money (the `virtually` header picks the book).
 *
 * Auction rules, stated on the page before the first bid (Nouns auction house, OpenSea timed
 * auctions): the first bid is at least the start price; each next bid beats the current one by at
 * least `minIncrementBps` (500 = 5 %, rounded up to the asset's minor unit); a bid placed in the
 * last NFT_EXTENSION_SECONDS moves the end to NFT_EXTENSION_SECONDS after it; a bid at or above
 * `buyNow` (where set) wins at once and ends the auction. A bid is money held: the amount is a
 * ledger hold on the bidder's wallet; being outbid voids it at once (and sends a notice). After the
 * end the settlement runner closes the auction exactly once: the winner's hold is posted in one
 * entry (buyer → charity share, platform fee), or, without a bid at or above the reserve, the
 * auction ends unsold and every hold is voided.
 *
 * Cumulative donation is what the public donation log (RFC 9162 style, `nftLog*` calls) holds for
 * the charity in the drop's asset: sale proceeds in, payouts to the charity's address out.
 *
 * Refusals: 10060 the bid is below the minimum next bid (data `{minBid}`), 10061 the sale is not
 * open (not started, ended or sold; data `{state}`), 10062 bidding on one's own leading bid,
 * 10063 the NFT is not the customer's to send or is being sent, 10064 the address is still locked
 * (data `{usableFrom}`), 10065 the chain did not take the transfer (the NFT stays the customer's;
 * a wrong confirmation code is 10091, as for a withdrawal), 10066 a drop that cannot be minted
 * or changed in its state, 10067 a charity payout over the charity account's balance, 10068 in an
 * asset the hot wallet cannot send; and the kit's 10032 / 10011 / 10028 / 10026 of quote then commit.
 */

/** The default minimum increment of a bid over the current one: 5 %, in basis points. */
export const NFT_MIN_INCREMENT_BPS = 500;
/** A bid in the last this-many seconds extends the end to this-many seconds after it (10 minutes). */
export const NFT_EXTENSION_SECONDS = 600;
/** The charity's share of a sale by default: all of it (spec §1). */
export const NFT_CHARITY_SHARE_BPS = 10_000;
/** Seconds a bid or buy quote can be accepted. */
export const NFT_QUOTE_SECONDS = 30;
/** Assets a drop is sold in. */
export const NFT_ASSETS = ['USDT', 'USDC'] as const;
export const nftAsset = z.enum(NFT_ASSETS);

export const NFT_SALE_TYPES = ['fixed', 'auction'] as const;
export const nftSaleType = z.enum(NFT_SALE_TYPES);

/**
 * A drop's state: `draft` (made, not minted), `scheduled` (minted, sale not started), `live` (on
 * sale), `ended` (an auction past its end, waiting for settlement), `sold`, `unsold`.
 */
export const NFT_DROP_STATES = ['draft', 'scheduled', 'live', 'ended', 'sold', 'unsold'] as const;
export const nftDropState = z.enum(NFT_DROP_STATES);

/** The charity a drop gives to, with its share of the sale. */
export const nftCharity = z.object({
  id: dbId,
  name: z.string(),
  /** The charity's own address payouts are sent to (on the platform's chain). */
  address: z.string(),
  /** Its share of the sale, in basis points (10,000 = 100 %). */
  shareBps: basisPoints,
});
export type NftCharity = z.infer<typeof nftCharity>;

/** The rules of a sale, shown before the first bid. */
export const nftSaleRules = z.object({
  saleType: nftSaleType,
  /** Fixed: the price. Auction: the lowest first bid. */
  startPrice: decimalString,
  /** Auction: no sale below it (null: none beyond the start price). Shown as met or not, never its amount hidden. */
  reserve: z.nullable(decimalString),
  minIncrementBps: basisPoints,
  /** A bid at or above it buys at once and ends the auction; null: none. */
  buyNow: z.nullable(decimalString),
  extensionSeconds: z.int(),
  /** The platform's fee out of the sale, in basis points, stated up front (0 by default). */
  platformFeeBps: basisPoints,
});
export type NftSaleRules = z.infer<typeof nftSaleRules>;

/** An NFT as the market shows it (list and detail). */
export const nftView = z.object({
  id: dbId,
  book: bookSchema,
  name: z.string(),
  description: z.string(),
  creator: z.string(),
  /** The chain's network id (e.g. `ETH-DEV`) and the ERC-721 contract's address; null before mint. */
  chain: z.string(),
  contractAddress: z.nullable(z.string()),
  /** The token id on the contract (decimal); null before mint. */
  tokenId: z.nullable(z.string()),
  /** The artwork's public path. */
  imageUrl: z.string(),
  asset: nftAsset,
  rules: nftSaleRules,
  charity: nftCharity,
  state: nftDropState,
  /** The leading bid (auction) or the price paid (sold); null when none. */
  currentBid: z.nullable(decimalString),
  bidCount: z.int(),
  /** Least a next bid may be; null when the sale is not open. */
  minNextBid: z.nullable(decimalString),
  /** True when the leading bid is at or above the reserve (or there is no reserve and a bid). */
  reserveMet: z.boolean(),
  startsAt: z.string(),
  /** Auction: the end, as extended; fixed: null. */
  endsAt: z.nullable(z.string()),
  /** Seconds left until `endsAt` by the server's clock (0 once ended; null for a fixed price). */
  remainingSeconds: z.nullable(z.int()),
  /** What the public donation log holds for this drop's charity in its asset. */
  cumulativeDonation: decimalString,
  /** Signed-in only: the customer leads (auction) or owns it. */
  leadingMine: z.boolean(),
});
export type NftView = z.infer<typeof nftView>;

export const nftListQuery = z.object({
  state: z.optional(z.enum(['live', 'upcoming', 'ended'])),
  saleType: z.optional(nftSaleType),
  /** Keyset: drops with an id below this one (newest first). */
  before: z.optional(wireId()),
  size: z.optional(wireInt(1, 50)),
});

export const nftIdQuery = z.object({ id: wireId() });

/** A bid of the history: the bidder masked, never named; `mine` for the signed-in customer's. */
export const NFT_BID_STATES = ['leading', 'outbid', 'won', 'lost'] as const;
export const nftBid = z.object({
  id: dbId,
  bidder: z.string(),
  amount: decimalString,
  state: z.enum(NFT_BID_STATES),
  /** The end after this bid (a late bid extends it). */
  endsAfter: z.string(),
  createdAt: z.string(),
  mine: z.boolean(),
});
export type NftBid = z.infer<typeof nftBid>;

/** The detail page: the NFT and its bid history, newest first. */
export const nftDetail = z.object({ nft: nftView, bids: z.array(nftBid) });
export type NftDetail = z.infer<typeof nftDetail>;

/** Quote a bid (amount) or a purchase (fixed price or buy-now: the amount is the price). */
export const nftQuoteBody = z.object({
  dropId: wireId(),
  kind: z.enum(['bid', 'buy']),
  /** A bid's amount; ignored for `buy`. */
  amount: z.optional(amountInput),
});
export type NftQuoteBody = z.infer<typeof nftQuoteBody>;

/** Every figure a bid or buy posts (or holds), stated before the customer accepts it. */
export const nftQuote = z.object({
  ...quoteFields,
  dropId: dbId,
  book: bookSchema,
  kind: z.enum(['bid', 'buy']),
  asset: nftAsset,
  /** Held now (bid) or paid now (buy). */
  amount: decimalString,
  /** If it wins: the charity's part, the platform's fee (amount − charity − fee goes to nobody: it is 0). */
  charityAmount: decimalString,
  platformFee: decimalString,
  /** The bid buys at once (at or above buy-now). */
  buysNow: z.boolean(),
  /** The end if this bid is placed now (a late bid extends it). */
  endsAt: z.nullable(z.string()),
  rules: nftSaleRules,
});
export type NftQuote = z.infer<typeof nftQuote>;

const requestId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/));

/** `POST /user/buyNft`: accept a bid or buy quote, once per request id. */
export const nftCommitBody = z.object({ quoteId, requestId });

/** What a committed bid or purchase did. */
export const nftOrder = z.object({
  dropId: dbId,
  kind: z.enum(['bid', 'buy']),
  amount: decimalString,
  /** The bid's id (a bid, or a buy-now bid); null for a fixed-price purchase. */
  bidId: z.nullable(dbId),
  /** leading: held, waiting for the end; bought: the NFT is the customer's. */
  state: z.enum(['leading', 'bought']),
  endsAt: z.nullable(z.string()),
  /** The ledger entry of a purchase; null while a bid is only held. */
  entryId: z.nullable(dbId),
});
export type NftOrder = z.infer<typeof nftOrder>;

/** An NFT the customer owns (or has sent away). */
export const NFT_HOLDING_STATES = ['held', 'sending', 'sent'] as const;
export const myNft = z.object({
  /** The holding's id (what `sendNft` names). */
  id: dbId,
  dropId: dbId,
  book: bookSchema,
  name: z.string(),
  creator: z.string(),
  imageUrl: z.string(),
  chain: z.string(),
  contractAddress: z.string(),
  tokenId: z.string(),
  asset: nftAsset,
  /** What was paid. */
  price: decimalString,
  /** The charity's part of it, as given to the log. */
  donation: decimalString,
  charityName: z.string(),
  acquiredAt: z.string(),
  state: z.enum(NFT_HOLDING_STATES),
  /** Sent: to where, by which transaction. */
  sentTo: z.nullable(z.string()),
  txHash: z.nullable(z.string()),
});
export type MyNft = z.infer<typeof myNft>;

/** My bids on auctions not yet settled: the NFT and my best bid. */
export const myNftBid = z.object({ nft: nftView, bid: nftBid });
export type MyNftBid = z.infer<typeof myNftBid>;

/**
 * Send an NFT to an address of the customer's withdrawal addresses (the wallet's book): the
 * address must be past its ADDRESS_LOCK_HOURS lock, and the send is confirmed by the same code as a
 * withdrawal (authenticator, or a code mailed now). Live book only: a demo NFT stays in the demo.
 */
export const nftSendQuoteBody = z.object({ nftId: wireId(), addressId: wireId() });
export const nftSendQuote = z.object({
  ...quoteFields,
  nftId: dbId,
  addressId: dbId,
  address: z.string(),
  chain: z.string(),
  contractAddress: z.string(),
  tokenId: z.string(),
  confirmation: z.enum(CONFIRMATION_METHODS),
});
export type NftSendQuote = z.infer<typeof nftSendQuote>;
export const nftSendCodeBody = z.object({ quoteId });
export const nftSendBody = z.object({
  quoteId,
  requestId,
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/)),
});

/* ---------------------------------------------------------------- donation log (public) */

/** A signed tree head of the donation log (RFC 9162 §4.10 style): size, root, time, signature. */
export const nftTreeHead = z.object({
  treeSize: z.int(),
  /** Hex SHA-256 root of the first `treeSize` leaves. */
  rootHash: z.string(),
  /** Epoch milliseconds. */
  timestamp: z.int(),
  /** Ed25519 signature (hex) over the head's canonical bytes, by `keyId`'s public key. */
  signature: z.string(),
  keyId: z.string(),
  publicKey: z.string(),
});
export type NftTreeHead = z.infer<typeof nftTreeHead>;

/** One leaf of the log: a sale's donation or a payout to the charity's address. */
export const nftLogLeaf = z.object({
  index: z.int(),
  kind: z.enum(['sale', 'payout']),
  dropId: z.nullable(z.int()),
  tokenId: z.nullable(z.string()),
  asset: z.string(),
  amount: decimalString,
  txHash: z.nullable(z.string()),
  /** The exact bytes hashed into the leaf (hex), so a verifier recomputes the leaf hash itself. */
  leafData: z.string(),
  createdAt: z.string(),
});
export type NftLogLeaf = z.infer<typeof nftLogLeaf>;

export const nftInclusionQuery = z.object({ index: wireInt(0, Number.MAX_SAFE_INTEGER), size: wireId() });
export const nftInclusionProof = z.object({
  leaf: nftLogLeaf,
  treeSize: z.int(),
  /** Audit path, hex hashes, RFC 9162 §2.1.3. */
  path: z.array(z.string()),
});
export const nftConsistencyQuery = z.object({ m: wireId(), n: wireId() });
export const nftConsistencyProof = z.object({
  m: z.int(),
  n: z.int(),
  path: z.array(z.string()),
});
export const nftLogQuery = z.object({
  before: z.optional(wireInt(0, Number.MAX_SAFE_INTEGER)),
  size: z.optional(wireInt(1, 100)),
  /** A drop's leaves only (its sale): the donation of one NFT found without paging the whole log. */
  dropId: z.optional(wireId()),
});

/* ---------------------------------------------------------------- back office */

export const nftDropAdmin = z.object({
  ...nftView.shape,
  artworkUploadId: uploadId,
  createdBy: z.string(),
  createdAt: z.string(),
  mintedAt: z.nullable(z.string()),
  mintTxHash: z.nullable(z.string()),
  /** Settled: the entry that posted the sale. */
  settledAt: z.nullable(z.string()),
  entryId: z.nullable(dbId),
  /** The winner's or buyer's customer id. */
  buyerId: z.nullable(dbId),
});
export type NftDropAdmin = z.infer<typeof nftDropAdmin>;

const money = z.string().check(z.trim(), z.regex(/^(?=.*[1-9])\d{1,15}(\.\d{1,6})?$/));

export const nftDropCreateBody = z.object({
  book: bookSchema,
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  description: z.string().check(z.trim(), z.maxLength(2000)),
  creator: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  /** An upload of purpose `nft_artwork` made by this staff member (`uploadNftArtwork`). */
  artworkUploadId: uploadId,
  charityId: wireId(),
  /** Default NFT_CHARITY_SHARE_BPS. */
  charityShareBps: z.optional(basisPoints),
  /** Default 0, at most 2,000 (20 %); share + fee = 10,000 (the sale's one entry posts both). */
  platformFeeBps: z.optional(z.int().check(z.gte(0), z.lte(2_000))),
  asset: nftAsset,
  saleType: nftSaleType,
  startPrice: money,
  reserve: z.optional(money),
  /** Default NFT_MIN_INCREMENT_BPS; 1 to 10,000. */
  minIncrementBps: z.optional(z.int().check(z.gte(1), z.lte(10_000))),
  buyNow: z.optional(money),
  /** Auction length from the start, in minutes (10 minutes to 30 days). */
  durationMinutes: z.optional(z.int().check(z.gte(10), z.lte(43_200))),
  /** When the sale opens (ISO); default: at mint. */
  startsAt: z.optional(z.iso.datetime()),
});
export type NftDropCreateBody = z.infer<typeof nftDropCreateBody>;

export const nftDropIdBody = z.object({ dropId: wireId() });
export const nftDropsQuery = z.object({
  state: z.optional(nftDropState),
  before: z.optional(wireId()),
});

export const nftCharityBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)),
  address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
});

/** The charity account (the ledger's `charity` system account) per book and asset. */
export const nftCharityAccount = z.object({
  charities: z.array(nftCharity),
  balances: z.array(z.object({ book: bookSchema, asset: z.string(), balance: decimalString })),
  /** From the log: given (sales) and paid out, per asset (live book). */
  donated: z.array(z.object({ asset: z.string(), given: decimalString, paidOut: decimalString })),
  payoutAssets: z.array(nftAsset), // what a payout can be proposed in: what the hot wallet sends (none without one)
});
export type NftCharityAccount = z.infer<typeof nftCharityAccount>;

const NFT_PAYOUTS_OPEN = ['proposed', 'approved', 'sending', 'stuck'] as const; // stuck: unmined after fee bumps
export const NFT_PAYOUT_STATES = [...NFT_PAYOUTS_OPEN, 'sent', 'failed', 'rejected'] as const;
/** A payout from the charity account to a charity's address: one staff proposes, another approves. */
export const nftPayout = z.object({
  id: dbId,
  charityId: dbId,
  charityName: z.string(),
  address: z.string(),
  asset: nftAsset,
  amount: decimalString,
  state: z.enum(NFT_PAYOUT_STATES),
  proposedBy: z.string(),
  decidedBy: z.nullable(z.string()),
  reason: z.nullable(z.string()), // rejected: the staff's words; failed: no_chain, asset, reverted, dropped
  txHash: z.nullable(z.string()),
  logIndex: z.nullable(z.int()), // its leaf in the donation log, once sent
  createdAt: z.string(),
  decidedAt: z.nullable(z.string()),
});
export type NftPayout = z.infer<typeof nftPayout>;

export const nftPayoutProposeBody = z.object({ charityId: wireId(), asset: nftAsset, amount: money });
const note = z.optional(z.string().check(z.trim(), z.maxLength(500)));
export const nftPayoutDecideBody = z.object({ payoutId: wireId(), approve: z.boolean(), reason: note });

const READERS = STAFF_DUTIES.money.roles;
const MAKERS = STAFF_DUTIES.customerTerms.roles;

export const nftAdminCalls = {
  listNftDrops: {
    method: 'GET',
    path: '/nft/drops',
    summary: 'Drops, newest first, with their sale, state and settlement',
    roles: READERS,
    query: nftDropsQuery,
    data: z.array(nftDropAdmin),
  },
  createNftDrop: {
    method: 'POST',
    path: '/nft/drops/create',
    summary: 'Make a drop (draft): creator, artwork, charity and share, sale type and rules; audited',
    roles: MAKERS,
    body: nftDropCreateBody,
    data: nftDropAdmin,
    refusals: { 10026: 'shares that do not add up, a reserve below the start price, a missing duration' },
  },
  uploadNftArtwork: {
    method: 'POST',
    path: '/nft/artwork',
    summary:
      'Upload a drop\'s artwork (multipart, one part named "file", 5 MB): checked by its bytes and re-encoded like every upload; the drop that names it takes it, public once minted',
    roles: MAKERS,
    data: uploadedFile,
    refusals: { 10026: 'not a JPG, JPEG 2000 or PNG by its bytes', 10034: 'over 5 MB' },
  },
  mintNftDrop: {
    method: 'POST',
    path: '/nft/drops/mint',
    summary: "Mint a draft drop's token on the chain and open its sale at its start; audited",
    roles: MAKERS,
    body: nftDropIdBody,
    data: nftDropAdmin,
    refusals: { 10066: 'not a draft', 10031: 'the chain is off' },
  },
  listNftAuctions: {
    method: 'GET',
    path: '/nft/auctions',
    summary: 'Auctions live or waiting for settlement, soonest end first',
    roles: READERS,
    data: z.array(nftDropAdmin),
  },
  listNftCharities: {
    method: 'GET',
    path: '/nft/charity',
    summary:
      'The charities, the charity account per book and asset, and what the log says was given and paid out',
    roles: READERS,
    data: nftCharityAccount,
  },
  addNftCharity: {
    method: 'POST',
    path: '/nft/charity/add',
    summary: 'Add a charity with its own address; audited',
    roles: MAKERS,
    body: nftCharityBody,
    data: nftCharity,
  },
  listNftPayouts: {
    method: 'GET',
    path: '/nft/charity/payouts',
    summary: 'Payouts from the charity account, newest first',
    roles: READERS,
    data: z.array(nftPayout),
  },
  proposeNftPayout: {
    method: 'POST',
    path: '/nft/charity/payouts/propose',
    summary:
      "Propose a payout of the live charity account to a charity's address; another staff member decides",
    roles: READERS,
    body: nftPayoutProposeBody,
    data: nftPayout,
    refusals: { 10067: 'over the charity account balance', 10068: 'an asset the hot wallet cannot send' },
  },
  decideNftPayout: {
    method: 'POST',
    path: '/nft/charity/payouts/decide',
    summary:
      'Approve (one entry: charity → pending withdrawals; sending it on the chain and its log leaf come with the hot-wallet sender, not built yet) or reject a proposed payout; never by its proposer (10049); audited',
    roles: READERS,
    body: nftPayoutDecideBody,
    data: nftPayout,
    refusals: { 10049: 'the proposer decides', 10067: 'over the charity account balance' },
  },
  listNftTreeHeads: {
    method: 'GET',
    path: '/nft/log/heads',
    summary: "The donation log's published tree heads, newest first",
    roles: READERS,
    data: z.array(nftTreeHead),
  },
} as const satisfies Record<string, AdminCallDefinition>;
