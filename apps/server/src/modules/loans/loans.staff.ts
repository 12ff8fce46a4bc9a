import {
  ASSET_SCALES,
  type Asset,
  Code,
  LOAN_ASSETS,
  type LoanPool,
  type LoanProductAdmin,
  type LoanProductBody,
  type OverdueLoan,
  formatMinor as toDecimal,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { ppmOf } from '../products/figures.ts';
import { fundFromHouse } from '../products/funding.ts';
import type { SubLedger } from '../products/reconciliation.ts';
import { amountRange } from '../products/terms.ts';
import { wireProduct } from './loans.apply.ts';
import { daysBetween } from './loans.figures.ts';
import {
  insertProduct,
  type LoanProductFields,
  type LoanProductRow,
  listProducts,
  productById,
  updateProduct as updateProductRow,
} from './loans.products.repository.ts';
import { wireLoan } from './loans.reads.ts';
import { overdueLoans, owedByCustomer, poolFigures, principalPaidOf } from './loans.repository.ts';
import {
  amountOf,
  available,
  BOOK,
  incomeAccount,
  LOAN,
  type LoansContext,
  nowIso,
  poolAccount,
  today,
  unearnedAccount,
} from './loans.shared.ts';

/* What staff run: the lending pools, the products, the overdue loans and the sub-ledger check. */

/** A product as staff sent it, checked: amounts of the asset, the maximum not below the minimum (10026). */
function fields(body: LoanProductBody): LoanProductFields {
  const { minMinor, maxMinor } = amountRange(body.asset, body);
  return {
    name: body.name,
    asset: body.asset,
    minMinor,
    maxMinor,
    terms: [...new Set(body.terms)].sort((a, b) => a - b),
    dailyPpm: ppmOf(body.dailyRate),
    interestFreeDays: body.interestFreeDays,
    lateDailyPpm: ppmOf(body.lateDailyRate),
    lateCapPpm: ppmOf(body.lateCapRate),
    enabled: body.enabled,
  };
}

export async function pool(
  ctx: LoansContext,
  asset: Asset,
  figures?: Map<string, { open: number; overdue: number; lent: bigint }>,
): Promise<LoanPool> {
  const f = (figures ?? (await poolFigures(ctx.db))).get(asset);
  const scale = ASSET_SCALES[asset];
  const balance = async (id: number) => (await ctx.ledger.account(id))?.balance ?? 0n;
  return {
    asset,
    available: toDecimal(await available(ctx, await poolAccount(ctx, asset)), scale),
    lent: toDecimal(f?.lent ?? 0n, scale),
    income: toDecimal(await balance(await incomeAccount(ctx, asset)), scale),
    unearned: toDecimal(await balance(await unearnedAccount(ctx, asset)), scale),
    openLoans: f?.open ?? 0,
    overdueLoans: f?.overdue ?? 0,
  };
}

export async function pools(ctx: LoansContext): Promise<LoanPool[]> {
  const figures = await poolFigures(ctx.db);
  return Promise.all(LOAN_ASSETS.map((a) => pool(ctx, a, figures)));
}

async function adminRow(ctx: LoansContext, p: LoanProductRow): Promise<LoanProductAdmin> {
  return {
    product: wireProduct(p, await available(ctx, await poolAccount(ctx, p.asset))),
    pool: await pool(ctx, p.asset),
  };
}

export async function adminProducts(ctx: LoansContext): Promise<LoanProductAdmin[]> {
  return Promise.all((await listProducts(ctx.db)).map((p) => adminRow(ctx, p)));
}

export async function createProduct(
  ctx: LoansContext,
  actor: string,
  body: LoanProductBody,
): Promise<LoanProductAdmin> {
  const checked = fields(body);
  const row = await ctx.db.transaction(async (tx) => {
    const p = await insertProduct(tx, checked, nowIso(ctx));
    await ctx.audit.appendInTx(tx, [
      { actor, action: 'loan.product.created', subject: `loan-product:${p.id}`, data: body },
    ]);
    return p;
  });
  return adminRow(ctx, row);
}

/** A change applies to new applications only: every loan keeps the terms it was signed at. */
export async function updateProduct(
  ctx: LoansContext,
  actor: string,
  body: LoanProductBody & { id: number },
): Promise<LoanProductAdmin> {
  const before = await productById(ctx.db, body.id);
  if (!before) throw new ApiError(Code.NOT_FOUND);
  if (before.asset !== body.asset)
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'asset', issue: 'fixed' }]);
  const checked = fields(body);
  const row = await ctx.db.transaction(async (tx) => {
    const p = await updateProductRow(tx, body.id, checked, nowIso(ctx));
    if (!p) throw new ApiError(Code.NOT_FOUND);
    await ctx.audit.appendInTx(tx, [
      {
        actor,
        action: 'loan.product.updated',
        subject: `loan-product:${p.id}`,
        data: {
          before: {
            ...before,
            minMinor: String(before.minMinor),
            maxMinor: String(before.maxMinor),
            dailyPpm: String(before.dailyPpm),
            lateDailyPpm: String(before.lateDailyPpm),
            lateCapPpm: String(before.lateCapPpm),
          },
          after: body,
        },
      },
    ]);
    return p;
  });
  return adminRow(ctx, row);
}

/** Staff fund an asset's lending pool from the house: a ledger transfer, audited by the ledger with its actor and reason. */
export async function fundPool(
  ctx: LoansContext,
  actor: string,
  body: { asset: Asset; amount: string; reason: string },
  requestKey: string,
): Promise<LoanPool> {
  await fundFromHouse(ctx.ledger, {
    book: BOOK,
    asset: body.asset,
    amount: amountOf(body.asset, body.amount),
    to: await poolAccount(ctx, body.asset),
    kind: 'loan',
    reference: `loan-pool:${body.asset}`,
    actor,
    reason: body.reason,
    requestKey,
    attach: ctx.attachments.loanEntry.with({ op: 'fund' }),
  });
  return pool(ctx, body.asset);
}

export async function overdue(ctx: LoansContext): Promise<OverdueLoan[]> {
  const rows = await overdueLoans(ctx.db);
  const paid = await principalPaidOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    loan: wireLoan(ctx, r, paid.get(r.id) ?? []),
    userId: r.userId,
    customer: r.customer,
    daysOverdue: r.dueDay === null ? 0 : Math.max(0, daysBetween(r.dueDay, today(ctx))),
  }));
}

/** The sub-ledger of one asset: each customer's `loan` account equals what their booked loans owe. */
export function subLedger(ctx: LoansContext, asset: Asset): SubLedger {
  return {
    name: `loans.${asset.toLowerCase()}`,
    accountKind: LOAN,
    asset,
    expected: async () =>
      (await owedByCustomer(ctx.db, asset)).map((r) => ({
        book: BOOK,
        ownerId: r.userId,
        amount: r.owed,
      })),
    alertMessage: (count) => `${count} customers' loan accounts (${asset}) differ from what their loans owe`,
  };
}
