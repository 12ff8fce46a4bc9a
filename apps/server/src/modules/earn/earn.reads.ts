import {
  ASSET_SCALES,
  type EarnInvestment,
  type EarnInvestmentDetail,
  type EarnType,
  formatMinor as toDecimal,
} from '@swx/contract';
import type { Book } from '../ledger/ledger.service.ts';
import { addDays, ppmText } from '../products/figures.ts';
import { incomesOf, investmentsOf, summaryOf } from './earn.repository.ts';
import { pausedOf, pausesOf } from './earn.settlement.ts';
import { type EarnContext, mine, shortSince, today, wireInvestment } from './earn.shared.ts';

/* What a customer reads of their investments: the list, one with its incomes, the summary, the wallet. */

export async function investments(
  ctx: EarnContext,
  book: Book,
  userId: number,
  filter: { itemType?: EarnType; status?: EarnInvestment['status'] },
): Promise<EarnInvestment[]> {
  const rows = await investmentsOf(ctx.db, userId, book, {
    ...(filter.itemType ? { type: filter.itemType } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  });
  const paused = await pausesOf(ctx, rows);
  return rows.map((row) => wireInvestment(row, paused.get(row.id) ?? null));
}

export async function investment(
  ctx: EarnContext,
  book: Book,
  userId: number,
  id: number,
): Promise<EarnInvestmentDetail> {
  const row = await mine(ctx, book, userId, id);
  const scale = ASSET_SCALES[row.asset];
  const incomes = await incomesOf(ctx.db, row.id);
  const paused = await pausedOf(ctx, row, await shortSince(ctx, book, { id: row.productId }));
  return {
    ...wireInvestment(row, paused),
    incomes: incomes.map((i) => ({
      day: i.day,
      amount: toDecimal(i.amount, scale),
      rate: i.ratePpm === null ? null : ppmText(i.ratePpm),
    })),
  };
}

/** Per asset, of one type of investment (fund or VIP; both when none is named). */
export async function summary(ctx: EarnContext, book: Book, userId: number, type: EarnType | null) {
  const lastDay = addDays(today(ctx), -1);
  return (await summaryOf(ctx.db, userId, book, lastDay, type)).map((s) => {
    const scale = ASSET_SCALES[s.asset];
    return {
      asset: s.asset,
      invested: toDecimal(s.invested, scale),
      incomeToday: toDecimal(s.incomeDay, scale),
      totalIncome: toDecimal(s.total, scale),
    };
  });
}

export async function wallet(ctx: EarnContext, book: Book, userId: number) {
  const balances = await ctx.ledger.balances(book, userId);
  const payIn = book === 'live' ? await ctx.payIn(userId, 'USDT') : null;
  return {
    balances: balances.map((b) => ({ asset: b.asset, available: toDecimal(b.available, b.scale) })),
    payIn: payIn ? { ...payIn, asset: 'USDT' } : null,
  };
}
