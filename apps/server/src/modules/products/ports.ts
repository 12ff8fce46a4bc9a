import type { CloseReason, Direction, Language, TradingTerms } from '@swx/contract';
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
