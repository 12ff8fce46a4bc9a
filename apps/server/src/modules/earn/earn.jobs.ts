import { type Job, minuteKey } from '../../platform/jobs.ts';
import type { Book } from '../ledger/ledger.service.ts';
import { addDays } from '../products/figures.ts';
import type { SettlementRunner } from '../products/settlement.ts';
import { listProducts } from './earn.products.repository.ts';
import type { EarnService } from './earn.service.ts';
import { mature, publishRates, returnRefusedPromises, settled } from './earn.settlement.ts';
import type { EarnContext } from './earn.shared.ts';

/* The earn jobs: the daily settlement on the settlement runner's clock, and the minute's returns. */

/**
 * One run of the daily job: publish dynamic rates, settle every product's due days, pay back the
 * principal of investments whose last day is settled, and return refused proofs' promises.
 * Answers the days that could not be settled (their reserve is short: staff were alerted).
 */
export async function runDaily(
  ctx: EarnContext,
  runner: SettlementRunner,
): Promise<{ product: string; book: Book; day: string }[]> {
  const due = runner.dueDay();
  const unfunded: { product: string; book: Book; day: string }[] = [];
  for (const p of await listProducts(ctx.db)) {
    await publishRates(ctx, p, due);
    const days = await runner.settleDue(settled(ctx, p));
    for (const book of ['demo', 'live'] as const) {
      const stop = days.find((d) => d.book === book && d.status === 'unfunded');
      if (stop) unfunded.push({ product: stop.product, book, day: stop.day });
      const settledThrough = stop ? addDays(stop.day, -1) : days.filter((d) => d.book === book).at(-1)?.day;
      if (settledThrough) await mature(ctx, p, book, settledThrough);
    }
  }
  await returnRefusedPromises(ctx);
  return unfunded;
}

/** Every minute: a refused proof's promise goes back to its reserve. */
export function earnReturnsJob(earn: EarnService): Job {
  return {
    name: 'earn.returns',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async () => {
      await earn.returnRefusedPromises();
    },
  };
}
