import type { CloseReason, Direction, Language, TradingTerms, WithdrawalAddress } from '@swx/contract';
import type { Clock } from '../../platform/clock.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { MarketService } from '../market/market.service.ts';
import type { InstrumentTerms } from '../market/terms.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import type { ReviewService } from '../review/review.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';

/**
 * A leveraged position as the positions table and its ledger entries hold it. Trading owns and
 * writes positions; a product that trades through them (smart plans) reads them through
 * `PositionDesk`, never by importing trading (a product never imports another product).
 */
export type PositionRow = {
  id: number;
  userId: number;
  book: Book;
  instrumentId: number;
  code: string;
  direction: Direction;
  centilots: bigint;
  lotSize: bigint;
  leverage: number;
  priceDecimals: number;
  openTicks: bigint;
  stopLossTicks: bigint;
  takeProfitTicks: bigint;
  liquidationTicks: bigint;
  conversionNum: bigint;
  conversionDen: bigint;
  notionalMinor: bigint;
  marginMinor: bigint;
  feeMinor: bigint;
  feePpm: number;
  openTick: number;
  liveTick: number;
  expiresTick: number | null;
  language: string;
  requestId: string;
  openEntryId: number;
  openedAt: string;
  status: 'open' | 'closed';
  closeReason: CloseReason | null;
  closeTicks: bigint | null;
  closeTick: number | null;
  profitMinor: bigint | null;
  absorbedMinor: bigint;
  closeEntryId: number | null;
  closedAt: string | null;
  /** The smart plan that opened it: its margin comes from and returns to the plan's account. */
  planId: number | null;
};

/** What a product needs to trade through positions; the trading module implements it. */
export type PositionDesk = {
  readonly market: MarketService;
  termsOf(instrument: Instrument): InstrumentTerms;
  terms(marketId: number): TradingTerms;
  planPositions(planIds: readonly number[]): Promise<PositionRow[]>;
  openForPlan(
    plan: { planId: number; userId: number; language: Language },
    ticket: {
      marketId: number;
      t: number;
      direction: Direction;
      centilots: bigint;
      leverage: number;
      stopLossTicks: bigint;
      takeProfitTicks: bigint;
      marginMinor: bigint;
      feeMinor: bigint;
    },
    requestId: string,
  ): Promise<PositionRow>;
  settle(row: PositionRow, reason: CloseReason, t: number, closeTicks: bigint): Promise<boolean>;
};

/**
 * The customer's pay-in address for a product bought by transfer (earn's purchase by proof): the
 * wallet module gives it; null when the customer has none.
 */
export type PayInAddress = (userId: number) => Promise<{ network: string; address: string } | null>;

/**
 * The addresses that tie customers to one another, in lowercase (an EVM address is one on every
 * EVM network): the withdrawal addresses each named (removed ones too), the senders of their
 * deposits seen on chain (a declared deposit has none), and their own deposit addresses. The
 * wallet module gives it; invites compares a friend's with their inviter's (same address).
 */
export type KnownAddresses = { withdrawal: string[]; depositSources: string[]; deposit: string[] };
export type CustomerAddresses = (userIds: readonly number[]) => Promise<Map<number, KnownAddresses>>;

/**
 * The customer's withdrawal addresses (the wallet's book, live), each with `usableFrom`, the end of
 * its 24-hour lock after it was added or after a security change: the wallet gives it; NFTs are
 * sent only to these, under the same lock as a withdrawal.
 */
export type WithdrawalAddressBook = (userId: number) => Promise<WithdrawalAddress[]>;

/**
 * What else acts on the price at each second the positions' trigger engine evaluates (the price
 * alerts, which keep their own sorted levels): told each tick in order, after the engine's own
 * triggers, the ticks it catches up included. It queues its own work and never holds the engine.
 */
export type TickWatcher = (t: number) => void;

/** What a product asks the hot wallet to send: `amount` minor units of `asset` to `to` (an EVM address). */
export type ChainPayoutOrder = { asset: string; to: string; amount: bigint };

/**
 * Where a send of the hot wallet stands: `refused` (no chain or no signer: `no_chain`; an asset the
 * chain does not carry: `asset`), nothing signed; `pending` (signed, stored and broadcast, not yet
 * at the network's confirmations; `txHash` the newest, a replacement at a higher fee changes it);
 * `stuck` (unmined long after its replacements, its nonce still unused: it may yet be mined, staff
 * look at it); `confirmed` (mined and confirmed); `reverted` (mined and failed: nothing moved but
 * gas); `dropped` (its nonce used at the confirmations by another transaction: never mined, nothing
 * moved).
 */
export type ChainPayoutState =
  | { state: 'refused'; reason: 'no_chain' | 'asset' }
  | { state: 'pending' | 'stuck' | 'confirmed' | 'reverted' | 'dropped'; txHash: string };

/** The assets the hot wallet can send now (none without a chain or signer): a payout in another is refused when proposed. */
export type ChainPayoutAssets = () => readonly string[];

/**
 * The hot wallet's sends for another product (the NFT charity payouts): the wallet module owns the
 * hot wallet and its nonces and gives it. `send` is idempotent by `key`: the first call signs with
 * the hot wallet's next nonce and stores the signed transaction before it is broadcast; every
 * later call with the key (after a crash, on another node) broadcasts that same transaction again
 * while it is unmined and answers where it stands, so an order is never sent twice. A key reused
 * for another order is an error. Throws when the node cannot be reached (call again with the key).
 */
export type ChainPayout = (key: string, order: ChainPayoutOrder) => Promise<ChainPayoutState>;

/**
 * What a money product takes from the base, by service name (its `<m>.module.ts` needs): the clock,
 * audit, ledger, notices, identity checks, uploads, settings, the staff review queues and staff.
 */
export type ProductBase = {
  clock: Clock;
  audit: AuditService;
  ledger: LedgerService;
  notices: NoticesService;
  kyc: KycService;
  uploads: UploadsService;
  params: ParamsService;
  reviews: ReviewService;
  staff: StaffService;
};
