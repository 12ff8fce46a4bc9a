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
import { dailyPpm, PPM, ppmText } from '../products/figures.ts';
import {
  capacityUsed,
  listProducts,
  type ProductRow,
  productById,
  ratesOf,
} from './earn.products.repository.ts';
import { coverage, type EarnContext, shortSince, TEXT_DAYS } from './earn.shared.ts';

/* The products on sale as customers read them: the list, one product, a dynamic product's prices. */

/** The most a fixed-term static investment can be for its whole interest to fit in `reserveFree`; null: no such bound. */
export function reserveBound(p: ProductRow, reserveFree: bigint): bigint | null {
  if (p.income !== 'static' || p.termDays === null || p.annualRatePpm === null) return null;
  const perUnit = p.annualRatePpm * BigInt(p.termDays);
  if (perUnit === 0n) return null;
  if (reserveFree < 0n) return 0n;
  // The interest is floor(A × rate × term / (365 × PPM)): the largest A whose interest is ≤ reserveFree.
  return ((reserveFree + 1n) * 365n * PPM - 1n) / perUnit;
}

/**
 * What a new investment can be now in a book, and why none can: the least of the product's
 * maximum, the capacity left and what the free reserve can promise the interest of; off sale while
 * the reserve owes current investors a day (reserve_short) or staff closed it.
 */
export async function limits(
  ctx: EarnContext,
  book: Book,
  p: ProductRow,
  used: Map<string, bigint>,
): Promise<{
  reserveFree: bigint;
  reservedInterest: bigint;
  invested: bigint;
  investable: bigint;
  soldOut: EarnProduct['soldOut'];
}> {
  const { reserveFree, reservedInterest } = await coverage(ctx, book, p);
  const invested = used.get(`${p.id}:${book}`) ?? 0n;
  const room = p.capacityMinor - invested;
  const byReserve = reserveBound(p, reserveFree);
  const short = (await shortSince(ctx, book, p)) !== null;
  let investable = [p.maxMinor, room, ...(byReserve === null ? [] : [byReserve])].reduce((a, b) =>
    b < a ? b : a,
  );
  const soldOut = !p.enabled
    ? ('disabled' as const)
    : short
      ? ('reserve_short' as const)
      : room < p.minMinor
        ? ('capacity' as const)
        : byReserve !== null && (byReserve < p.minMinor || reserveFree <= 0n)
          ? ('reserve' as const)
          : null;
  if (soldOut !== null || investable < 0n) investable = 0n;
  return { reserveFree, reservedInterest, invested, investable, soldOut };
}

export async function wireProduct(
  ctx: EarnContext,
  book: Book,
  p: ProductRow,
  used: Map<string, bigint>,
  trailing?: bigint | null,
): Promise<EarnProduct> {
  const scale = ASSET_SCALES[p.asset];
  const { reserveFree, reservedInterest, invested, investable, soldOut } = await limits(ctx, book, p, used);
  const trailingRate = p.income === 'dynamic' ? (trailing ?? (await trailingPpm(ctx, p.id))) : null;
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
    investable: toDecimal(investable, scale),
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
