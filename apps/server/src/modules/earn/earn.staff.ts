import {
  ASSET_SCALES,
  Code,
  type EarnProductAdmin,
  type earnProductBody,
  formatMinor as toDecimal,
} from '@swx/contract';
import type { z } from 'zod/mini';
import { ApiError } from '../../platform/http.ts';
import type { Book } from '../ledger/ledger.service.ts';
import { ppmOf } from '../products/figures.ts';
import { fundFromHouse } from '../products/funding.ts';
import { amountRange, termAmount } from '../products/terms.ts';
import {
  capacityUsed,
  insertProduct,
  listProducts,
  type ProductFields,
  type ProductRow,
  productById,
  updateProduct as updateProductRow,
} from './earn.products.repository.ts';
import { wireProduct } from './earn.products.ts';
import { investedByProduct } from './earn.repository.ts';
import { amountOf, coverage, type EarnContext, reserveAccount, shortSince } from './earn.shared.ts';

/* Staff's products: the list with each book's reserve, creation, changes and reserve funding. */

export async function adminList(ctx: EarnContext): Promise<EarnProductAdmin[]> {
  const [rows, used, invested] = await Promise.all([
    listProducts(ctx.db),
    capacityUsed(ctx.db),
    investedByProduct(ctx.db),
  ]);
  return Promise.all(rows.map((p) => adminRow(ctx, p, used, invested)));
}

async function adminRow(
  ctx: EarnContext,
  p: ProductRow,
  used?: Map<string, bigint>,
  invested?: Map<string, { invested: bigint; investments: number }>,
): Promise<EarnProductAdmin> {
  const u = used ?? (await capacityUsed(ctx.db));
  const inv = invested ?? (await investedByProduct(ctx.db));
  const scale = ASSET_SCALES[p.asset];
  const books = await Promise.all(
    (['demo', 'live'] as const).map(async (book) => {
      const c = await coverage(ctx, book, p);
      const i = inv.get(`${p.id}:${book}`);
      return {
        book,
        reserveFree: toDecimal(c.reserveFree, scale),
        reservedInterest: toDecimal(c.reservedInterest, scale),
        invested: toDecimal(i?.invested ?? 0n, scale),
        investments: i?.investments ?? 0,
        shortSince: await shortSince(ctx, book, p),
      };
    }),
  );
  return { product: await wireProduct(ctx, 'live', p, u), books };
}

function fields(body: z.infer<typeof earnProductBody>): ProductFields {
  const { minMinor, maxMinor } = amountRange(body.asset, body);
  const capacityMinor = termAmount(body.asset, body.capacity, 'capacity');
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

export async function createProduct(
  ctx: EarnContext,
  actor: string,
  body: z.infer<typeof earnProductBody>,
): Promise<EarnProductAdmin> {
  const f = fields(body);
  const row = await ctx.db.transaction(async (tx) => {
    const p = await insertProduct(tx, f, new Date(ctx.now()).toISOString());
    await ctx.audit.appendInTx(tx, [
      { actor, action: 'earn.product.created', subject: `earn:${p.id}`, data: body },
    ]);
    return p;
  });
  return adminRow(ctx, row);
}

/** A change applies to new investments only: each investment keeps the figures it was bought at. */
export async function updateProduct(
  ctx: EarnContext,
  actor: string,
  body: z.infer<typeof earnProductBody> & { id: number },
): Promise<EarnProductAdmin> {
  const before = await productById(ctx.db, body.id);
  if (!before) throw new ApiError(Code.NOT_FOUND);
  if (before.asset !== body.asset)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'asset', issue: 'fixed' }]);
  const f = fields(body);
  const row = await ctx.db.transaction(async (tx) => {
    const p = await updateProductRow(tx, body.id, f, new Date(ctx.now()).toISOString());
    if (!p) throw new ApiError(Code.NOT_FOUND);
    await ctx.audit.appendInTx(tx, [
      { actor, action: 'earn.product.updated', subject: `earn:${p.id}`, data: { before, after: body } },
    ]);
    return p;
  });
  return adminRow(ctx, row);
}

/** Staff fund a product's reserve: a ledger transfer from the house (the demo book: demo issuance), audited by the ledger. */
export async function fundReserve(
  ctx: EarnContext,
  actor: string,
  body: { productId: number; book: Book; amount: string; reason: string },
  requestKey: string,
): Promise<EarnProductAdmin> {
  const p = await productById(ctx.db, body.productId);
  if (!p) throw new ApiError(Code.NOT_FOUND);
  await fundFromHouse(ctx.ledger, {
    book: body.book,
    asset: p.asset,
    amount: amountOf(p, body.amount),
    to: await reserveAccount(ctx, body.book, p),
    kind: 'earn_reserve',
    reference: `earn:${p.id}`,
    actor,
    reason: body.reason,
    requestKey,
    attach: ctx.attachments.promise.with({ investmentId: 0, back: false }),
  });
  return adminRow(ctx, p);
}
