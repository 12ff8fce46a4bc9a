import {
  ASSET_SCALES,
  type Asset,
  Code,
  type EarnInvestment,
  parseMinor,
  formatMinor as toDecimal,
} from '@swx/contract';
import { z } from 'zod/mini';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';
import type { EntryAttachment, HoldAttachment } from '../ledger/ledger.types.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { addDays, dailyPpm, ppmText, utcDay } from '../products/figures.ts';
import { bigintText, type QuoteProduct, type Quotes } from '../products/quotes.ts';
import { unfundedSince } from '../products/settlement.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { Schedule, Terms } from './earn.figures.ts';
import type { ProductRow } from './earn.products.repository.ts';
import { type InvestmentRow, type insertInvestment, investmentById } from './earn.repository.ts';

/*
 * What the earn use cases share (products, staff, purchase, proof, redemption, reads, settlement):
 * the quotes' figures, the ledger attachments' data, the accounts of a product, the parts they
 * work with and the few steps more than one of them takes.
 */

/** A basket's realised return on a UTC day in ppm (mean of its instruments' daily close-to-close), or null without prices. */
export type BasketRate = (basket: readonly string[], day: string) => bigint | null;

/** The purchase quote's figures: exactly what the commit posts. */
export const purchaseFigures = z.object({
  productId: z.int(),
  type: z.enum(['fund', 'vip']),
  income: z.enum(['static', 'dynamic']),
  amount: bigintText,
  termDays: z.nullable(z.int()),
  ratePpm: z.nullable(bigintText),
  penaltyPpm: bigintText,
  purchaseDay: z.string(),
  totalInterest: z.nullable(bigintText),
});
export type PurchaseFigures = z.output<typeof purchaseFigures>;

/** The redemption quote's figures. */
export const redemptionFigures = z.object({
  id: z.int(),
  day: z.string(),
  penalty: bigintText,
  clawback: bigintText,
  receive: bigintText,
  remaining: bigintText,
  incomeToDate: bigintText,
});

/** The offers earn states: a purchase and a redemption, each valid a minute. */
export const PURCHASE: QuoteProduct<typeof purchaseFigures> = {
  name: 'earn.purchase.v1',
  validSeconds: 60,
  figures: purchaseFigures,
};
export const REDEMPTION: QuoteProduct<typeof redemptionFigures> = {
  name: 'earn.redeem.v1',
  validSeconds: 60,
  figures: redemptionFigures,
};

/** What a subscription's ledger transaction writes: the investment, and its share of the capacity. */
export type Subscription = Omit<
  Parameters<typeof insertInvestment>[1],
  'entryId' | 'clearingHoldId' | 'promiseEntryId'
>;

/** What the end of an investment writes: its status and figures, and the maturity notice. */
export type EndingData = {
  id: number;
  userId: number;
  status: 'expired' | 'redeemed';
  day: string | null;
  received: string;
  penalty: string;
  /** When (the service clock, ISO). */
  at: string;
  notice: Record<string, string> | null;
};

/** The records the earn module writes with its ledger entries and holds (`earn.attachments.ts`). */
export type EarnAttachments = {
  /** `earn_subscribe` entries: a purchase from the balance, the investment and its capacity. */
  readonly subscribe: EntryAttachment<Subscription, number>;
  /** The `earn_proof` hold of a purchase by proof: the pending investment and its upload. */
  readonly proofHold: HoldAttachment<Subscription & { proof: string }, number>;
  /** `earn_reserve` entries: the interest of a purchase by proof promised (or returned). */
  readonly promise: EntryAttachment<{ investmentId: number; back: boolean }, never>;
  /** `earn_redeem` entries: the end of an investment (maturity or early redemption). */
  readonly ending: EntryAttachment<EndingData, never>;
  /** `earn_payout` entries: a day's income. */
  readonly income: EntryAttachment<{ investmentId: number; day: string; amount: string }, never>;
};

/** The parts every use case works with; `EarnService` builds it once. */
export type EarnContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly audit: AuditService;
  readonly notices: NoticesService;
  readonly kyc: Pick<KycService, 'stateOf'>;
  readonly uploads: Pick<UploadsService, 'takeInTx'>;
  readonly payIn: (userId: number, asset: Asset) => Promise<{ network: string; address: string } | null>;
  readonly basketRate: BasketRate;
  /** The clock of the earn days (tests move it). */
  readonly now: () => number;
  readonly logger: Logger | undefined;
  readonly purchaseQuotes: Quotes<typeof purchaseFigures>;
  readonly redemptionQuotes: Quotes<typeof redemptionFigures>;
  readonly attachments: EarnAttachments;
};

export const TEXT_DAYS = 30;
export const PAGE = 500;

export function today(ctx: EarnContext): string {
  return utcDay(ctx.now());
}

/** When the product's reserve could not pay a day in a book (the first day still owed); null when it owes none. */
export function shortSince(
  ctx: EarnContext,
  book: Book,
  product: Pick<ProductRow, 'id'>,
): Promise<string | null> {
  return unfundedSince(ctx.db, `earn.${product.id}`, book);
}

// Accounts of a product

export function reserveAccount(
  ctx: EarnContext,
  book: Book,
  product: Pick<ProductRow, 'id' | 'asset'>,
): Promise<number> {
  return ctx.ledger.productAccount(book, product.asset, `earn_reserve_${product.id}`);
}

export function owedAccount(
  ctx: EarnContext,
  book: Book,
  product: Pick<ProductRow, 'id' | 'asset'>,
): Promise<number> {
  return ctx.ledger.productAccount(book, product.asset, `earn_owed_${product.id}`);
}

async function accountBalance(ctx: EarnContext, id: number): Promise<bigint> {
  const account = await ctx.ledger.account(id);
  return account ? account.balance - account.held : 0n;
}

/** The product's reserve not yet promised, and the interest promised to current investors, in a book. */
export async function coverage(
  ctx: EarnContext,
  book: Book,
  product: ProductRow,
): Promise<{ reserveFree: bigint; reservedInterest: bigint }> {
  const [reserveFree, reservedInterest] = await Promise.all([
    accountBalance(ctx, await reserveAccount(ctx, book, product)),
    ctx.ledger.account(await owedAccount(ctx, book, product)).then((a) => a?.balance ?? 0n),
  ]);
  return { reserveFree, reservedInterest };
}

/** An amount a customer or staff typed, in minor units: not a positive amount of the asset is 10013. */
export function amountOf(p: ProductRow, text: string): bigint {
  try {
    const v = parseMinor(text, ASSET_SCALES[p.asset]);
    if (v <= 0n) throw new Error('zero');
    return v;
  } catch {
    throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, { asset: p.asset });
  }
}

// Investments

/** The customer's own investment in a book; anyone else's: 10028. */
export async function mine(ctx: EarnContext, book: Book, userId: number, id: number): Promise<InvestmentRow> {
  const row = await investmentById(ctx.db, id);
  if (!row || row.userId !== userId || row.book !== book) throw new ApiError(Code.NOT_FOUND);
  return row;
}

/** An investment's terms: a product's (or an investment's copy of them) for an amount. */
export const termsOf = (
  p: Pick<ProductRow, 'income' | 'termDays' | 'annualRatePpm' | 'penaltyPpm'>,
  amount: bigint,
): Terms => ({
  income: p.income,
  amount,
  termDays: p.termDays,
  annualRatePpm: p.annualRatePpm,
  penaltyPpm: p.penaltyPpm,
});

export const figureTerms = (f: PurchaseFigures): Terms => ({
  income: f.income,
  amount: f.amount,
  termDays: f.termDays,
  annualRatePpm: f.ratePpm,
  penaltyPpm: f.penaltyPpm,
});

export const rowTerms = (row: InvestmentRow): Terms => termsOf(row, row.amount);

export const rowSchedule = (row: InvestmentRow): Schedule => ({
  accrualStart: row.accrualStart ?? '9999-12-31',
  endDay: row.endDay,
  totalInterest: row.totalInterest,
});

/** An investment on the wire; `paused` when its product's reserve owes it days (`pausedOf`). */
export function wireInvestment(row: InvestmentRow, paused: EarnInvestment['paused'] = null): EarnInvestment {
  const scale = ASSET_SCALES[row.asset];
  const d = (v: bigint) => toDecimal(v, scale);
  const end = row.endDay === null ? null : `${addDays(row.endDay, 1)}T00:00:00.000Z`;
  return {
    id: row.id,
    productId: row.productId,
    productName: row.productName,
    type: row.type,
    income: row.income,
    asset: row.asset,
    amount: d(row.amount),
    termDays: row.termDays,
    annualRate: row.annualRatePpm === null ? null : ppmText(row.annualRatePpm),
    dailyRate: row.annualRatePpm === null ? null : ppmText(dailyPpm(row.annualRatePpm)),
    penaltyRate: ppmText(row.penaltyPpm),
    payWith: row.payWith,
    status: row.status,
    entrustTime: new Date(row.createdAt).toISOString(),
    accrualStart: row.accrualStart === null ? null : `${row.accrualStart}T00:00:00.000Z`,
    expiryTime: end,
    collectionTime: end,
    totalInterest: row.totalInterest === null ? null : d(row.totalInterest),
    incomeToDate: d(row.paid),
    incomeLastDay: row.lastPaid === null ? null : d(row.lastPaid),
    redeemedAt: row.redeemedAt === null ? null : new Date(row.redeemedAt).toISOString(),
    received: row.receivedMinor === null ? null : d(row.receivedMinor),
    reason: row.reason,
    paused,
  };
}
