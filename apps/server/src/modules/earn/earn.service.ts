import {
  ASSET_SCALES,
  type Asset,
  Code,
  type EarnInvestment,
  type EarnInvestmentDetail,
  type EarnProduct,
  type EarnProductAdmin,
  type EarnQuote,
  type EarnRedeemQuote,
  type EarnType,
  type earnProductBody,
  parseMinor,
  formatMinor as toDecimal,
} from '@swx/contract';
import { z } from 'zod/mini';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { type Job, minuteKey } from '../../platform/jobs.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import { type Book, EARN, LedgerError, type LedgerService } from '../ledger/ledger.service.ts';
import type { Posting } from '../ledger/ledger.types.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { addDays, dailyPpm, PPM, ppmOf, ppmText, utcDay } from '../products/figures.ts';
import { bigintText, Quotes } from '../products/quotes.ts';
import type { SettledProduct, SettlementRunner } from '../products/settlement.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import {
  dynamicPayment,
  redemptionOn,
  redemptionTable,
  type Schedule,
  scheduleOf,
  staticPaymentFor,
  type Terms,
} from './earn.figures.ts';
import {
  capacityUsed,
  firstReserveRefusal,
  type InvestmentRow,
  incomesOf,
  insertIncomes,
  insertInvestment,
  insertProduct,
  insertRate,
  investedByProduct,
  investmentById,
  investmentByRequestKey,
  investmentsOf,
  investmentsOwed,
  listProducts,
  markEnded,
  maturing,
  type ProductFields,
  type ProductRow,
  pendingProofs,
  productById,
  rateOf,
  ratesOf,
  rejectedUnreturned,
  rejectProofInTx,
  setPromised,
  setUnpromised,
  summaryOf,
  takeCapacity,
  updateProduct,
} from './earn.repository.ts';

/** A basket's realised return on a UTC day in ppm (mean of its instruments' daily close-to-close), or null without prices. */
export type BasketRate = (basket: readonly string[], day: string) => bigint | null;

/** The purchase quote's figures: exactly what the commit posts. */
const purchaseFigures = z.object({
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
type PurchaseFigures = z.output<typeof purchaseFigures>;

/** The redemption quote's figures. */
const redemptionFigures = z.object({
  id: z.int(),
  day: z.string(),
  penalty: bigintText,
  clawback: bigintText,
  receive: bigintText,
  remaining: bigintText,
  incomeToDate: bigintText,
});

/** What a subscription's ledger transaction writes: the investment, and its share of the capacity. */
type Subscription = Omit<
  Parameters<typeof insertInvestment>[1],
  'entryId' | 'clearingHoldId' | 'promiseEntryId'
>;

const TEXT_DAYS = 30;
const PAGE = 500;

export class EarnService {
  private readonly db: Database;
  private readonly ledger: LedgerService;
  private readonly audit: AuditService;
  private readonly notices: NoticesService;
  private readonly kyc: Pick<KycService, 'stateOf'>;
  private readonly uploads: Pick<UploadsService, 'takeInTx'>;
  private readonly payIn: (
    userId: number,
    asset: Asset,
  ) => Promise<{ network: string; address: string } | null>;
  private readonly basketRate: BasketRate;
  private readonly now: () => number;
  private readonly logger: Logger | undefined;
  private readonly purchaseQuotes: Quotes<typeof purchaseFigures>;
  private readonly redemptionQuotes: Quotes<typeof redemptionFigures>;
  private readonly subscribe;
  private readonly proofHold;
  private readonly promise;
  private readonly ending;
  private readonly income;

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
    this.db = deps.db;
    this.ledger = deps.ledger;
    this.audit = deps.audit;
    this.notices = deps.notices;
    this.kyc = deps.kyc;
    this.uploads = deps.uploads;
    this.payIn = deps.payIn ?? (async () => null);
    this.basketRate = deps.basketRate;
    this.now = deps.now ?? Date.now;
    this.logger = deps.logger;
    this.purchaseQuotes = new Quotes(
      { name: 'earn.purchase.v1', validSeconds: 60, figures: purchaseFigures },
      { keys: deps.quoteKeys, db: deps.db, now: this.now },
    );
    this.redemptionQuotes = new Quotes(
      { name: 'earn.redeem.v1', validSeconds: 60, figures: redemptionFigures },
      { keys: deps.quoteKeys, db: deps.db, now: this.now },
    );
    // A purchase from the balance: the investment and its capacity, in the purchase's transaction.
    this.subscribe = this.ledger.attachment(
      'earn_subscribe',
      async (tx, rows: readonly { entryId: number; data: Subscription }[]) => {
        const out = new Map<number, number>();
        for (const row of rows)
          out.set(
            row.entryId,
            await this.insertSubscription(tx, row.data, { entryId: row.entryId, holdId: null }),
          );
        return out;
      },
    );
    // A purchase by proof: the amount declared is held on external clearing until staff decide.
    this.proofHold = this.ledger.holdAttachment(
      'earn_proof',
      async (tx, rows: readonly { holdId: number; data: Subscription & { proof: string } }[]) => {
        const out = new Map<number, number>();
        for (const row of rows) {
          const id = await this.insertSubscription(tx, row.data, { entryId: null, holdId: row.holdId });
          await this.uploads.takeInTx(
            tx,
            row.data.userId,
            [{ path: 'proof', id: row.data.proof, purpose: 'fund_proof' }],
            `earn:${id}`,
          );
          out.set(row.holdId, id);
        }
        return out;
      },
    );
    // The interest of a purchase by proof moved to the owed account (or back when refused).
    this.promise = this.ledger.attachment(
      'earn_reserve',
      async (tx, rows: readonly { entryId: number; data: { investmentId: number; back: boolean } }[]) => {
        for (const row of rows)
          if (row.data.investmentId > 0)
            await (row.data.back ? setUnpromised : setPromised)(tx, row.data.investmentId, row.entryId);
        return new Map();
      },
    );
    // The end of an investment (maturity or early redemption), in its ledger transaction.
    this.ending = this.ledger.attachment(
      'earn_redeem',
      async (
        tx,
        rows: readonly {
          entryId: number;
          data: {
            id: number;
            userId: number;
            status: 'expired' | 'redeemed';
            day: string | null;
            received: string;
            penalty: string;
            notice: Record<string, string> | null;
          };
        }[],
      ) => {
        await markEnded(
          tx,
          rows.map((r) => ({
            id: r.data.id,
            status: r.data.status,
            redeemedDay: r.data.day,
            received: BigInt(r.data.received),
            penalty: BigInt(r.data.penalty),
          })),
        );
        for (const r of rows)
          if (r.data.notice)
            await this.notices.notifyInTx(tx, r.data.userId, 'en', 'earn_matured', r.data.notice);
        return new Map();
      },
    );
    this.income = this.ledger.attachment(
      'earn_payout',
      async (
        tx,
        rows: readonly { entryId: number; data: { investmentId: number; day: string; amount: string } }[],
      ) => {
        await insertIncomes(
          tx,
          rows.map((r) => ({
            investmentId: r.data.investmentId,
            day: r.data.day,
            amount: BigInt(r.data.amount),
            entryId: r.entryId,
          })),
        );
        return new Map();
      },
    );
  }

  private async insertSubscription(
    tx: Queryable,
    data: Subscription,
    ledgerIds: { entryId: number | null; holdId: number | null },
  ): Promise<number> {
    if (!(await takeCapacity(tx, data.productId, data.book, data.amount)))
      throw new ApiError(Code.SOLD_OUT, { reason: 'capacity' });
    try {
      return await insertInvestment(tx, {
        ...data,
        entryId: ledgerIds.entryId,
        clearingHoldId: ledgerIds.holdId,
        // A purchase from the balance moves its interest in the same entry.
        promiseEntryId: data.totalInterest !== null && data.totalInterest > 0n ? ledgerIds.entryId : null,
      });
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === '23505' && constraint === 'earn_investments_one_key')
        throw new ApiError(Code.ALREADY_PURCHASED);
      if (code === '23505' && constraint === 'earn_investments_tx_hash_key')
        throw new ApiError(Code.TRANSACTION_ALREADY_USED);
      throw error;
    }
  }

  // Accounts of a product

  reserveAccount(book: Book, product: Pick<ProductRow, 'id' | 'asset'>): Promise<number> {
    return this.ledger.productAccount(book, product.asset, `earn_reserve_${product.id}`);
  }

  owedAccount(book: Book, product: Pick<ProductRow, 'id' | 'asset'>): Promise<number> {
    return this.ledger.productAccount(book, product.asset, `earn_owed_${product.id}`);
  }

  private async accountBalance(id: number): Promise<bigint> {
    const account = await this.ledger.account(id);
    return account ? account.balance - account.held : 0n;
  }

  /** The product's reserve not yet promised, and the interest promised to current investors, in a book. */
  async coverage(
    book: Book,
    product: ProductRow,
  ): Promise<{ reserveFree: bigint; reservedInterest: bigint }> {
    const [reserveFree, reservedInterest] = await Promise.all([
      this.accountBalance(await this.reserveAccount(book, product)),
      this.ledger.account(await this.owedAccount(book, product)).then((a) => a?.balance ?? 0n),
    ]);
    return { reserveFree, reservedInterest };
  }

  // Products

  private today(): string {
    return utcDay(this.now());
  }

  private async wireProduct(
    book: Book,
    p: ProductRow,
    used: Map<string, bigint>,
    trailing?: bigint | null,
  ): Promise<EarnProduct> {
    const scale = ASSET_SCALES[p.asset];
    const { reserveFree, reservedInterest } = await this.coverage(book, p);
    const invested = used.get(`${p.id}:${book}`) ?? 0n;
    const trailingRate = p.income === 'dynamic' ? (trailing ?? (await this.trailingPpm(p.id))) : null;
    // Sold out: not on sale, no room for the minimum, or (fixed-term static) a reserve that cannot
    // promise the minimum's interest.
    const minInterest =
      p.income === 'static' && p.termDays !== null && p.annualRatePpm !== null
        ? (scheduleOf(termsOf(p, p.minMinor), this.today()).totalInterest ?? 0n)
        : null;
    const soldOut = !p.enabled
      ? ('disabled' as const)
      : invested + p.minMinor > p.capacityMinor
        ? ('capacity' as const)
        : minInterest !== null && (minInterest > reserveFree || reserveFree <= 0n)
          ? ('reserve' as const)
          : null;
    return {
      id: p.id,
      type: p.type,
      name: p.name,
      asset: p.asset,
      income: p.income,
      termDays: p.termDays,
      annualRate: p.annualRatePpm === null ? null : ppmText(p.annualRatePpm),
      dailyRate: p.annualRatePpm === null ? null : ppmText(dailyPpm(p.annualRatePpm)),
      basket: p.basket,
      trailingRate: trailingRate === null || trailingRate === undefined ? null : ppmText(trailingRate),
      minAmount: toDecimal(p.minMinor, scale),
      maxAmount: toDecimal(p.maxMinor, scale),
      capacity: toDecimal(p.capacityMinor, scale),
      invested: toDecimal(invested, scale),
      penaltyRate: ppmText(p.penaltyPpm),
      requiresKyc: p.requiresKyc,
      onePerCustomer: p.onePerCustomer,
      reservedInterest: toDecimal(reservedInterest, scale),
      reserveFree: toDecimal(reserveFree, scale),
      enabled: p.enabled,
      soldOut,
    };
  }

  /** The realised annual rate of the last 30 published days of a dynamic product (past figures). */
  private async trailingPpm(productId: number): Promise<bigint | null> {
    const days = await ratesOf(this.db, productId, TEXT_DAYS);
    if (days.length === 0) return null;
    const sum = days.reduce((s, d) => s + d.ratePpm, 0n);
    return (sum * 365n) / BigInt(days.length);
  }

  async products(
    book: Book,
    type: EarnType,
    filter: { income?: 'static' | 'dynamic'; asset?: Asset; term?: 'flexible' | 'fixed' } = {},
  ): Promise<EarnProduct[]> {
    const used = await capacityUsed(this.db);
    const rows = (await listProducts(this.db)).filter(
      (p) =>
        p.type === type &&
        p.enabled &&
        (filter.income === undefined || p.income === filter.income) &&
        (filter.asset === undefined || p.asset === filter.asset) &&
        (filter.term === undefined || (filter.term === 'flexible') === (p.termDays === null)),
    );
    return Promise.all(rows.map((p) => this.wireProduct(book, p, used)));
  }

  async product(book: Book, id: number): Promise<EarnProduct> {
    const p = await productById(this.db, id);
    if (!p) throw new ApiError(Code.NOT_FOUND);
    return this.wireProduct(book, p, await capacityUsed(this.db));
  }

  async price(
    id: number,
  ): Promise<{ productId: number; days: { day: string; rate: string; unitPrice: string }[] }> {
    const p = await productById(this.db, id);
    if (!p) throw new ApiError(Code.NOT_FOUND);
    const days = await ratesOf(this.db, id, 366);
    return {
      productId: id,
      days: days.map((d) => ({
        day: d.day,
        rate: ppmText(d.ratePpm),
        unitPrice: toDecimal(d.unitPriceE8, 8),
      })),
    };
  }

  // Staff

  async adminList(): Promise<EarnProductAdmin[]> {
    const [rows, used, invested] = await Promise.all([
      listProducts(this.db),
      capacityUsed(this.db),
      investedByProduct(this.db),
    ]);
    return Promise.all(rows.map((p) => this.adminRow(p, used, invested)));
  }

  private async adminRow(
    p: ProductRow,
    used?: Map<string, bigint>,
    invested?: Map<string, { invested: bigint; investments: number }>,
  ): Promise<EarnProductAdmin> {
    const u = used ?? (await capacityUsed(this.db));
    const inv = invested ?? (await investedByProduct(this.db));
    const scale = ASSET_SCALES[p.asset];
    const books = await Promise.all(
      (['demo', 'live'] as const).map(async (book) => {
        const c = await this.coverage(book, p);
        const i = inv.get(`${p.id}:${book}`);
        return {
          book,
          reserveFree: toDecimal(c.reserveFree, scale),
          reservedInterest: toDecimal(c.reservedInterest, scale),
          invested: toDecimal(i?.invested ?? 0n, scale),
          investments: i?.investments ?? 0,
        };
      }),
    );
    return { product: await this.wireProduct('live', p, u), books };
  }

  private fields(body: z.infer<typeof earnProductBody>): ProductFields {
    const scale = ASSET_SCALES[body.asset];
    const amount = (text: string, path: string) => {
      try {
        const v = parseMinor(text, scale);
        if (v <= 0n) throw new Error('zero');
        return v;
      } catch {
        throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'amount' }]);
      }
    };
    const minMinor = amount(body.minAmount, 'minAmount');
    const maxMinor = amount(body.maxAmount, 'maxAmount');
    if (maxMinor < minMinor)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'maxAmount', issue: 'below_minimum' }]);
    const capacityMinor = amount(body.capacity, 'capacity');
    if (body.income === 'static' && body.annualRate === null)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'annualRate', issue: 'required' }]);
    if (body.income === 'dynamic' && body.basket.length === 0)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'basket', issue: 'required' }]);
    return {
      type: body.type,
      name: body.name,
      asset: body.asset,
      income: body.income,
      termDays: body.termDays,
      annualRatePpm: body.income === 'static' && body.annualRate !== null ? ppmOf(body.annualRate) : null,
      basket: body.income === 'dynamic' ? body.basket : [],
      minMinor,
      maxMinor,
      capacityMinor,
      penaltyPpm: body.termDays === null ? 0n : ppmOf(body.penaltyRate),
      requiresKyc: body.requiresKyc,
      onePerCustomer: body.onePerCustomer,
      enabled: body.enabled,
    };
  }

  async createProduct(actor: string, body: z.infer<typeof earnProductBody>): Promise<EarnProductAdmin> {
    const fields = this.fields(body);
    const row = await this.db.transaction(async (tx) => {
      const p = await insertProduct(tx, fields);
      await this.audit.appendInTx(tx, [
        { actor, action: 'earn.product.created', subject: `earn:${p.id}`, data: body },
      ]);
      return p;
    });
    return this.adminRow(row);
  }

  /** A change applies to new investments only: each investment keeps the figures it was bought at. */
  async updateProduct(
    actor: string,
    body: z.infer<typeof earnProductBody> & { id: number },
  ): Promise<EarnProductAdmin> {
    const before = await productById(this.db, body.id);
    if (!before) throw new ApiError(Code.NOT_FOUND);
    if (before.asset !== body.asset)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'asset', issue: 'fixed' }]);
    const fields = this.fields(body);
    const row = await this.db.transaction(async (tx) => {
      const p = await updateProduct(tx, body.id, fields);
      if (!p) throw new ApiError(Code.NOT_FOUND);
      await this.audit.appendInTx(tx, [
        { actor, action: 'earn.product.updated', subject: `earn:${p.id}`, data: { before, after: body } },
      ]);
      return p;
    });
    return this.adminRow(row);
  }

  /** Staff fund a product's reserve: a ledger transfer from the house (the demo book: demo issuance), audited by the ledger. */
  async fundReserve(
    actor: string,
    body: { productId: number; book: Book; amount: string; reason: string },
    requestKey: string,
  ): Promise<EarnProductAdmin> {
    const p = await productById(this.db, body.productId);
    if (!p) throw new ApiError(Code.NOT_FOUND);
    const amount = this.amountOf(p, body.amount);
    const from = await this.ledger.systemAccount(
      body.book,
      p.asset,
      body.book === 'demo' ? 'demo_issuance' : 'house_pnl',
    );
    await this.ledger.transfer({
      book: body.book,
      kind: 'earn_reserve',
      idempotencyKey: requestKey,
      actor,
      reason: body.reason,
      reference: `earn:${p.id}`,
      postings: [
        { accountId: from, amount: -amount },
        { accountId: await this.reserveAccount(body.book, p), amount },
      ],
      attach: this.promise.with({ investmentId: 0, back: false }),
    });
    return this.adminRow(p);
  }

  private amountOf(p: ProductRow, text: string): bigint {
    try {
      const v = parseMinor(text, ASSET_SCALES[p.asset]);
      if (v <= 0n) throw new Error('zero');
      return v;
    } catch {
      throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, { asset: p.asset });
    }
  }

  // Purchase

  private async buyable(book: Book, userId: number, id: number, type: EarnType | null): Promise<ProductRow> {
    const p = await productById(this.db, id);
    if (!p || (type !== null && p.type !== type)) throw new ApiError(Code.NOT_FOUND);
    if (!p.enabled) throw new ApiError(Code.SOLD_OUT, { reason: 'disabled' });
    if (p.requiresKyc && book === 'live' && (await this.kyc.stateOf(userId)) !== 'verified')
      throw new ApiError(Code.VIP_NOT_ELIGIBLE);
    return p;
  }

  /** The figures of a purchase: one function for the preview and the postings. */
  private figures(p: ProductRow, amount: bigint, purchaseDay: string): PurchaseFigures {
    if (amount < p.minMinor || amount > p.maxMinor)
      throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, {
        asset: p.asset,
        minimum: toDecimal(p.minMinor, ASSET_SCALES[p.asset]),
        maximum: toDecimal(p.maxMinor, ASSET_SCALES[p.asset]),
      });
    const schedule = scheduleOf(termsOf(p, amount), purchaseDay);
    return {
      productId: p.id,
      type: p.type,
      income: p.income,
      amount,
      termDays: p.termDays,
      ratePpm: p.annualRatePpm,
      penaltyPpm: p.penaltyPpm,
      purchaseDay,
      totalInterest: schedule.totalInterest,
    };
  }

  async quote(book: Book, userId: number, body: { productId: number; amount: string }): Promise<EarnQuote> {
    const p = await this.buyable(book, userId, body.productId, null);
    const issuedAt = Math.floor(this.now() / 1000);
    const purchaseDay = utcDay(issuedAt * 1000);
    const f = this.figures(p, this.amountOf(p, body.amount), purchaseDay);
    const terms = figureTerms(f);
    const schedule = scheduleOf(terms, purchaseDay);
    const scale = ASSET_SCALES[p.asset];
    const d = (v: bigint) => toDecimal(v, scale);
    const available =
      (await this.ledger.balances(book, userId)).find((b) => b.asset === p.asset)?.available ?? 0n;
    const ref = this.purchaseQuotes.issue({ customerId: userId, book }, issuedAt, f);
    const end = schedule.endDay === null ? null : `${addDays(schedule.endDay, 1)}T00:00:00.000Z`;
    return {
      ...ref,
      productId: p.id,
      productName: p.name,
      type: p.type,
      income: p.income,
      asset: p.asset,
      amount: d(f.amount),
      termDays: f.termDays,
      annualRate: f.ratePpm === null ? null : ppmText(f.ratePpm),
      dailyRate: f.ratePpm === null ? null : ppmText(dailyPpm(f.ratePpm)),
      dailyProfit:
        f.ratePpm === null ? null : d(staticPaymentFor(terms, schedule.accrualStart, schedule.accrualStart)),
      estimatedProfit: f.totalInterest === null ? null : d(f.totalInterest),
      entrustTime: new Date(issuedAt * 1000).toISOString(),
      accrualStart: `${schedule.accrualStart}T00:00:00.000Z`,
      expiryTime: end,
      collectionTime: end,
      penaltyRate: ppmText(f.penaltyPpm),
      redemption: redemptionTable(terms, schedule, purchaseDay).map((r) => ({
        day: r.day,
        penalty: d(r.penalty),
        incomeToDate: d(r.incomeToDate),
        receive: d(r.receive),
      })),
      available: d(available),
    };
  }

  private subscription(
    f: PurchaseFigures,
    p: ProductRow,
    userId: number,
    book: Book,
    requestKey: string,
    proof: { txHash: string; proof: string } | null,
  ): Subscription {
    const schedule = scheduleOf(figureTerms(f), f.purchaseDay);
    return {
      productId: p.id,
      userId,
      book,
      asset: p.asset,
      amount: f.amount,
      income: f.income,
      termDays: f.termDays,
      annualRatePpm: f.ratePpm,
      penaltyPpm: f.penaltyPpm,
      totalInterest: f.totalInterest,
      onePerCustomer: p.onePerCustomer,
      payWith: proof ? 'proof' : 'balance',
      status: proof ? 'pending' : 'in_progress',
      requestKey,
      txHash: proof?.txHash ?? null,
      proofUpload: proof?.proof ?? null,
      accrualStart: proof ? null : schedule.accrualStart,
      endDay: proof ? null : schedule.endDay,
    };
  }

  /** Refused by the reserve (not by the customer's balance): sold out, and staff hear of it once a day. */
  private async reserveRefused(error: unknown, book: Book, p: ProductRow): Promise<never> {
    if (
      error instanceof LedgerError &&
      error.reason === 'insufficient_funds' &&
      error.accountId === (await this.reserveAccount(book, p))
    ) {
      if (await firstReserveRefusal(this.db, p.id, book, this.today()))
        await this.audit.alertStaff(
          'earn.reserve',
          `the reserve of earn product ${p.id} (${p.name}, ${book}) cannot cover the interest of a new investment: purchases are refused until it is funded`,
          { productId: p.id, book, asset: p.asset },
        );
      throw new ApiError(Code.SOLD_OUT, { reason: 'reserve' });
    }
    throw error;
  }

  /** Buys at a quote from the available balance: one ledger entry moves the principal and the promised interest. */
  async apply(
    book: Book,
    userId: number,
    body: { quoteId: string; requestId: string },
    type: EarnType,
  ): Promise<EarnInvestment> {
    const requestKey = `earn-buy:${userId}:${body.requestId}`;
    return this.purchaseQuotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey,
        replay: async () => this.replay(requestKey, userId),
        post: async ({ figures: f }) => {
          const done = await this.replay(requestKey, userId);
          if (done) return done;
          if (f.type !== type) throw new ApiError(Code.NOT_FOUND);
          if (f.purchaseDay !== this.today()) throw new ApiError(Code.PRICE_CHANGED, { reason: 'day' });
          const p = await this.buyable(book, userId, f.productId, type);
          const postings: Posting[] = [
            { accountId: await this.ledger.walletAccount(book, userId, p.asset), amount: -f.amount },
            { accountId: await this.ledger.accountId(book, userId, p.asset, EARN), amount: f.amount },
          ];
          if (f.totalInterest !== null && f.totalInterest > 0n)
            postings.push(
              { accountId: await this.reserveAccount(book, p), amount: -f.totalInterest },
              { accountId: await this.owedAccount(book, p), amount: f.totalInterest },
            );
          const result = await this.ledger
            .transfer({
              book,
              kind: 'earn_subscribe',
              idempotencyKey: requestKey,
              actor: `customer:${userId}`,
              reference: `earn:${p.id}`,
              postings,
              attach: this.subscribe.with(this.subscription(f, p, userId, book, requestKey, null)),
            })
            .catch((error: unknown) => this.reserveRefused(error, book, p));
          const id = result.attached ?? (await investmentByRequestKey(this.db, requestKey))?.id;
          const row = id === undefined ? null : await investmentById(this.db, id);
          if (!row) throw new Error(`investment of ${requestKey} not found`);
          return wireInvestment(row);
        },
      },
    );
  }

  private async replay(requestKey: string, userId: number): Promise<EarnInvestment | null> {
    const row = await investmentByRequestKey(this.db, requestKey);
    return row && row.userId === userId ? wireInvestment(row) : null;
  }

  /**
   * Buys at a quote by a transfer with a payment proof (the live book): the amount is held on
   * external clearing with the investment (pending), and the interest of a fixed term is promised
   * from the reserve at once; staff approve (the investment starts the next day) or reject.
   */
  async applyWithProof(
    book: Book,
    userId: number,
    body: { quoteId: string; proof: string; txHash: string },
  ): Promise<EarnInvestment> {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const txHash = body.txHash.toLowerCase().replace(/^0x/, '');
    const requestKey = `earn-proof:${userId}:${txHash}`;
    return this.purchaseQuotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey,
        replay: async () => this.replay(requestKey, userId),
        post: async ({ figures: f }) => {
          const done = await this.replay(requestKey, userId);
          if (done) return done;
          const p = await this.buyable(book, userId, f.productId, f.type);
          const held = await this.ledger
            .hold({
              book,
              accountId: await this.ledger.systemAccount(book, p.asset, 'external_clearing'),
              amount: f.amount,
              idempotencyKey: requestKey,
              actor: `customer:${userId}`,
              reference: `earn:${p.id}`,
              attach: this.proofHold.with({
                ...this.subscription(f, p, userId, book, requestKey, { txHash, proof: body.proof }),
                proof: body.proof,
              }),
            })
            .catch((error: unknown) => {
              if ((error as { code?: string }).code === '23505')
                throw new ApiError(Code.TRANSACTION_ALREADY_USED);
              throw error;
            });
          const id = held.attached ?? (await investmentByRequestKey(this.db, requestKey))?.id;
          const row = id === undefined ? null : await investmentById(this.db, id);
          if (!row) throw new Error(`investment of ${requestKey} not found`);
          try {
            await this.promiseOf(row);
          } catch (error) {
            // The reserve cannot promise its interest: refuse it now, nothing kept.
            await this.ledger.voidHold({
              holdId: held.holdId,
              idempotencyKey: `earn-proof-void:${row.id}`,
              actor: 'system',
              attach: undefined,
            });
            await this.db.transaction((tx) =>
              rejectProofInTx(
                tx,
                row.id,
                "the product's reserve could not cover its interest; nothing was taken",
              ),
            );
            await this.reserveRefused(error, book, p);
          }
          return wireInvestment((await investmentById(this.db, row.id)) ?? row);
        },
      },
    );
  }

  /** Moves a proof purchase's promised interest from the reserve to the owed account (once). */
  async promiseOf(row: InvestmentRow): Promise<void> {
    if (row.totalInterest === null || row.totalInterest === 0n || row.promiseEntryId !== null) return;
    await this.movePromise(row, row.totalInterest, false);
  }

  /** A refused proof's promised interest goes back to the reserve (once). */
  async unpromise(row: InvestmentRow): Promise<void> {
    if (row.promiseEntryId === null || row.unpromiseEntryId !== null || row.totalInterest === null) return;
    await this.movePromise(row, row.totalInterest, true);
  }

  /** One transfer between a product's reserve and its owed account for an investment's interest. */
  private async movePromise(row: InvestmentRow, interest: bigint, back: boolean): Promise<void> {
    const p = await productById(this.db, row.productId);
    if (!p) throw new Error(`product ${row.productId} is gone`);
    const [reserve, owed] = [await this.reserveAccount(row.book, p), await this.owedAccount(row.book, p)];
    await this.ledger.transfer({
      book: row.book,
      kind: 'earn_reserve',
      idempotencyKey: `${back ? 'earn-unpromise' : 'earn-promise'}:${row.id}`,
      actor: 'system',
      reference: `earn:${p.id}:${row.id}`,
      postings: [
        { accountId: back ? owed : reserve, amount: -interest },
        { accountId: back ? reserve : owed, amount: interest },
      ],
      attach: this.promise.with({ investmentId: row.id, back }),
    });
  }

  // Redemption

  private async mine(book: Book, userId: number, id: number): Promise<InvestmentRow> {
    const row = await investmentById(this.db, id);
    if (!row || row.userId !== userId || row.book !== book) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  async redeemQuote(book: Book, userId: number, id: number): Promise<EarnRedeemQuote> {
    const row = await this.mine(book, userId, id);
    if (row.status !== 'in_progress' || row.accrualStart === null)
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
    const issuedAt = Math.floor(this.now() / 1000);
    const day = utcDay(issuedAt * 1000);
    const terms = rowTerms(row);
    const schedule = rowSchedule(row);
    // The term is over: the principal comes back at the day's settlement, there is nothing to redeem early.
    if (schedule.endDay !== null && day > schedule.endDay) throw new ApiError(Code.NO_MATCHING_PERIOD);
    const r = redemptionOn(terms, schedule, day, row.paid);
    const ref = this.redemptionQuotes.issue({ customerId: userId, book }, issuedAt, {
      id: row.id,
      day,
      penalty: r.penalty,
      clawback: r.clawback,
      receive: r.receive,
      remaining: r.remaining,
      incomeToDate: r.incomeToDate,
    });
    const scale = ASSET_SCALES[row.asset];
    return {
      ...ref,
      id: row.id,
      asset: row.asset,
      amount: toDecimal(row.amount, scale),
      penalty: toDecimal(r.penalty, scale),
      incomeToDate: toDecimal(r.incomeToDate, scale),
      receive: toDecimal(r.receive, scale),
      atMaturity:
        schedule.totalInterest === null ? null : toDecimal(row.amount + schedule.totalInterest, scale),
    };
  }

  /** Redeems at a quote: one entry returns what it said, the penalty to fees, the income deducted and the unearned promise to the reserve. */
  async redeem(
    book: Book,
    userId: number,
    body: { quoteId: string },
    type: EarnType,
  ): Promise<EarnInvestment> {
    return this.redemptionQuotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        // One redemption of an investment: a repeat of its quote answers the redeemed investment.
        requestKey: `earn-redeem:${userId}:${book}`,
        replay: async () => null,
        post: async ({ figures: f }) => {
          const row = await this.mine(book, userId, f.id);
          if (row.type !== type) throw new ApiError(Code.NOT_FOUND);
          if (row.status === 'redeemed') return wireInvestment(row);
          if (row.status !== 'in_progress') throw new ApiError(Code.WRONG_COLLECTION_STATUS);
          if (f.day !== this.today()) throw new ApiError(Code.PRICE_CHANGED, { reason: 'day' });
          const p = await productById(this.db, row.productId);
          if (!p) throw new Error(`product ${row.productId} is gone`);
          const postings: Posting[] = [
            { accountId: await this.ledger.accountId(book, userId, row.asset, EARN), amount: -row.amount },
          ];
          const add = (accountId: number, amount: bigint) => {
            if (amount !== 0n) postings.push({ accountId, amount });
          };
          add(await this.ledger.walletAccount(book, userId, row.asset), f.receive);
          add(await this.ledger.systemAccount(book, row.asset, 'fees'), f.penalty);
          add(await this.reserveAccount(book, p), f.clawback + f.remaining);
          add(await this.owedAccount(book, p), -f.remaining);
          await this.ledger.transfer({
            book,
            kind: 'earn_redeem',
            idempotencyKey: `earn-end:${row.id}`,
            actor: `customer:${userId}`,
            reference: `earn:${p.id}:${row.id}`,
            postings,
            attach: this.ending.with({
              id: row.id,
              userId,
              status: 'redeemed',
              day: f.day,
              received: f.receive.toString(),
              penalty: f.penalty.toString(),
              notice: null,
            }),
          });
          return wireInvestment((await investmentById(this.db, row.id)) ?? row);
        },
      },
    );
  }

  // Reads

  async investments(
    book: Book,
    userId: number,
    filter: { itemType?: EarnType; status?: EarnInvestment['status'] },
  ): Promise<EarnInvestment[]> {
    return (
      await investmentsOf(this.db, userId, book, {
        ...(filter.itemType ? { type: filter.itemType } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      })
    ).map(wireInvestment);
  }

  async investment(book: Book, userId: number, id: number): Promise<EarnInvestmentDetail> {
    const row = await this.mine(book, userId, id);
    const scale = ASSET_SCALES[row.asset];
    const incomes = await incomesOf(this.db, row.id);
    return {
      ...wireInvestment(row),
      incomes: incomes.map((i) => ({
        day: i.day,
        amount: toDecimal(i.amount, scale),
        rate: i.ratePpm === null ? null : ppmText(i.ratePpm),
      })),
    };
  }

  async summary(book: Book, userId: number) {
    const lastDay = addDays(this.today(), -1);
    return (await summaryOf(this.db, userId, book, lastDay)).map((s) => {
      const scale = ASSET_SCALES[s.asset];
      return {
        asset: s.asset,
        invested: toDecimal(s.invested, scale),
        incomeToday: toDecimal(s.incomeDay, scale),
        totalIncome: toDecimal(s.total, scale),
      };
    });
  }

  async wallet(book: Book, userId: number) {
    const balances = await this.ledger.balances(book, userId);
    const payIn = book === 'live' ? await this.payIn(userId, 'USDT') : null;
    return {
      balances: balances.map((b) => ({ asset: b.asset, available: toDecimal(b.available, b.scale) })),
      payIn: payIn ? { ...payIn, asset: 'USDT' } : null,
    };
  }

  // Daily settlement

  /** A product as the settlement runner pays it: static interest from the owed account (fixed term) or the reserve; dynamic from the reserve. */
  settled(p: ProductRow): SettledProduct<Awaited<ReturnType<typeof investmentsOwed>>[number]> {
    const fromOwed = p.income === 'static' && p.termDays !== null;
    return {
      name: `earn.${p.id}`,
      books: ['demo', 'live'],
      asset: p.asset,
      source: {
        name: fromOwed ? `earn_owed_${p.id}` : `earn_reserve_${p.id}`,
        account: (book) => (fromOwed ? this.owedAccount(book, p) : this.reserveAccount(book, p)),
        guarded: true,
      },
      entryKind: 'earn_payout',
      pageHoldings: (book, afterId, limit, day) => investmentsOwed(this.db, p.id, book, afterId, limit, day),
      paymentFor: async (h, day) => {
        if (h.income === 'static')
          return staticPaymentFor(
            {
              income: 'static',
              amount: h.amount,
              termDays: h.termDays,
              annualRatePpm: h.annualRatePpm,
              penaltyPpm: h.penaltyPpm,
            },
            h.accrualStart,
            day,
          );
        const rate = await rateOf(this.db, p.id, day);
        return rate === null ? 0n : dynamicPayment(h.amount, rate);
      },
      reference: (h) => `earn:${p.id}:${h.id}`,
      attach: (h, day, amount) => this.income.with({ investmentId: h.id, day, amount: amount.toString() }),
    };
  }

  /** Publishes a dynamic product's rates up to `through` (once per day: a published day never changes). */
  async publishRates(p: ProductRow, through: string): Promise<void> {
    if (p.income !== 'dynamic') return;
    const last = (await ratesOf(this.db, p.id, 1))[0];
    let day = last ? addDays(last.day, 1) : utcDay(Date.parse(p.createdAt));
    let price = last?.unitPriceE8 ?? 100_000_000n;
    for (let n = 0; day <= through && n < 400; n++, day = addDays(day, 1)) {
      const rate = this.basketRate(p.basket, day) ?? 0n;
      price = (price * (PPM + rate)) / PPM;
      if (price <= 0n) price = 1n;
      await insertRate(this.db, p.id, day, rate, price);
    }
  }

  /**
   * One run of the daily job: publish dynamic rates, settle every product's due days, pay back the
   * principal of investments whose last day is settled, and return refused proofs' promises.
   * Answers the days that could not be settled (their reserve is short: staff were alerted).
   */
  async runDaily(runner: SettlementRunner): Promise<{ product: string; book: Book; day: string }[]> {
    const due = runner.dueDay();
    const unfunded: { product: string; book: Book; day: string }[] = [];
    for (const p of await listProducts(this.db)) {
      await this.publishRates(p, due);
      const days = await runner.settleDue(this.settled(p));
      for (const book of ['demo', 'live'] as const) {
        const stop = days.find((d) => d.book === book && d.status === 'unfunded');
        if (stop) unfunded.push({ product: stop.product, book, day: stop.day });
        const settledThrough = stop ? addDays(stop.day, -1) : days.filter((d) => d.book === book).at(-1)?.day;
        if (settledThrough) await this.mature(p, book, settledThrough);
      }
    }
    await this.returnRefusedPromises();
    return unfunded;
  }

  /** Refused proofs' promised interest back to the reserve (a job runs it every minute). */
  async returnRefusedPromises(): Promise<number> {
    const rows = await rejectedUnreturned(this.db, PAGE);
    for (const row of rows) await this.unpromise(row);
    return rows.length;
  }

  /** Principal back at the end of the term (its last day of interest settled), with a notice. */
  async mature(p: ProductRow, book: Book, throughDay: string): Promise<number> {
    let count = 0;
    for (;;) {
      const rows = await maturing(this.db, p.id, book, throughDay, PAGE);
      if (rows.length === 0) return count;
      await Promise.all(
        rows.map(async (row) => {
          const scale = ASSET_SCALES[row.asset];
          const interest = row.totalInterest ?? row.paid;
          await this.ledger.transfer({
            book,
            kind: 'earn_redeem',
            idempotencyKey: `earn-end:${row.id}`,
            actor: 'system',
            reference: `earn:${p.id}:${row.id}`,
            postings: [
              {
                accountId: await this.ledger.accountId(book, row.userId, row.asset, EARN),
                amount: -row.amount,
              },
              { accountId: await this.ledger.walletAccount(book, row.userId, row.asset), amount: row.amount },
            ],
            attach: this.ending.with({
              id: row.id,
              userId: row.userId,
              status: 'expired',
              day: null,
              received: row.amount.toString(),
              penalty: '0',
              notice: {
                product: p.name,
                amount: toDecimal(row.amount, scale),
                interest: toDecimal(interest, scale),
                asset: row.asset,
              },
            }),
          });
        }),
      );
      count += rows.length;
      this.logger?.info({ product: p.id, book, count: rows.length }, 'earn investments matured');
    }
  }

  pendingProofs(after: number | null, limit: number): Promise<InvestmentRow[]> {
    return pendingProofs(this.db, after, limit);
  }

  async productRow(id: number): Promise<ProductRow | null> {
    return productById(this.db, id);
  }

  /** An investment, read in the caller's transaction when given one. */
  async investmentRow(id: number, tx: Queryable = this.db): Promise<InvestmentRow | null> {
    return investmentById(tx, id);
  }

  async allProducts(): Promise<ProductRow[]> {
    return listProducts(this.db);
  }
}

/**
 * The daily earn job: run key = the day the runner settles; every 15 minutes until it has run. A
 * day a reserve cannot cover fails the run (staff were alerted by the runner), so it is tried
 * again and resumes once the reserve is funded.
 */
export function earnDailyJob(earn: EarnService, runner: SettlementRunner): Job {
  return {
    name: 'earn.daily',
    everyMs: 15 * 60_000,
    runKey: () => runner.dueDay(),
    maxAttempts: 96,
    run: async ({ logger }) => {
      const unfunded = await earn.runDaily(runner);
      if (unfunded.length > 0)
        throw new Error(
          `earn settlement stopped: ${unfunded.map((u) => `${u.product} ${u.book} ${u.day}`).join(', ')}`,
        );
      logger.info('earn settlement done');
    },
  };
}

/** Every minute: a refused proof's promise goes back to its reserve. */
export function earnReturnsJob(earn: EarnService): Job {
  return {
    name: 'earn.returns',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async () => {
      await earn.returnRefusedPromises();
    },
  };
}

/** An investment's terms: a product's (or an investment's copy of them) for an amount. */
const termsOf = (
  p: Pick<ProductRow, 'income' | 'termDays' | 'annualRatePpm' | 'penaltyPpm'>,
  amount: bigint,
): Terms => ({
  income: p.income,
  amount,
  termDays: p.termDays,
  annualRatePpm: p.annualRatePpm,
  penaltyPpm: p.penaltyPpm,
});

const figureTerms = (f: PurchaseFigures): Terms => ({
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

export function wireInvestment(row: InvestmentRow): EarnInvestment {
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
  };
}
