import { Code } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import { endPlan, insertPlan, type NewPlan, type PlanEnd, takeCapacity } from './smart.repository.ts';
import type { SmartAttachments } from './smart.shared.ts';

/*
 * The records the smart module writes in the same transaction as its ledger entries: registered
 * once with the ledger when `SmartService` is built.
 */

type Subscription = NewPlan;
type EndData = PlanEnd;

/**
 * The two attachments, registered in this order: `smart_subscribe`, `smart_end`. `now` is the
 * service's clock (epoch ms): a plan is written at its time, outside the entry's hashed data, so a
 * retried request stays the same request.
 */
export function smartAttachments(ledger: LedgerService, now: () => number): SmartAttachments {
  // The purchase: the plan and its room in the product, in the purchase's transaction.
  const subscribe = ledger.attachment<Subscription, number>('smart_subscribe', async (tx, rows) => {
    const out = new Map<number, number>();
    for (const row of rows) {
      if (!(await takeCapacity(tx, row.data.productId, row.data.amountMinor)))
        throw new ApiError(Code.SOLD_OUT, { reason: 'capacity' });
      out.set(row.entryId, await insertPlan(tx, row.data, row.entryId, new Date(now()).toISOString()));
    }
    return out;
  });
  const ends = ledger.attachment<EndData, never>('smart_end', async (tx, rows) => {
    for (const row of rows) await endPlan(tx, row.data, row.entryId);
    return new Map<number, never>();
  });
  return { subscribe, ends };
}
