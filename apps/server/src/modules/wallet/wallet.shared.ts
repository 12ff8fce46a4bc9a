import { type Book, Code, isLanguage, type Language, type NetworkAsset } from '@swx/contract';
import { z } from 'zod/mini';
import type { Chain, WithdrawalSigner } from '../../platform/chain.ts';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { EntryAttachment, HoldAttachment } from '../ledger/ledger.types.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import { bigintText, type Quotes } from '../products/quotes.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { decimal, type Networks } from './wallet.networks.ts';
import type { NetworkRow } from './wallet.repository.ts';

/*
 * What the wallet's use cases share: the live book rule, the contexts that `Deposits` and
 * `Withdrawals` build once (their parts and their ledger attachments, `wallet.attachments.ts`),
 * the attachments' data, and the few steps more than one of them takes.
 */

export const LIVE: Book = 'live';

/** Deposits and withdrawals exist in the live book only (10043 in the demo book). */
export function requireLive(book: Book): void {
  if (book !== LIVE) throw new ApiError(Code.LIVE_BOOK_ONLY);
}

/** A transaction hash as one form whichever way it arrives: lowercase hex, no 0x. */
export const normalHash = (hash: string) => hash.trim().toLowerCase().replace(/^0x/, '');

/** The customer's language, for their notices (English when unknown). */
export async function languageOf(
  customers: Pick<CustomerDirectory, 'get'>,
  userId: number,
): Promise<Language> {
  const customer = await customers.get(userId);
  return customer && isLanguage(customer.language) ? customer.language : 'en';
}

/** Derives a customer's deposit address from the platform's extended public keys (no private key here). */
export type AddressDeriver = { evm(index: number): string; bitcoin(index: number): string };

// Money in

export type DepositDeps = {
  db: Database;
  ledger: LedgerService;
  audit: AuditService;
  notices: NoticesService;
  uploads: UploadsService;
  customers: Pick<CustomerDirectory, 'get' | 'languagesOf'>;
  networks: Networks;
  derive: AddressDeriver;
  chain: Chain | null;
  /** The service's clock, epoch milliseconds: every time written is on it (Date.now by default). */
  now?: () => number;
  logger?: Logger;
};

/** The moment now on the service's clock, as every wallet time is written (never the database's `now()`). */
export const nowIso = (ctx: { readonly now: () => number }): string => new Date(ctx.now()).toISOString();

/** A chain deposit credited: the row moved on and the customer told. */
export type CreditData = {
  depositId: number;
  userId: number;
  language: Language;
  amount: string;
  asset: string;
};

/** A deposit declared with a proof, as its clearing hold carries it (amounts as text: attachment data is JSON). */
export type DeclaredData = {
  userId: number;
  network: string;
  asset: NetworkRow['asset'];
  amount: string;
  txHash: string;
  address: string;
  minimum: string;
  lastSix: string;
  proof: string;
};

/** A pending proof closed because the watcher credited its transaction. */
export type ClosedData = {
  depositId: number;
  userId: number;
  language: Language;
  amount: string;
  asset: string;
  chainDepositId: number;
};

/** The records the deposits write with their ledger entries and holds (`wallet.attachments.ts`). */
export type DepositAttachments = {
  /** `deposit` entries of the watcher: the deposit credited, the customer told. */
  readonly credited: EntryAttachment<CreditData, boolean>;
  /** The lock of a credited deposit (a hold of its amount on the wallet). */
  readonly locked: HoldAttachment<{ depositId: number }, boolean>;
  /** The lock voided at the unlock depth: the deposit available (withdrawable), the customer told. */
  readonly unlocked: HoldAttachment<CreditData, boolean>;
  /** The clearing hold of a declared deposit: the proof row and its upload. */
  readonly declared: HoldAttachment<DeclaredData, number>;
  /** The clearing hold of a proof the watcher credited meanwhile, voided: the proof closed. */
  readonly closed: HoldAttachment<ClosedData, boolean>;
};

/** The parts every deposit use case works with; `Deposits` builds it once. */
export type DepositsContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly audit: AuditService;
  readonly notices: NoticesService;
  readonly uploads: UploadsService;
  readonly customers: Pick<CustomerDirectory, 'get' | 'languagesOf'>;
  readonly networks: Networks;
  readonly derive: AddressDeriver;
  readonly chain: Chain | null;
  readonly now: () => number;
  readonly logger: Logger | undefined;
  readonly attachments: DepositAttachments;
  /** Deposits whose failed reversal staff were alerted of (once per process). */
  readonly alerted: Set<number>;
};

/** A network whose proofs are checked on chain: an EVM network the platform watches, with a chain to read. */
export const checkable = (network: NetworkRow, chain: Chain | null): chain is Chain =>
  chain !== null &&
  network.chain === 'evm' &&
  network.watched &&
  (network.asset === 'USDT' || network.asset === 'ETH');

// Money out

export type WithdrawalDeps = {
  db: Database;
  ledger: LedgerService;
  audit: AuditService;
  notices: NoticesService;
  identity: Pick<
    IdentityService,
    'confirmationMethod' | 'sendActionCode' | 'confirmAction' | 'securityChangedAt' | 'securityAlert'
  >;
  kyc: Pick<KycService, 'stateOf'>;
  params: Pick<ParamsService, 'get'>;
  customers: Pick<CustomerDirectory, 'get'>;
  networks: Networks;
  chain: Chain | null;
  signer: WithdrawalSigner | null;
  quoteKeys: PurposeKeys;
  now?: () => number;
  logger?: Logger;
};

/** What a withdrawal quote carries and the commit posts, exactly. */
export const WITHDRAWAL = {
  name: 'withdrawal.v1',
  validSeconds: 60,
  figures: z.object({
    network: z.string(),
    addressId: z.int(),
    address: z.string(),
    amount: bigintText,
    fee: bigintText,
    receive: bigintText,
  }),
} as const;

/** A withdrawal requested, as its hold carries it: the row to write, and the daily limit to check. */
export type RequestedData = {
  userId: number;
  requestId: string;
  network: string;
  asset: NetworkAsset;
  addressId: number;
  address: string;
  amount: string;
  fee: string;
  receive: string;
  limit: string;
  since: string;
};

/** A sent withdrawal's end: the row moved on and the customer told. */
export type StepData = {
  withdrawalId: number;
  userId: number;
  language: Language;
  params: Record<string, string>;
};

/** The records the withdrawals write with their ledger entries and holds (`wallet.attachments.ts`). */
export type WithdrawalAttachments = {
  /** The hold of a request: the withdrawal row, after the daily limit is counted under the customer's lock. */
  readonly requested: HoldAttachment<RequestedData, number>;
  /** The hold posted at the network's confirmations: completed, the customer told. */
  readonly posted: HoldAttachment<StepData, boolean>;
  /** The hold voided when sending failed: failed, the customer told. */
  readonly released: HoldAttachment<StepData & { reason: string }, boolean>;
  /** The split of the posted amount (received and fee): its entry kept on the row. */
  readonly settled: EntryAttachment<{ withdrawalId: number }, boolean>;
};

/** The parts every withdrawal use case works with; `Withdrawals` builds it once. */
export type WithdrawalsContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly audit: AuditService;
  readonly notices: NoticesService;
  readonly identity: WithdrawalDeps['identity'];
  readonly kyc: Pick<KycService, 'stateOf'>;
  readonly params: Pick<ParamsService, 'get'>;
  readonly customers: Pick<CustomerDirectory, 'get'>;
  readonly networks: Networks;
  readonly chain: Chain | null;
  readonly signer: WithdrawalSigner | null;
  readonly now: () => number;
  readonly logger: Logger | undefined;
  /** The signed quotes of product `withdrawal.v1` (the quote keys). */
  readonly quotes: Quotes<typeof WITHDRAWAL.figures>;
  readonly attachments: WithdrawalAttachments;
};

export const startOfUtcDay = (ms: number) => {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())).toISOString();
};

/** 10040: the day's withdrawals of the asset with this one would pass the limit (what is left named). */
export function limitRefusal(data: { asset: NetworkAsset; limit: string }, used: bigint): ApiError {
  const limit = BigInt(data.limit);
  const left = limit > used ? limit - used : 0n;
  return new ApiError(Code.DAILY_LIMIT_REACHED, {
    asset: data.asset,
    limit: decimal({ asset: data.asset }, limit),
    left: decimal({ asset: data.asset }, left),
  });
}
