import {
  ASSET_SCALES,
  Code,
  type EarnInvestment,
  type EarnRedeemQuote,
  type EarnType,
  formatMinor as toDecimal,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { type Book, EARN } from '../ledger/ledger.service.ts';
import type { Posting } from '../ledger/ledger.types.ts';
import { utcDay } from '../products/figures.ts';
import { redemptionOn } from './earn.figures.ts';
import { productById } from './earn.products.repository.ts';
import { investmentById } from './earn.repository.ts';
import {
  type EarnContext,
  mine,
  owedAccount,
  reserveAccount,
  rowSchedule,
  rowTerms,
  today,
  wireInvestment,
} from './earn.shared.ts';

/* An early redemption: the quote of what the customer receives, and the redemption at it. */

export async function redeemQuote(
  ctx: EarnContext,
  book: Book,
  userId: number,
  id: number,
): Promise<EarnRedeemQuote> {
  const row = await mine(ctx, book, userId, id);
  if (row.status !== 'in_progress' || row.accrualStart === null)
    throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  const issuedAt = Math.floor(ctx.now() / 1000);
  const day = utcDay(issuedAt * 1000);
  const terms = rowTerms(row);
  const schedule = rowSchedule(row);
  // The term is over: the principal comes back at the day's settlement, there is nothing to redeem early.
  if (schedule.endDay !== null && day > schedule.endDay) throw new ApiError(Code.NO_MATCHING_PERIOD);
  const r = redemptionOn(terms, schedule, day, row.paid);
  const ref = ctx.redemptionQuotes.issue({ customerId: userId, book }, issuedAt, {
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
export async function redeem(
  ctx: EarnContext,
  book: Book,
  userId: number,
  body: { quoteId: string },
  type: EarnType,
): Promise<EarnInvestment> {
  return ctx.redemptionQuotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      // One redemption of an investment: a repeat of its quote answers the redeemed investment.
      requestKey: `earn-redeem:${userId}:${book}`,
      replay: async () => null,
      post: async ({ figures: f }) => {
        const row = await mine(ctx, book, userId, f.id);
        if (row.type !== type) throw new ApiError(Code.NOT_FOUND);
        if (row.status === 'redeemed') return wireInvestment(row);
        if (row.status !== 'in_progress') throw new ApiError(Code.WRONG_COLLECTION_STATUS);
        if (f.day !== today(ctx)) throw new ApiError(Code.PRICE_CHANGED, { reason: 'day' });
        const p = await productById(ctx.db, row.productId);
        if (!p) throw new Error(`product ${row.productId} is gone`);
        const postings: Posting[] = [
          { accountId: await ctx.ledger.accountId(book, userId, row.asset, EARN), amount: -row.amount },
        ];
        const add = (accountId: number, amount: bigint) => {
          if (amount !== 0n) postings.push({ accountId, amount });
        };
        add(await ctx.ledger.walletAccount(book, userId, row.asset), f.receive);
        add(await ctx.ledger.systemAccount(book, row.asset, 'fees'), f.penalty);
        add(await reserveAccount(ctx, book, p), f.clawback + f.remaining);
        add(await owedAccount(ctx, book, p), -f.remaining);
        await ctx.ledger.transfer({
          book,
          kind: 'earn_redeem',
          idempotencyKey: `earn-end:${row.id}`,
          actor: `customer:${userId}`,
          reference: `earn:${p.id}:${row.id}`,
          postings,
          attach: ctx.attachments.ending.with({
            id: row.id,
            userId,
            status: 'redeemed',
            day: f.day,
            received: f.receive.toString(),
            penalty: f.penalty.toString(),
            at: new Date(ctx.now()).toISOString(),
            notice: null,
          }),
        });
        return wireInvestment((await investmentById(ctx.db, row.id)) ?? row);
      },
    },
  );
}
