import type {
  Asset,
  EarnInvestment,
  EarnInvestmentDetail,
  EarnProduct,
  EarnProductAdmin,
  EarnQuote,
  EarnRedeemQuote,
  EarnType,
  earnProductBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import type { Database, Queryable } from '../../platform/db.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { Quotes } from '../products/quotes.ts';
import type { SettledProduct, SettlementRunner } from '../products/settlement.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { earnAttachments } from './earn.attachments.ts';
import { runDaily } from './earn.jobs.ts';
import { listProducts, type ProductRow, productById } from './earn.products.repository.ts';
import { price, product, products } from './earn.products.ts';
import { applyWithProof, promiseOf, unpromise } from './earn.proof.ts';
import { apply, quote } from './earn.purchase.ts';
import { investment, investments, summary, wallet } from './earn.reads.ts';
import { redeem, redeemQuote } from './earn.redeem.ts';
import {
  type InvestmentRow,
  investmentById,
  type investmentsOwed,
  pendingProofs,
} from './earn.repository.ts';
import { mature, publishRates, returnRefusedPromises, settled } from './earn.settlement.ts';
import {
  type BasketRate,
  coverage,
  type EarnContext,
  owedAccount,
  PURCHASE,
  REDEMPTION,
  reserveAccount,
} from './earn.shared.ts';
import { adminList, createProduct, fundReserve, updateProduct } from './earn.staff.ts';

export { earnReturnsJob } from './earn.jobs.ts';
export { type BasketRate, rowSchedule, rowTerms, wireInvestment } from './earn.shared.ts';

/**
 * Earn, the module's public API: a thin front over its use cases, one file each — the products on
 * sale (`earn.products.ts`), staff's products and reserves (`earn.staff.ts`), the purchase from the
 * balance (`earn.purchase.ts`) and by proof with its promise (`earn.proof.ts`), early redemption
 * (`earn.redeem.ts`), the customer's reads (`earn.reads.ts`) and the daily settlement
 * (`earn.settlement.ts`, its jobs in `earn.jobs.ts`); the ledger attachments are in
 * `earn.attachments.ts`, and what they share in `earn.shared.ts`.
 */
export class EarnService {
  private readonly ctx: EarnContext;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    audit: AuditService;
    notices: NoticesService;
    kyc: Pick<KycService, 'stateOf'>;
    uploads: Pick<UploadsService, 'takeInTx'>;
    payIn?: (userId: number, asset: Asset) => Promise<{ network: string; address: string } | null>;
    basketRate: BasketRate;
    quoteKeys: PurposeKeys;
    now?: () => number;
    logger?: Logger;
  }) {
    const now = deps.now ?? Date.now;
    this.ctx = {
      db: deps.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      kyc: deps.kyc,
      uploads: deps.uploads,
      payIn: deps.payIn ?? (async () => null),
      basketRate: deps.basketRate,
      now,
      logger: deps.logger,
      purchaseQuotes: new Quotes(PURCHASE, { keys: deps.quoteKeys, db: deps.db, now }),
      redemptionQuotes: new Quotes(REDEMPTION, { keys: deps.quoteKeys, db: deps.db, now }),
      attachments: earnAttachments(deps),
    };
  }

  // Accounts of a product

  reserveAccount(book: Book, product: Pick<ProductRow, 'id' | 'asset'>): Promise<number> {
    return reserveAccount(this.ctx, book, product);
  }

  owedAccount(book: Book, product: Pick<ProductRow, 'id' | 'asset'>): Promise<number> {
    return owedAccount(this.ctx, book, product);
  }

  /** The product's reserve not yet promised, and the interest promised to current investors, in a book. */
  coverage(book: Book, product: ProductRow): Promise<{ reserveFree: bigint; reservedInterest: bigint }> {
    return coverage(this.ctx, book, product);
  }

  // Products

  products(
    book: Book,
    type: EarnType,
    filter: { income?: 'static' | 'dynamic'; asset?: Asset; term?: 'flexible' | 'fixed' } = {},
  ): Promise<EarnProduct[]> {
    return products(this.ctx, book, type, filter);
  }

  product(book: Book, id: number): Promise<EarnProduct> {
    return product(this.ctx, book, id);
  }

  price(
    id: number,
  ): Promise<{ productId: number; days: { day: string; rate: string; unitPrice: string }[] }> {
    return price(this.ctx, id);
  }

  // Staff

  adminList(): Promise<EarnProductAdmin[]> {
    return adminList(this.ctx);
  }

  createProduct(actor: string, body: z.infer<typeof earnProductBody>): Promise<EarnProductAdmin> {
    return createProduct(this.ctx, actor, body);
  }

  /** A change applies to new investments only: each investment keeps the figures it was bought at. */
  updateProduct(
    actor: string,
    body: z.infer<typeof earnProductBody> & { id: number },
  ): Promise<EarnProductAdmin> {
    return updateProduct(this.ctx, actor, body);
  }

  /** Staff fund a product's reserve: a ledger transfer from the house (the demo book: demo issuance), audited by the ledger. */
  fundReserve(
    actor: string,
    body: { productId: number; book: Book; amount: string; reason: string },
    requestKey: string,
  ): Promise<EarnProductAdmin> {
    return fundReserve(this.ctx, actor, body, requestKey);
  }

  // Purchase

  quote(book: Book, userId: number, body: { productId: number; amount: string }): Promise<EarnQuote> {
    return quote(this.ctx, book, userId, body);
  }

  /** Buys at a quote from the available balance: one ledger entry moves the principal and the promised interest. */
  apply(
    book: Book,
    userId: number,
    body: { quoteId: string; requestId: string },
    type: EarnType,
  ): Promise<EarnInvestment> {
    return apply(this.ctx, book, userId, body, type);
  }

  /**
   * Buys at a quote by a transfer with a payment proof (the live book): the amount is held on
   * external clearing with the investment (pending), and the interest of a fixed term is promised
   * from the reserve at once; staff approve (the investment starts the next day) or reject.
   */
  applyWithProof(
    book: Book,
    userId: number,
    body: { quoteId: string; proof: string; txHash: string },
  ): Promise<EarnInvestment> {
    return applyWithProof(this.ctx, book, userId, body);
  }

  /** Moves a proof purchase's promised interest from the reserve to the owed account (once). */
  promiseOf(row: InvestmentRow): Promise<void> {
    return promiseOf(this.ctx, row);
  }

  /** A refused proof's promised interest goes back to the reserve (once). */
  unpromise(row: InvestmentRow): Promise<void> {
    return unpromise(this.ctx, row);
  }

  // Redemption

  redeemQuote(book: Book, userId: number, id: number): Promise<EarnRedeemQuote> {
    return redeemQuote(this.ctx, book, userId, id);
  }

  /** Redeems at a quote: one entry returns what it said, the penalty to fees, the income deducted and the unearned promise to the reserve. */
  redeem(book: Book, userId: number, body: { quoteId: string }, type: EarnType): Promise<EarnInvestment> {
    return redeem(this.ctx, book, userId, body, type);
  }

  // Reads

  investments(
    book: Book,
    userId: number,
    filter: { itemType?: EarnType; status?: EarnInvestment['status'] },
  ): Promise<EarnInvestment[]> {
    return investments(this.ctx, book, userId, filter);
  }

  investment(book: Book, userId: number, id: number): Promise<EarnInvestmentDetail> {
    return investment(this.ctx, book, userId, id);
  }

  /** Per asset, of one type of investment (fund or VIP; both when none is named). */
  summary(book: Book, userId: number, type: EarnType | null = null): ReturnType<typeof summary> {
    return summary(this.ctx, book, userId, type);
  }

  wallet(book: Book, userId: number): ReturnType<typeof wallet> {
    return wallet(this.ctx, book, userId);
  }

  // Daily settlement

  /** A product as the settlement runner pays it: static interest from the owed account (fixed term) or the reserve; dynamic from the reserve. */
  settled(p: ProductRow): SettledProduct<Awaited<ReturnType<typeof investmentsOwed>>[number]> {
    return settled(this.ctx, p);
  }

  /** Publishes a dynamic product's rates up to `through` (once per day: a published day never changes). */
  publishRates(p: ProductRow, through: string): Promise<void> {
    return publishRates(this.ctx, p, through);
  }

  /**
   * One run of the daily job: publish dynamic rates, settle every product's due days, pay back the
   * principal of investments whose last day is settled, and return refused proofs' promises.
   * Answers the days that could not be settled (their reserve is short: staff were alerted).
   * `investmentsAWindow`: how many investments' customers are told of their income at a time.
   */
  runDaily(
    runner: SettlementRunner,
    investmentsAWindow?: number,
  ): Promise<{ product: string; book: Book; day: string }[]> {
    return runDaily(this.ctx, runner, investmentsAWindow);
  }

  /** Refused proofs' promised interest back to the reserve (a job runs it every minute). */
  returnRefusedPromises(): Promise<number> {
    return returnRefusedPromises(this.ctx);
  }

  /** Principal back at the end of the term (its last day of interest settled), with a notice. */
  mature(p: ProductRow, book: Book, throughDay: string): Promise<number> {
    return mature(this.ctx, p, book, throughDay);
  }

  pendingProofs(after: number | null, limit: number): Promise<InvestmentRow[]> {
    return pendingProofs(this.ctx.db, after, limit);
  }

  async productRow(id: number): Promise<ProductRow | null> {
    return productById(this.ctx.db, id);
  }

  /** An investment, read in the caller's transaction when given one. */
  async investmentRow(id: number, tx: Queryable = this.ctx.db): Promise<InvestmentRow | null> {
    return investmentById(tx, id);
  }

  async allProducts(): Promise<ProductRow[]> {
    return listProducts(this.ctx.db);
  }
}
