import { Code, type EarnInvestment } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { Book } from '../ledger/ledger.service.ts';
import { productById } from './earn.products.repository.ts';
import { buyable, replay, reserveRefused, subscription } from './earn.purchase.ts';
import {
  type InvestmentRow,
  investmentById,
  investmentByRequestKey,
  rejectProofInTx,
} from './earn.repository.ts';
import { type EarnContext, owedAccount, reserveAccount, wireInvestment } from './earn.shared.ts';

/* A purchase by a transfer with a payment proof, and the interest it promises from the reserve. */

/**
 * Buys at a quote by a transfer with a payment proof (the live book): the amount is held on
 * external clearing with the investment (pending), and the interest of a fixed term is promised
 * from the reserve at once; staff approve (the investment starts the next day) or reject.
 */
export async function applyWithProof(
  ctx: EarnContext,
  book: Book,
  userId: number,
  body: { quoteId: string; proof: string; txHash: string },
): Promise<EarnInvestment> {
  if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
  const txHash = body.txHash.toLowerCase().replace(/^0x/, '');
  const requestKey = `earn-proof:${userId}:${txHash}`;
  return ctx.purchaseQuotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      requestKey,
      replay: async () => replay(ctx, requestKey, userId),
      post: async ({ figures: f }) => {
        const done = await replay(ctx, requestKey, userId);
        if (done) return done;
        const p = await buyable(ctx, book, userId, f.productId, f.type);
        const held = await ctx.ledger
          .hold({
            book,
            accountId: await ctx.ledger.systemAccount(book, p.asset, 'external_clearing'),
            amount: f.amount,
            idempotencyKey: requestKey,
            actor: `customer:${userId}`,
            reference: `earn:${p.id}`,
            attach: ctx.attachments.proofHold.with({
              ...subscription(f, p, userId, book, requestKey, { txHash, proof: body.proof }, ctx.now()),
              proof: body.proof,
            }),
          })
          .catch((error: unknown) => {
            if ((error as { code?: string }).code === '23505')
              throw new ApiError(Code.TRANSACTION_ALREADY_USED);
            throw error;
          });
        const id = held.attached ?? (await investmentByRequestKey(ctx.db, requestKey))?.id;
        const row = id === undefined ? null : await investmentById(ctx.db, id);
        if (!row) throw new Error(`investment of ${requestKey} not found`);
        try {
          await promiseOf(ctx, row);
        } catch (error) {
          // The reserve cannot promise its interest: refuse it now, nothing kept.
          await ctx.ledger.voidHold({
            holdId: held.holdId,
            idempotencyKey: `earn-proof-void:${row.id}`,
            actor: 'system',
            attach: undefined,
          });
          await ctx.db.transaction((tx) =>
            rejectProofInTx(
              tx,
              row.id,
              "the product's reserve could not cover its interest; nothing was taken",
              new Date(ctx.now()).toISOString(),
            ),
          );
          await reserveRefused(ctx, error, book, p);
        }
        return wireInvestment((await investmentById(ctx.db, row.id)) ?? row);
      },
    },
  );
}

/** Moves a proof purchase's promised interest from the reserve to the owed account (once). */
export async function promiseOf(ctx: EarnContext, row: InvestmentRow): Promise<void> {
  if (row.totalInterest === null || row.totalInterest === 0n || row.promiseEntryId !== null) return;
  await movePromise(ctx, row, row.totalInterest, false);
}

/** A refused proof's promised interest goes back to the reserve (once). */
export async function unpromise(ctx: EarnContext, row: InvestmentRow): Promise<void> {
  if (row.promiseEntryId === null || row.unpromiseEntryId !== null || row.totalInterest === null) return;
  await movePromise(ctx, row, row.totalInterest, true);
}

/** One transfer between a product's reserve and its owed account for an investment's interest. */
async function movePromise(
  ctx: EarnContext,
  row: InvestmentRow,
  interest: bigint,
  back: boolean,
): Promise<void> {
  const p = await productById(ctx.db, row.productId);
  if (!p) throw new Error(`product ${row.productId} is gone`);
  const [reserve, owed] = [await reserveAccount(ctx, row.book, p), await owedAccount(ctx, row.book, p)];
  await ctx.ledger.transfer({
    book: row.book,
    kind: 'earn_reserve',
    idempotencyKey: `${back ? 'earn-unpromise' : 'earn-promise'}:${row.id}`,
    actor: 'system',
    reference: `earn:${p.id}:${row.id}`,
    postings: [
      { accountId: back ? owed : reserve, amount: -interest },
      { accountId: back ? reserve : owed, amount: interest },
    ],
    attach: ctx.attachments.promise.with({ investmentId: row.id, back }),
  });
}
