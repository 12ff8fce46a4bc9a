import {
  type Book,
  Code,
  type Language,
  MoneyFormatError,
  parseMinor,
  SETTLEMENT_SCALE,
  type SmartPlan,
  type SmartQuote,
  type smartBuyBody,
  type smartQuoteBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import { ApiError } from '../../platform/http.ts';
import { SMART as SMART_ACCOUNT } from '../ledger/ledger.service.ts';
import { isOpen } from '../market/feed.ts';
import { ppmText } from '../products/figures.ts';
import { MINUTE } from './smart.bars.ts';
import { wirePlan } from './smart.plans.ts';
import { backtest, costs, risk } from './smart.products.ts';
import type { SmartQuoteFigures } from './smart.quote.ts';
import { type NewPlan, planById, planByRequestKey, productById } from './smart.repository.ts';
import { ASSET, DAY, instrumentOf, iso, minuteOf, money, type SmartContext, second } from './smart.shared.ts';

/* Buying a plan: the quote of its terms, and the commit at the quote. */

async function figuresAt(ctx: SmartContext, book: Book, body: z.infer<typeof smartQuoteBody>, t: number) {
  if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
  const p = await productById(ctx.db, body.productId);
  if (!p) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
  if (!p.enabled) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
  if (!p.timeframes.includes(body.timeframeDays)) throw new ApiError(Code.NO_MATCHING_DAYS);
  let amount: bigint;
  try {
    amount = parseMinor(body.amount, SETTLEMENT_SCALE);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT);
    throw error;
  }
  if (amount < p.minMinor || amount > p.maxMinor) throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT);
  if (p.takenMinor + amount > p.capacityMinor) throw new ApiError(Code.SOLD_OUT, { reason: 'capacity' });
  const figures: SmartQuoteFigures = {
    productId: p.id,
    amount,
    timeframeDays: body.timeframeDays,
    feeSharePpm: p.feeSharePpm,
    quoteTime: t,
    startTick: minuteOf(t) + MINUTE,
  };
  tradableWithin(ctx, p.instrument, figures.startTick, figures.startTick + body.timeframeDays * DAY);
  return { p, figures };
}

/**
 * Refuses a plan that could make no trade: its instrument's market (the market module's hours)
 * closed for the whole of its window, as a one-day EURUSD plan bought on a Saturday (10015, with
 * the reason, the window and when the market opens next).
 */
function tradableWithin(ctx: SmartContext, code: string, from: number, to: number): void {
  const instrument = instrumentOf(ctx, code);
  let t = from + MINUTE;
  for (; t <= to; t += MINUTE) if (isOpen(instrument.class, t)) return;
  // When it opens next: closed markets reopen within a few days (a weekend, a holiday-free week).
  while (!isOpen(instrument.class, t) && t < to + 8 * DAY) t += MINUTE;
  throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING, {
    reason: 'market_closed',
    instrument: code,
    from: iso(from),
    to: iso(to),
    opensAt: iso(t),
  });
}

/** Minutes in [from, to) at which the market of `code` is open (the minutes the plan can trade). */
function openMinutesWithin(ctx: SmartContext, code: string, from: number, to: number): number {
  const instrument = instrumentOf(ctx, code);
  let open = 0;
  for (let t = from; t < to; t += MINUTE) if (isOpen(instrument.class, t)) open++;
  return open;
}

/** The terms, times, risk limits and the backtest's worst drawdown, signed for the commit; nothing moves. */
export async function quote(
  ctx: SmartContext,
  book: Book,
  userId: number,
  body: z.infer<typeof smartQuoteBody>,
): Promise<SmartQuote> {
  const t = second(ctx);
  const { p, figures } = await figuresAt(ctx, book, body, t);
  const available = (await ctx.ledger.balances(book, userId)).find((b) => b.asset === ASSET)?.available ?? 0n;
  if (available < figures.amount) throw new ApiError(Code.INSUFFICIENT_BALANCE);
  const report = await backtest(ctx, p);
  const start = figures.startTick;
  return {
    ...ctx.quotes.issue({ customerId: userId, book }, t, figures),
    quoteTime: t,
    productId: p.id,
    productName: p.name,
    strategy: p.strategy,
    instruments: [p.instrument],
    asset: ASSET,
    amount: money(figures.amount),
    timeframeDays: figures.timeframeDays,
    feeShare: ppmText(figures.feeSharePpm),
    ...costs(ctx, p.instrument),
    risk: risk(ctx, p),
    startTime: iso(start),
    endTime: iso(start + figures.timeframeDays * DAY),
    firstIncomeTime: iso((Math.floor(start / DAY) + 1) * DAY),
    marketOpenMinutes: openMinutesWithin(ctx, p.instrument, start, start + figures.timeframeDays * DAY),
    backtestMaxDrawdown: report?.maxDrawdown ?? null,
    backtestReturn: report?.totalReturn ?? null,
    available: money(available),
  };
}

/**
 * Joins at the quote's figures, once per request id: ONE entry moves the amount from the wallet
 * into the smart account, and its attachment takes the product's room (10044 when full) and
 * writes the plan, which trades from the minute the quote named.
 */
export async function buy(
  ctx: SmartContext,
  book: Book,
  userId: number,
  language: Language,
  body: z.infer<typeof smartBuyBody>,
): Promise<SmartPlan> {
  const requestKey = `smart:${userId}:${body.requestId}`;
  return ctx.quotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      requestKey,
      replay: async () => {
        const done = await planByRequestKey(ctx.db, requestKey);
        return done && done.userId === userId ? wirePlan(ctx, done) : null;
      },
      post: async ({ figures: f }) => {
        if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
        const p = await productById(ctx.db, f.productId);
        if (!p) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
        if (!p.enabled) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
        // The minute the quote named (the confirm step's start and end), never the commit's.
        const start = f.startTick;
        const plan: NewPlan = {
          productId: p.id,
          userId,
          strategy: p.strategy,
          instrument: p.instrument,
          asset: ASSET,
          amountMinor: f.amount,
          minMinor: p.minMinor,
          maxMinor: p.maxMinor,
          timeframeDays: f.timeframeDays,
          feeSharePpm: f.feeSharePpm,
          language,
          startTick: start,
          endTick: start + f.timeframeDays * DAY,
          requestKey,
        };
        const entry = await ctx.ledger.transfer({
          book,
          kind: 'smart_subscribe',
          idempotencyKey: requestKey,
          actor: `customer:${userId}`,
          reference: `smart-product:${p.id}`,
          postings: [
            { accountId: await ctx.ledger.walletAccount(book, userId, ASSET), amount: -f.amount },
            {
              accountId: await ctx.ledger.accountId(book, userId, ASSET, SMART_ACCOUNT),
              amount: f.amount,
            },
          ],
          attach: ctx.attachments.subscribe.with(plan),
        });
        const id = entry.attached ?? (await planByRequestKey(ctx.db, requestKey))?.id;
        const row = id === undefined ? null : await planById(ctx.db, id);
        if (!row) throw new Error(`smart plan of ${requestKey} not found`);
        return wirePlan(ctx, row);
      },
    },
  );
}
