import { LOAN_ASSETS } from '@swx/contract';
import { type Job, minuteKey } from '../../platform/jobs.ts';
import type { SettlementRunner } from '../products/settlement.ts';
import { bookReceivables } from './loans.decisions.ts';
import { applyProofs } from './loans.repayment.ts';
import type { LoansService } from './loans.service.ts';
import { markOverdue, remind, servicing } from './loans.servicing.ts';
import type { LoansContext } from './loans.shared.ts';

/* The loans' jobs: the daily servicing on the settlement runner's clock, and the minute's catch-up. */

/**
 * One run of the daily job: book new loans, settle every asset's due days, then mark loans past
 * their due date overdue and send the reminders 3 days and 1 day before it.
 */
export async function runDaily(ctx: LoansContext, runner: SettlementRunner): Promise<string[]> {
  await bookReceivables(ctx);
  const unfunded: string[] = [];
  for (const asset of LOAN_ASSETS) {
    const days = await runner.settleDue(servicing(ctx, asset));
    for (const d of days) if (d.status === 'unfunded') unfunded.push(`${d.product} ${d.day}`);
  }
  await markOverdue(ctx);
  await remind(ctx);
  await applyProofs(ctx);
  return unfunded;
}

/** Every minute: receivables of new payouts booked, approved repayment proofs applied. */
export function loansMinuteJob(loans: LoansService): Job {
  return {
    name: 'loans.minute',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async () => {
      await loans.bookReceivables();
      await loans.applyProofs();
    },
  };
}
