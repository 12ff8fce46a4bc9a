import {
  type Book,
  Code,
  formatMinor,
  MoneyFormatError,
  parseMinor,
  type SwapBody,
  type SwapQuote,
  type SwapQuoteBody,
  type SwapRecord,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { type EntryResult, LedgerError } from '../ledger/ledger.service.ts';
import type { QuoteHolder } from '../products/quotes.ts';
import { swapFigures, swapLegs } from './swap.figures.ts';
import type { SwapQuoteFigures } from './swap.quote.ts';
import { type NewSwap, type SwapRow, swapByEntry, swapByRequest, swapsOf } from './swap.repository.ts';
import {
  openPair,
  pricesAt,
  type SwapContext,
  scaleOf,
  second,
  wireFigures,
  wireRecord,
} from './swap.shared.ts';

/** Swaps a page of the history holds. */
export const SWAP_HISTORY_PAGE = 50;

/* A swap: the quote at the current second, its commit as one ledger entry, the customer's history. */

/**
 * The one function that checks a swap request and computes its figures at second t (the quote
 * signs exactly these; the commit posts them): pair on, amount within the pair's limits in the
 * `from` asset (10038 / 10039), both prices available (10015), something received (10016).
 */
async function figuresAt(ctx: SwapContext, body: SwapQuoteBody, t: number): Promise<SwapQuoteFigures> {
  const pair = await openPair(ctx, body.from, body.to);
  const scale = scaleOf(body.from);
  let amount: bigint;
  try {
    amount = parseMinor(body.amount, scale);
  } catch (error) {
    if (error instanceof MoneyFormatError)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'amount', issue: 'too_many_decimals' }]);
    throw error;
  }
  if (amount < pair.minMinor)
    throw new ApiError(Code.BELOW_MINIMUM, {
      asset: body.from,
      minimum: formatMinor(pair.minMinor, scale),
    });
  if (amount > pair.maxMinor)
    throw new ApiError(Code.ABOVE_MAXIMUM, {
      asset: body.from,
      maximum: formatMinor(pair.maxMinor, scale),
    });
  const prices = pricesAt(ctx, body.from, body.to, t);
  const f = swapFigures({
    amount,
    fromScale: scale,
    toScale: scaleOf(body.to),
    from: prices.from,
    to: prices.to,
    feePpm: pair.feePpm,
  });
  return { from: body.from, to: body.to, ...f, feePpm: pair.feePpm, quoteTime: t };
}

/** A quote at the current second, signed for this customer and book; nothing moves. 10011 when the balance cannot pay it now. */
export async function quote(
  ctx: SwapContext,
  book: Book,
  userId: number,
  body: SwapQuoteBody,
): Promise<SwapQuote> {
  const t = second(ctx);
  const f = await figuresAt(ctx, body, t);
  const available =
    (await ctx.ledger.balances(book, userId)).find((b) => b.asset === f.from)?.available ?? 0n;
  if (available < f.amount) throw new ApiError(Code.INSUFFICIENT_BALANCE);
  const holder: QuoteHolder = { customerId: userId, book };
  return { ...ctx.quotes.issue(holder, t, f, { hold: body.hold === true }), ...wireFigures(f) };
}

/**
 * Swaps at exactly the figures of the quote the customer accepted, once per request id, or
 * refuses: 10032 expired, or a held quote the market moved against (`standsNow`; a retry of a
 * swap already done answers it), 10011 when the balance no
 * longer covers it (the ledger), 10028 another customer's or the other book's quote, 10015 when
 * the pair was switched off or a market closed since.
 */
export async function commit(
  ctx: SwapContext,
  book: Book,
  userId: number,
  body: SwapBody,
): Promise<SwapRecord> {
  return ctx.quotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      requestKey: `${userId}:${book}:${body.requestId}`,
      replay: async () => {
        const done = await swapByRequest(ctx.db, userId, book, body.requestId);
        return done ? wireRecord(done) : null;
      },
      post: ({ figures }) => post(ctx, book, userId, body.requestId, figures),
      recheck: async ({ figures }) => standsNow(ctx, figures),
    },
  );
}

/**
 * Whether a held quote's figures still stand at the current second: the same amount at the
 * market's prices now, with the quote's fee rate, gives at least what the quote says is received
 * (the market moved the customer's way, or not at all). Otherwise the house would pay a stale
 * price, and the customer is given a new quote instead (10032 `moved`). A closed market is 10015.
 */
async function standsNow(ctx: SwapContext, f: SwapQuoteFigures): Promise<boolean> {
  const prices = pricesAt(ctx, f.from, f.to, second(ctx));
  try {
    const now = swapFigures({
      amount: f.amount,
      fromScale: scaleOf(f.from),
      toScale: scaleOf(f.to),
      from: prices.from,
      to: prices.to,
      feePpm: f.feePpm,
    });
    return now.receive >= f.receive;
  } catch (error) {
    // Nothing would be received now (10016): the figures no longer stand.
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** ONE ledger entry: from: wallet −amount, house +amount; to: house −gross, wallet +receive, fees +fee; the swap attached. */
async function post(
  ctx: SwapContext,
  book: Book,
  userId: number,
  requestId: string,
  f: SwapQuoteFigures,
): Promise<SwapRecord> {
  await openPair(ctx, f.from, f.to);
  pricesAt(ctx, f.from, f.to, second(ctx));
  const postings = await Promise.all(
    swapLegs(f).map(async (leg) => {
      const asset = leg.side === 'from' ? f.from : f.to;
      return {
        accountId:
          leg.role === 'wallet'
            ? await ctx.ledger.walletAccount(book, userId, asset)
            : await ctx.ledger.systemAccount(book, asset, leg.role),
        amount: leg.amount,
      };
    }),
  );
  const swap: NewSwap = {
    userId,
    book,
    from: f.from,
    to: f.to,
    amount: f.amount,
    gross: f.gross,
    spread: f.spread,
    fee: f.fee,
    receive: f.receive,
    rate: f.rate,
    price: f.price,
    feePpm: f.feePpm,
    quoteTime: f.quoteTime,
    requestId,
  };
  let entry: EntryResult<SwapRow>;
  try {
    entry = await ctx.ledger.transfer({
      book,
      kind: 'swap',
      idempotencyKey: `swap:${userId}:${book}:${requestId}`,
      actor: `customer:${userId}`,
      reference: `swap:${requestId}`,
      postings,
      attach: ctx.records.with(swap),
    });
  } catch (error) {
    // The same request id with another quote: the first swap of that id is the answer.
    if (error instanceof LedgerError && error.reason === 'idempotency_conflict') {
      const first = await swapByRequest(ctx.db, userId, book, requestId);
      if (first) return wireRecord(first);
    }
    // Insufficient balance reaches the caller as 10011 (ledgerErrorCode).
    throw error;
  }
  // A replay (the same quote and request again) reads what the first one wrote.
  const row = entry.attached ?? (await swapByEntry(ctx.db, entry.entryId));
  if (!row) throw new Error(`swap of entry ${entry.entryId} missing`);
  return wireRecord(row);
}

/** The customer's swaps in a book, newest first, a page below `before`. */
export async function history(
  ctx: SwapContext,
  book: Book,
  userId: number,
  before: number | undefined,
): Promise<SwapRecord[]> {
  return (await swapsOf(ctx.db, userId, book, before ?? null, SWAP_HISTORY_PAGE)).map(wireRecord);
}
