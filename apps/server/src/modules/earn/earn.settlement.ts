import { ASSET_SCALES, formatMinor as toDecimal } from '@swx/contract';
import { type Book, EARN } from '../ledger/ledger.service.ts';
import { addDays, PPM, utcDay } from '../products/figures.ts';
import type { SettledProduct } from '../products/settlement.ts';
import { dynamicPayment, staticPaymentFor } from './earn.figures.ts';
import { insertRate, type ProductRow, rateOf, ratesOf } from './earn.products.repository.ts';
import { unpromise } from './earn.proof.ts';
import { investmentsOwed, maturing, rejectedUnreturned } from './earn.repository.ts';
import { type EarnContext, owedAccount, PAGE, reserveAccount } from './earn.shared.ts';

/* The daily settlement: a product's payments, dynamic rates, maturities, refused proofs' promises. */

/** A product as the settlement runner pays it: static interest from the owed account (fixed term) or the reserve; dynamic from the reserve. */
export function settled(
  ctx: EarnContext,
  p: ProductRow,
): SettledProduct<Awaited<ReturnType<typeof investmentsOwed>>[number]> {
  const fromOwed = p.income === 'static' && p.termDays !== null;
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
      const rate = await rateOf(ctx.db, p.id, day);
      return rate === null ? 0n : dynamicPayment(h.amount, rate);
    },
    reference: (h) => `earn:${p.id}:${h.id}`,
    attach: (h, day, amount) =>
      ctx.attachments.income.with({ investmentId: h.id, day, amount: amount.toString() }),
  };
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
