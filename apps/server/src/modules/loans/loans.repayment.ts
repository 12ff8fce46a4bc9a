import {
  ASSET_SCALES,
  type Asset,
  Code,
  LOAN_WITHDRAWAL_DAYS,
  type LoanDetail,
  type LoanPayoff,
  type LoanRepayment,
  formatMinor as toDecimal,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { Book } from '../ledger/ledger.service.ts';
import type { Posting } from '../ledger/ledger.types.ts';
import { allocate, daysBetween, interestThrough, owedTotal } from './loans.figures.ts';
import { detail, wireRepayment } from './loans.reads.ts';
import {
  type Allocation,
  markProofApplied,
  repaymentById,
  repaymentByRequestKey,
  unappliedProofs,
} from './loans.repayments.repository.ts';
import { type LoanRow, loanById, principalPaidOf } from './loans.repository.ts';
import { catchUp } from './loans.servicing.ts';
import {
  amountOf,
  BOOK,
  incomeAccount,
  LOAN,
  type LoansContext,
  mine,
  owedToday,
  PAGE,
  poolAccount,
  requireOpen,
  today,
  unearnedAccount,
  withdrawable,
} from './loans.shared.ts';

/*
 * Repayment: today's payoff, repaying from the wallet (in part, in full, or withdrawing from the
 * loan), and by a transfer with a proof that staff approve and `applyProofs` applies.
 */

export async function repayAddresses(
  ctx: LoansContext,
  asset: Asset,
): Promise<{ asset: Asset; network: string; address: string }[]> {
  const network = asset === 'BTC' ? 'BTC' : `${asset}-EVM`;
  const address = await ctx.params.get(`loan.repaymentAddress.${asset}`);
  if (address) return [{ asset, network, address }];
  // The chain the platform follows carries USDT and ETH only.
  if (ctx.platformAddress && (asset === 'USDT' || asset === 'ETH'))
    return [{ asset, network, address: ctx.platformAddress.toLowerCase() }];
  return [];
}

export async function payoff(
  ctx: LoansContext,
  book: Book,
  userId: number,
  loanId: number,
): Promise<LoanPayoff> {
  const loan = await mine(ctx, book, userId, loanId);
  requireOpen(loan);
  const paid = (await principalPaidOf(ctx.db, [loan.id])).get(loan.id) ?? [];
  const owed = owedToday(ctx, loan, paid);
  const scale = ASSET_SCALES[loan.asset];
  const d = (v: bigint) => toDecimal(v, scale);
  // Repaid today, no interest accrues after today: what the due date would have cost more.
  const saved =
    loan.disbursedDay === null
      ? 0n
      : interestThrough(loan, loan.disbursedDay, paid, loan.termDays) -
        interestThrough(loan, loan.disbursedDay, paid, daysBetween(loan.disbursedDay, today(ctx)));
  const available =
    (await ctx.ledger.balances(BOOK, userId)).find((b) => b.asset === loan.asset)?.available ?? 0n;
  return {
    loanId: loan.id,
    asset: loan.asset,
    day: today(ctx),
    principal: d(owed.principal),
    interest: d(owed.interest),
    lateCost: d(owed.late),
    total: d(owedTotal(owed)),
    interestSaved: d(saved),
    withdrawable: withdrawable(ctx, loan),
    available: d(available),
    repayAddresses: await repayAddresses(ctx, loan.asset),
  };
}

/**
 * Repays from the wallet: ONE entry takes the amount from the wallet and the customer's debt,
 * and gives the principal part back to the pool and the interest and late cost to income; the
 * repayment that settles everything also returns what is left of the loan's unearned amount.
 */
async function repayEntryOf(
  ctx: LoansContext,
  loan: LoanRow,
  amount: bigint | 'full',
  ids: { requestKey: string; proofId: number | null; withdraw: boolean },
): Promise<void> {
  await catchUp(ctx, loan);
  const fresh = await loanById(ctx.db, loan.id);
  if (!fresh) throw new Error(`loan ${loan.id} is gone`);
  requireOpen(fresh);
  const paid = (await principalPaidOf(ctx.db, [loan.id])).get(loan.id) ?? [];
  const owed = owedToday(ctx, fresh, paid);
  const total = owedTotal(owed);
  const scale = ASSET_SCALES[loan.asset];
  const r = amount === 'full' ? total : amount;
  if (r <= 0n || r > total)
    throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, {
      asset: loan.asset,
      maximum: toDecimal(total, scale),
    });
  const a: Allocation = allocate(owed, r);
  const closes = r === total;
  const rest = closes
    ? fresh.totalInterest + fresh.lateCap - (fresh.interestCharged + fresh.lateCharged)
    : 0n;
  const postings: Posting[] = [];
  const add = (accountId: number, value: bigint) => {
    if (value !== 0n) postings.push({ accountId, amount: value });
  };
  add(await ctx.ledger.walletAccount(BOOK, loan.userId, loan.asset), -r);
  add(await ctx.ledger.accountId(BOOK, loan.userId, loan.asset, LOAN), -r);
  add(await ctx.ledger.systemAccount(BOOK, loan.asset, 'loans_receivable'), r + rest);
  add(await poolAccount(ctx, loan.asset), a.principal);
  add(await incomeAccount(ctx, loan.asset), a.late + a.interest);
  add(await unearnedAccount(ctx, loan.asset), -rest);
  const close = closes ? (ids.withdraw ? 'withdrawn' : 'repaid') : null;
  await ctx.ledger.transfer({
    book: BOOK,
    kind: 'repayment',
    idempotencyKey: ids.requestKey,
    actor: `customer:${loan.userId}`,
    reference: `loan:${loan.id}`,
    postings,
    attach: ctx.attachments.repayEntry.with({
      loanId: loan.id,
      userId: loan.userId,
      amount: r.toString(),
      day: today(ctx),
      requestKey: ids.requestKey,
      late: a.late.toString(),
      interest: a.interest.toString(),
      principal: a.principal.toString(),
      close,
      proofId: ids.proofId,
      paidBefore: `${fresh.principalPaid}:${fresh.interestPaid}:${fresh.latePaid}`,
      notice: close ? { amount: toDecimal(loan.amount, scale), asset: loan.asset } : null,
    }),
  });
}

export async function repay(
  ctx: LoansContext,
  book: Book,
  userId: number,
  body: { loanId: number; requestId: string; full: boolean; amount?: string | undefined },
  withdraw = false,
): Promise<LoanDetail> {
  if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
  const loan = await mine(ctx, book, userId, body.loanId);
  const requestKey = `loan-repay:${userId}:${body.requestId}`;
  const done = await repaymentByRequestKey(ctx.db, requestKey);
  if (done) {
    if (done.loanId !== loan.id)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'requestId', issue: 'in_use' }]);
    return detail(ctx, book, userId, loan.id);
  }
  requireOpen(loan);
  if (withdraw && !withdrawable(ctx, loan))
    throw new ApiError(Code.LOAN_PERIOD_WRONG, { withdrawalDays: String(LOAN_WITHDRAWAL_DAYS) });
  const amount = body.full || withdraw ? 'full' : amountOf(loan.asset, body.amount ?? '', {});
  await repayEntryOf(ctx, loan, amount, { requestKey, proofId: null, withdraw });
  return detail(ctx, book, userId, loan.id);
}

/** Repayment by a transfer with a proof: the declared amount is held on external clearing until staff decide. */
export async function repayWithProof(
  ctx: LoansContext,
  book: Book,
  userId: number,
  body: { loanId: number; amount: string; proof: string; txHash: string; address: string },
): Promise<LoanRepayment> {
  if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
  const loan = await mine(ctx, book, userId, body.loanId);
  requireOpen(loan);
  const addresses = await repayAddresses(ctx, loan.asset);
  if (!addresses.some((a) => a.address.toLowerCase() === body.address.toLowerCase()))
    throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
  const amount = amountOf(loan.asset, body.amount);
  const txHash = body.txHash.toLowerCase().replace(/^0x/, '');
  const requestKey = `loan-proof:${userId}:${txHash}`;
  const done = await repaymentByRequestKey(ctx.db, requestKey);
  if (done) return wireRepayment(done);
  const held = await ctx.ledger.hold({
    book: BOOK,
    accountId: await ctx.ledger.systemAccount(BOOK, loan.asset, 'external_clearing'),
    amount,
    idempotencyKey: requestKey,
    actor: `customer:${userId}`,
    reference: `loan:${loan.id}`,
    attach: ctx.attachments.proofHold.with({
      loanId: loan.id,
      userId,
      amount: amount.toString(),
      requestKey,
      txHash,
      address: body.address,
      proof: body.proof,
    }),
  });
  const id = held.attached ?? (await repaymentByRequestKey(ctx.db, requestKey))?.id;
  const row = id === undefined ? null : await repaymentById(ctx.db, id);
  if (!row) throw new Error(`repayment of ${requestKey} not found`);
  return wireRepayment(row);
}

/**
 * Approved proofs whose money reached the wallet are applied to their loan (at most what it owes
 * today; the rest stays in the wallet). Run after each approval and every minute.
 */
export async function applyProofs(ctx: LoansContext): Promise<number> {
  let count = 0;
  for (const proof of await unappliedProofs(ctx.db, PAGE)) {
    const loan = await loanById(ctx.db, proof.loanId);
    if (!loan) continue;
    try {
      const paid = (await principalPaidOf(ctx.db, [loan.id])).get(loan.id) ?? [];
      const open = loan.state === 'repaying' || loan.state === 'expired';
      const owed = open ? owedTotal(owedToday(ctx, loan, paid)) : 0n;
      if (owed === 0n) {
        // Nothing to apply: the money stays in the wallet (0 marks the proof as dealt with).
        await markProofApplied(ctx.db, proof.id, {
          late: 0n,
          interest: 0n,
          principal: 0n,
          day: today(ctx),
          entryId: 0,
        });
        continue;
      }
      await repayEntryOf(ctx, loan, proof.amount < owed ? proof.amount : 'full', {
        requestKey: `loan-proof-apply:${proof.id}`,
        proofId: proof.id,
        withdraw: false,
      });
      count++;
    } catch (error) {
      ctx.logger?.warn(
        { err: error, proof: proof.id },
        'an approved loan repayment proof could not be applied yet',
      );
    }
  }
  return count;
}
