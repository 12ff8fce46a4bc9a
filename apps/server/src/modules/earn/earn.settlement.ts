import { ASSET_SCALES, type EarnInvestment, formatMinor as toDecimal } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { type Book, EARN } from '../ledger/ledger.service.ts';
import { addDays, PPM, utcDay } from '../products/figures.ts';
import type { SettledProduct } from '../products/settlement.ts';
import { dynamicPayment, staticPaymentFor } from './earn.figures.ts';
import { insertRate, type ProductRow, rateOf, ratesOf } from './earn.products.repository.ts';
import { unpromise } from './earn.proof.ts';
import {
  type InvestmentRow,
  incomesOf,
  investmentsOwed,
  maturing,
  rejectedUnreturned,
} from './earn.repository.ts';
import {
  type EarnContext,
  owedAccount,
  PAGE,
  reserveAccount,
  shortSince,
  termsOf,
  today,
} from './earn.shared.ts';

type Owed = Awaited<ReturnType<typeof investmentsOwed>>[number];

/** What an investment earns for `day`: static by its copied terms, dynamic by the day's published rate. */
async function paymentOn(
  rateOn: (day: string) => ReturnType<typeof rateOf>,
  h: Pick<Owed, 'income' | 'amount' | 'termDays' | 'annualRatePpm' | 'penaltyPpm' | 'accrualStart'>,
  day: string,
): Promise<bigint> {
  if (h.income === 'static') return staticPaymentFor(termsOf(h, h.amount), h.accrualStart, day);
  const rate = await rateOn(day);
  return rate === null ? 0n : dynamicPayment(h.amount, rate);
}

/* The daily settlement: a product's payments, dynamic rates, maturities, refused proofs' promises. */

/** A product as the settlement runner pays it: static interest from the owed account (fixed term) or the reserve; dynamic from the reserve. */
export function settled(
  ctx: EarnContext,
  p: ProductRow,
): SettledProduct<Awaited<ReturnType<typeof investmentsOwed>>[number]> {
  const fromOwed = p.income === 'static' && p.termDays !== null;
  // A day's published rate, read once per run (not once per holding): the runner's product lives
  // for one run, after the run's rates were published.
  const rates = new Map<string, ReturnType<typeof rateOf>>();
  const rateOn = (day: string) => {
    const known = rates.get(day);
    if (known) return known;
    const rate = rateOf(ctx.db, p.id, day);
    rates.set(day, rate);
    return rate;
  };
  return {
    name: `earn.${p.id}`,
    books: ['demo', 'live'],
    asset: p.asset,
    source: {
      name: fromOwed ? `earn_owed_${p.id}` : `earn_reserve_${p.id}`,
      account: (book) => (fromOwed ? owedAccount(ctx, book, p) : reserveAccount(ctx, book, p)),
      guarded: true,
    },
    entryKind: 'earn_payout',
    pageHoldings: (book, afterId, limit, day) => investmentsOwed(ctx.db, p.id, book, afterId, limit, day),
    paymentFor: (h, day) => paymentOn(rateOn, h, day),
    reference: (h) => `earn:${p.id}:${h.id}`,
    attach: (h, day, amount) =>
      ctx.attachments.income.with({ investmentId: h.id, day, amount: amount.toString() }),
    // The day is recorded unpaid: each customer owed that day is told, once, in the same transaction.
    unfunded: (tx, book, day) => tellPaused(ctx, tx, p, book, day),
  };
}

/** The customers owed a day the reserve could not pay: one notice each, written with the day's record. */
async function tellPaused(ctx: EarnContext, tx: Queryable, p: ProductRow, book: Book, day: string) {
  const owners = new Set<number>();
  for (let after = 0; ; ) {
    const page = await investmentsOwed(tx, p.id, book, after, PAGE, day);
    for (const h of page) owners.add(h.ownerId);
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    after = last.id;
  }
  for (const userId of owners)
    await ctx.notices.notifyInTx(tx, userId, 'en', 'earn_paused', {
      product: p.name,
      day,
      book,
      asset: p.asset,
    });
}

/**
 * An investment of a product whose reserve could not pay (the product's first unpaid day in its
 * book): paused since then, with the income of the days owed through the last settled day; null
 * when its product owes no day.
 */
export async function pausedOf(
  ctx: EarnContext,
  row: InvestmentRow,
  since: string | null,
): Promise<EarnInvestment['paused']> {
  const start = row.accrualStart;
  if (since === null || start === null) return null;
  if (row.status !== 'in_progress' && (row.redeemedDay ?? row.endDay ?? '') < since) return null;
  const through = addDays(today(ctx), -1);
  const last = [through, row.endDay, row.redeemedDay === null ? null : addDays(row.redeemedDay, -1)]
    .filter((d): d is string => d !== null)
    .reduce((a, b) => (b < a ? b : a));
  const paid = new Set((await incomesOf(ctx.db, row.id)).map((i) => i.day));
  let owed = 0n;
  let day = since > start ? since : start;
  for (let n = 0; day <= last && n < 400; n++, day = addDays(day, 1))
    if (!paid.has(day))
      owed += await paymentOn((d) => rateOf(ctx.db, row.productId, d), { ...row, accrualStart: start }, day);
  if (row.status !== 'in_progress' && owed === 0n) return null;
  return { reason: 'reserve_short', since, owed: toDecimal(owed, ASSET_SCALES[row.asset]) };
}

/** The pause of each of these investments (their products' unpaid days read once per product and book). */
export async function pausesOf(
  ctx: EarnContext,
  rows: readonly InvestmentRow[],
): Promise<Map<number, EarnInvestment['paused']>> {
  const since = new Map<string, string | null>();
  const out = new Map<number, EarnInvestment['paused']>();
  for (const row of rows) {
    const key = `${row.productId}:${row.book}`;
    if (!since.has(key)) since.set(key, await shortSince(ctx, row.book, { id: row.productId }));
    out.set(row.id, await pausedOf(ctx, row, since.get(key) ?? null));
  }
  return out;
}

/** Publishes a dynamic product's rates up to `through` (once per day: a published day never changes). */
export async function publishRates(ctx: EarnContext, p: ProductRow, through: string): Promise<void> {
  if (p.income !== 'dynamic') return;
  const last = (await ratesOf(ctx.db, p.id, 1))[0];
  let day = last ? addDays(last.day, 1) : utcDay(Date.parse(p.createdAt));
  let price = last?.unitPriceE8 ?? 100_000_000n;
  for (let n = 0; day <= through && n < 400; n++, day = addDays(day, 1)) {
    const rate = ctx.basketRate(p.basket, day) ?? 0n;
    price = (price * (PPM + rate)) / PPM;
    if (price <= 0n) price = 1n;
    await insertRate(ctx.db, p.id, day, rate, price);
  }
}

/** Refused proofs' promised interest back to the reserve (a job runs it every minute). */
export async function returnRefusedPromises(ctx: EarnContext): Promise<number> {
  const rows = await rejectedUnreturned(ctx.db, PAGE);
  for (const row of rows) await unpromise(ctx, row);
  return rows.length;
}

/** Principal back at the end of the term (its last day of interest settled), with a notice. */
export async function mature(
  ctx: EarnContext,
  p: ProductRow,
  book: Book,
  throughDay: string,
): Promise<number> {
  let count = 0;
  for (;;) {
    const rows = await maturing(ctx.db, p.id, book, throughDay, PAGE);
    if (rows.length === 0) return count;
    await Promise.all(
      rows.map(async (row) => {
        const scale = ASSET_SCALES[row.asset];
        const interest = row.totalInterest ?? row.paid;
        await ctx.ledger.transfer({
          book,
          kind: 'earn_redeem',
          idempotencyKey: `earn-end:${row.id}`,
          actor: 'system',
          reference: `earn:${p.id}:${row.id}`,
          postings: [
            {
              accountId: await ctx.ledger.accountId(book, row.userId, row.asset, EARN),
              amount: -row.amount,
            },
            { accountId: await ctx.ledger.walletAccount(book, row.userId, row.asset), amount: row.amount },
          ],
          attach: ctx.attachments.ending.with({
            id: row.id,
            userId: row.userId,
            status: 'expired',
            day: null,
            received: row.amount.toString(),
            penalty: '0',
            at: new Date(ctx.now()).toISOString(),
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
    ctx.logger?.info({ product: p.id, book, count: rows.length }, 'earn investments matured');
  }
}
