import { join } from 'node:path';
import { ASSET_SCALES, type Asset, interpolate, isLanguage, formatMinor as toDecimal } from '@swx/contract';
import { localeTexts } from '../../platform/texts.ts';
import { type NoticeKind, renderNotice } from '../notices/notices.service.ts';
import { ppmText } from '../products/figures.ts';
import { type SettledProduct, settlementKey } from '../products/settlement.ts';
import { book } from './loans.decisions.ts';
import { addDays, chargeOfDay, owedTotal, type PrincipalPaid } from './loans.figures.ts';
import {
  type LoanRow,
  markOverdue as markOverdueRows,
  principalPaidOf,
  servicedLoans,
  takeReminders,
} from './loans.repository.ts';
import {
  BOOK,
  LOAN,
  type LoansContext,
  nowIso,
  owedToday,
  today,
  UNEARNED,
  unearnedAccount,
} from './loans.shared.ts';

/*
 * Servicing: each day's interest or late cost charged (a settled product per asset), loans past
 * their due date marked overdue, and the reminders before it.
 */

/** The mails' subjects; their text is the notice's, in the customer's language. */
const TEXT = localeTexts<typeof import('./locales/en.json')>(join(import.meta.dirname, 'locales'));

/** The settled product of one asset: each day's interest or late cost, from the unearned account to the customer's debt. */
export function servicing(
  ctx: LoansContext,
  asset: Asset,
): SettledProduct<LoanRow & { ownerId: number; paidPrincipal: PrincipalPaid[] }> {
  return {
    name: `loans.${asset.toLowerCase()}`,
    books: [BOOK],
    asset,
    source: { name: UNEARNED, account: () => unearnedAccount(ctx, asset), guarded: true },
    creditKind: LOAN,
    entryKind: 'loan',
    pageHoldings: async (_book, afterId, limit, day) =>
      (await servicedLoans(ctx.db, asset, afterId, limit, day)).map((l) => ({ ...l, ownerId: l.userId })),
    paymentFor: (h, day) => {
      const c = chargeOf(h, h.paidPrincipal, day);
      return c.interest + c.late;
    },
    reference: (h) => `loan:${h.id}`,
    attach: (h, day) => {
      const c = chargeOf(h, h.paidPrincipal, day);
      return ctx.attachments.loanEntry.with({
        op: 'charge',
        loanId: h.id,
        day,
        interest: c.interest.toString(),
        late: c.late.toString(),
      });
    },
  };
}

function chargeOf(loan: LoanRow, paid: readonly PrincipalPaid[], day: string) {
  if (loan.disbursedDay === null) return { interest: 0n, late: 0n };
  return chargeOfDay(loan, loan.disbursedDay, paid, day);
}

/**
 * Posts the charges of the days through today that the settlement has not posted yet, with the
 * settlement's own keys and requests (a day's charge is fixed once it starts: it depends only on
 * repayments before it): a repayment then sees every day charged, and the runner, coming later,
 * finds those days paid.
 */
export async function catchUp(ctx: LoansContext, loan: LoanRow): Promise<void> {
  if (loan.disbursedDay === null) return;
  await book(ctx, loan);
  const product = servicing(ctx, loan.asset);
  const paid = (await principalPaidOf(ctx.db, [loan.id])).get(loan.id) ?? [];
  const holding = { ...loan, ownerId: loan.userId, paidPrincipal: paid };
  const through = today(ctx);
  const source = await unearnedAccount(ctx, loan.asset);
  const account = await ctx.ledger.accountId(BOOK, loan.userId, loan.asset, LOAN);
  for (
    let day = addDays(loan.chargedThrough ?? loan.disbursedDay, 1);
    day <= through;
    day = addDays(day, 1)
  ) {
    const amount = await product.paymentFor(holding, day);
    if (amount === 0n) continue;
    await ctx.ledger.transfer({
      book: BOOK,
      kind: product.entryKind,
      idempotencyKey: settlementKey(product.name, loan.id, day),
      actor: 'system',
      reference: product.reference?.(holding, day) ?? `${product.name}:${loan.id}`,
      ...(product.attach ? { attach: product.attach(holding, day, amount) } : {}),
      postings: [
        { accountId: source, amount: -amount },
        { accountId: account, amount },
      ],
    });
  }
}

/** A notice, and the same text mailed in the customer's language (a failed mail is logged; the mailer keeps it). */
async function tell(
  ctx: LoansContext,
  userId: number,
  kind: NoticeKind,
  params: Record<string, string>,
  subject: keyof (typeof TEXT)['en']['mail'],
): Promise<void> {
  await ctx.notices.notify(userId, 'en', kind, params);
  if (!ctx.mail) return;
  const customer = await ctx.mail.customers.get(userId);
  if (!customer?.email) return;
  const language = isLanguage(customer.language) ? customer.language : 'en';
  await ctx.mail.mailer
    .send({
      to: customer.email,
      subject: interpolate(TEXT[language].mail[subject], {}, language),
      text: renderNotice(kind, language, params),
    })
    .catch((error: unknown) => ctx.logger?.error({ err: error, userId, kind }, 'a loan mail was not sent'));
}

export async function markOverdue(ctx: LoansContext): Promise<number> {
  const rows = await markOverdueRows(ctx.db, today(ctx), nowIso(ctx));
  for (const loan of rows) {
    const scale = ASSET_SCALES[loan.asset];
    const paid = (await principalPaidOf(ctx.db, [loan.id])).get(loan.id) ?? [];
    await tell(
      ctx,
      loan.userId,
      'loan_overdue',
      {
        amount: toDecimal(loan.amount, scale),
        asset: loan.asset,
        dueDate: loan.dueDay ?? '',
        lateRate: `${ppmText(loan.lateDailyPpm * 100n)} %`,
        lateCap: toDecimal(loan.lateCap, scale),
        owed: toDecimal(owedTotal(owedToday(ctx, loan, paid)), scale),
      },
      'overdueSubject',
    );
  }
  return rows.length;
}

export async function remind(ctx: LoansContext): Promise<number> {
  let count = 0;
  for (const days of [3, 1] as const) {
    for (const loan of await takeReminders(ctx.db, addDays(today(ctx), days), days, nowIso(ctx))) {
      const scale = ASSET_SCALES[loan.asset];
      const paid = (await principalPaidOf(ctx.db, [loan.id])).get(loan.id) ?? [];
      await tell(
        ctx,
        loan.userId,
        days === 3 ? 'loan_due_in_three_days' : 'loan_due_tomorrow',
        {
          amount: toDecimal(loan.amount, scale),
          asset: loan.asset,
          dueDate: loan.dueDay ?? '',
          owed: toDecimal(owedTotal(owedToday(ctx, loan, paid)), scale),
        },
        'dueSoonSubject',
      );
      count++;
    }
  }
  return count;
}
