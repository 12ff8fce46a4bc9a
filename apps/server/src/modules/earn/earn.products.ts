import {
  ASSET_SCALES,
  type Asset,
  Code,
  type EarnProduct,
  type EarnType,
  formatMinor as toDecimal,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { Book } from '../ledger/ledger.service.ts';
import { dailyPpm, ppmText } from '../products/figures.ts';
import { scheduleOf } from './earn.figures.ts';
import {
  capacityUsed,
  listProducts,
  type ProductRow,
  productById,
  ratesOf,
} from './earn.products.repository.ts';
import { coverage, type EarnContext, TEXT_DAYS, termsOf, today } from './earn.shared.ts';

/* The products on sale as customers read them: the list, one product, a dynamic product's prices. */

export async function wireProduct(
  ctx: EarnContext,
  book: Book,
  p: ProductRow,
  used: Map<string, bigint>,
  trailing?: bigint | null,
): Promise<EarnProduct> {
  const scale = ASSET_SCALES[p.asset];
  const { reserveFree, reservedInterest } = await coverage(ctx, book, p);
  const invested = used.get(`${p.id}:${book}`) ?? 0n;
  const trailingRate = p.income === 'dynamic' ? (trailing ?? (await trailingPpm(ctx, p.id))) : null;
  // Sold out: not on sale, no room for the minimum, or (fixed-term static) a reserve that cannot
  // promise the minimum's interest.
  const minInterest =
    p.income === 'static' && p.termDays !== null && p.annualRatePpm !== null
      ? (scheduleOf(termsOf(p, p.minMinor), today(ctx)).totalInterest ?? 0n)
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
async function trailingPpm(ctx: EarnContext, productId: number): Promise<bigint | null> {
  const days = await ratesOf(ctx.db, productId, TEXT_DAYS);
  if (days.length === 0) return null;
  const sum = days.reduce((s, d) => s + d.ratePpm, 0n);
  return (sum * 365n) / BigInt(days.length);
}

export async function products(
  ctx: EarnContext,
  book: Book,
  type: EarnType,
  filter: { income?: 'static' | 'dynamic'; asset?: Asset; term?: 'flexible' | 'fixed' } = {},
): Promise<EarnProduct[]> {
  const used = await capacityUsed(ctx.db);
  const rows = (await listProducts(ctx.db)).filter(
    (p) =>
      p.type === type &&
      p.enabled &&
      (filter.income === undefined || p.income === filter.income) &&
      (filter.asset === undefined || p.asset === filter.asset) &&
      (filter.term === undefined || (filter.term === 'flexible') === (p.termDays === null)),
  );
  return Promise.all(rows.map((p) => wireProduct(ctx, book, p, used)));
}

export async function product(ctx: EarnContext, book: Book, id: number): Promise<EarnProduct> {
  const p = await productById(ctx.db, id);
  if (!p) throw new ApiError(Code.NOT_FOUND);
  return wireProduct(ctx, book, p, await capacityUsed(ctx.db));
}

export async function price(
  ctx: EarnContext,
  id: number,
): Promise<{ productId: number; days: { day: string; rate: string; unitPrice: string }[] }> {
  const p = await productById(ctx.db, id);
  if (!p) throw new ApiError(Code.NOT_FOUND);
  const days = await ratesOf(ctx.db, id, 366);
  return {
    productId: id,
    days: days.map((d) => ({
      day: d.day,
      rate: ppmText(d.ratePpm),
      unitPrice: toDecimal(d.unitPriceE8, 8),
    })),
  };
}
