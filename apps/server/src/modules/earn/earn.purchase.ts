import {
  ASSET_SCALES,
  Code,
  type EarnInvestment,
  type EarnQuote,
  type EarnType,
  formatMinor as toDecimal,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { type Book, EARN, LedgerError } from '../ledger/ledger.service.ts';
import type { Posting } from '../ledger/ledger.types.ts';
import { addDays, dailyPpm, ppmText, utcDay } from '../products/figures.ts';
import { redemptionTable, scheduleOf, staticPaymentFor } from './earn.figures.ts';
import {
  capacityUsed,
  firstReserveRefusal,
  type ProductRow,
  productById,
} from './earn.products.repository.ts';
import { limits } from './earn.products.ts';
import { investmentById, investmentByRequestKey } from './earn.repository.ts';
import {
  amountOf,
  type EarnContext,
  figureTerms,
  owedAccount,
  type PurchaseFigures,
  reserveAccount,
  type Subscription,
  shortSince,
  termsOf,
  today,
  wireInvestment,
} from './earn.shared.ts';

/* A purchase: the quote, and the commit from the available balance (by proof: `earn.proof.ts`). */

export async function buyable(
  ctx: EarnContext,
  book: Book,
  userId: number,
  id: number,
  type: EarnType | null,
): Promise<ProductRow> {
  const p = await productById(ctx.db, id);
  if (!p || (type !== null && p.type !== type)) throw new ApiError(Code.NOT_FOUND);
  if (!p.enabled) throw new ApiError(Code.SOLD_OUT, { reason: 'disabled' });
  // Its reserve owes current investors a day: off sale until staff fund it.
  if ((await shortSince(ctx, book, p)) !== null)
    throw new ApiError(Code.SOLD_OUT, { reason: 'reserve_short' });
  if (p.requiresKyc && book === 'live' && (await ctx.kyc.stateOf(userId)) !== 'verified')
    throw new ApiError(Code.VIP_NOT_ELIGIBLE);
  return p;
}

/** The figures of a purchase: one function for the preview and the postings. */
function figures(p: ProductRow, amount: bigint, purchaseDay: string): PurchaseFigures {
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

export async function quote(
  ctx: EarnContext,
  book: Book,
  userId: number,
  body: { productId: number; amount: string },
): Promise<EarnQuote> {
  const p = await buyable(ctx, book, userId, body.productId, null);
  const issuedAt = Math.floor(ctx.now() / 1000);
  const purchaseDay = utcDay(issuedAt * 1000);
  const amount = amountOf(p, body.amount);
  // What can still be invested is known before the last click: refused here with that figure.
  const room = await limits(ctx, book, p, await capacityUsed(ctx.db));
  if (room.soldOut === 'reserve') await alertReserve(ctx, book, p);
  if (room.soldOut !== null) throw new ApiError(Code.SOLD_OUT, { reason: room.soldOut });
  if (amount > room.investable)
    throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, {
      asset: p.asset,
      minimum: toDecimal(p.minMinor, ASSET_SCALES[p.asset]),
      maximum: toDecimal(room.investable, ASSET_SCALES[p.asset]),
    });
  const f = figures(p, amount, purchaseDay);
  const terms = figureTerms(f);
  const schedule = scheduleOf(terms, purchaseDay);
  const scale = ASSET_SCALES[p.asset];
  const d = (v: bigint) => toDecimal(v, scale);
  const available =
    (await ctx.ledger.balances(book, userId)).find((b) => b.asset === p.asset)?.available ?? 0n;
  const ref = ctx.purchaseQuotes.issue({ customerId: userId, book }, issuedAt, f);
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

export function subscription(
  f: PurchaseFigures,
  p: ProductRow,
  userId: number,
  book: Book,
  requestKey: string,
  proof: { txHash: string; proof: string } | null,
  now: number,
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
    createdAt: new Date(now).toISOString(),
  };
}

/** Refused by the reserve (not by the customer's balance): sold out, and staff hear of it once a day. */
export async function reserveRefused(
  ctx: EarnContext,
  error: unknown,
  book: Book,
  p: ProductRow,
): Promise<never> {
  if (
    error instanceof LedgerError &&
    error.reason === 'insufficient_funds' &&
    error.accountId === (await reserveAccount(ctx, book, p))
  ) {
    await alertReserve(ctx, book, p);
    throw new ApiError(Code.SOLD_OUT, { reason: 'reserve' });
  }
  throw error;
}

/**
 * A product its reserve cannot sell (refused at the quote, or at the commit when another purchase
 * took the last of it): staff hear of it once a day per product and book.
 */
async function alertReserve(ctx: EarnContext, book: Book, p: ProductRow): Promise<void> {
  if (await firstReserveRefusal(ctx.db, p.id, book, today(ctx)))
    await ctx.audit.alertStaff(
      'earn.reserve',
      `the reserve of earn product ${p.id} (${p.name}, ${book}) cannot cover the interest of a new investment: purchases are refused until it is funded`,
      { productId: p.id, book, asset: p.asset },
    );
}

/** Buys at a quote from the available balance: one ledger entry moves the principal and the promised interest. */
export async function apply(
  ctx: EarnContext,
  book: Book,
  userId: number,
  body: { quoteId: string; requestId: string },
  type: EarnType,
): Promise<EarnInvestment> {
  const requestKey = `earn-buy:${userId}:${body.requestId}`;
  return ctx.purchaseQuotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      requestKey,
      replay: async () => replay(ctx, requestKey, userId),
      post: async ({ figures: f }) => {
        const done = await replay(ctx, requestKey, userId);
        if (done) return done;
        if (f.type !== type) throw new ApiError(Code.NOT_FOUND);
        if (f.purchaseDay !== today(ctx)) throw new ApiError(Code.PRICE_CHANGED, { reason: 'day' });
        const p = await buyable(ctx, book, userId, f.productId, type);
        const postings: Posting[] = [
          { accountId: await ctx.ledger.walletAccount(book, userId, p.asset), amount: -f.amount },
          { accountId: await ctx.ledger.accountId(book, userId, p.asset, EARN), amount: f.amount },
        ];
        if (f.totalInterest !== null && f.totalInterest > 0n)
          postings.push(
            { accountId: await reserveAccount(ctx, book, p), amount: -f.totalInterest },
            { accountId: await owedAccount(ctx, book, p), amount: f.totalInterest },
          );
        const result = await ctx.ledger
          .transfer({
            book,
            kind: 'earn_subscribe',
            idempotencyKey: requestKey,
            actor: `customer:${userId}`,
            reference: `earn:${p.id}`,
            postings,
            attach: ctx.attachments.subscribe.with(
              subscription(f, p, userId, book, requestKey, null, ctx.now()),
            ),
          })
          .catch((error: unknown) => reserveRefused(ctx, error, book, p));
        const id = result.attached ?? (await investmentByRequestKey(ctx.db, requestKey))?.id;
        const row = id === undefined ? null : await investmentById(ctx.db, id);
        if (!row) throw new Error(`investment of ${requestKey} not found`);
        return wireInvestment(row);
      },
    },
  );
}

/** The investment a repeated request made, when it is the customer's. */
export async function replay(
  ctx: EarnContext,
  requestKey: string,
  userId: number,
): Promise<EarnInvestment | null> {
  const row = await investmentByRequestKey(ctx.db, requestKey);
  return row && row.userId === userId ? wireInvestment(row) : null;
}
