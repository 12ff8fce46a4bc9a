import { Code } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { takeCapacity } from './earn.products.repository.ts';
import { insertIncomes, insertInvestment, markEnded, setPromised, setUnpromised } from './earn.repository.ts';
import type { EarnAttachments, EndingData, Subscription } from './earn.shared.ts';

/*
 * The records the earn module writes in the same transaction as its ledger entries and holds:
 * registered once with the ledger when `EarnService` is built.
 */

type Parts = {
  ledger: LedgerService;
  notices: NoticesService;
  uploads: Pick<UploadsService, 'takeInTx'>;
};

/** The five attachments, registered in this order: `earn_subscribe`, `earn_proof`, `earn_reserve`, `earn_redeem`, `earn_payout`. */
export function earnAttachments(parts: Parts): EarnAttachments {
  return {
    subscribe: subscribeAttachment(parts),
    proofHold: proofHoldAttachment(parts),
    promise: promiseAttachment(parts),
    ending: endingAttachment(parts),
    income: incomeAttachment(parts),
  };
}

/** A purchase from the balance: the investment and its capacity, in the purchase's transaction. */
function subscribeAttachment({ ledger }: Parts): EarnAttachments['subscribe'] {
  return ledger.attachment(
    'earn_subscribe',
    async (tx, rows: readonly { entryId: number; data: Subscription }[]) => {
      const out = new Map<number, number>();
      for (const row of rows)
        out.set(row.entryId, await insertSubscription(tx, row.data, { entryId: row.entryId, holdId: null }));
      return out;
    },
  );
}

/** A purchase by proof: the amount declared is held on external clearing until staff decide. */
function proofHoldAttachment({ ledger, uploads }: Parts): EarnAttachments['proofHold'] {
  return ledger.holdAttachment(
    'earn_proof',
    async (tx, rows: readonly { holdId: number; data: Subscription & { proof: string } }[]) => {
      const out = new Map<number, number>();
      for (const row of rows) {
        const id = await insertSubscription(tx, row.data, { entryId: null, holdId: row.holdId });
        await uploads.takeInTx(
          tx,
          row.data.userId,
          [{ path: 'proof', id: row.data.proof, purpose: 'fund_proof' }],
          `earn:${id}`,
        );
        out.set(row.holdId, id);
      }
      return out;
    },
  );
}

/** The interest of a purchase by proof moved to the owed account (or back when refused). */
function promiseAttachment({ ledger }: Parts): EarnAttachments['promise'] {
  return ledger.attachment(
    'earn_reserve',
    async (tx, rows: readonly { entryId: number; data: { investmentId: number; back: boolean } }[]) => {
      for (const row of rows)
        if (row.data.investmentId > 0)
          await (row.data.back ? setUnpromised : setPromised)(tx, row.data.investmentId, row.entryId);
      return new Map<number, never>();
    },
  );
}

/** The end of an investment (maturity or early redemption), in its ledger transaction. */
function endingAttachment({ ledger, notices }: Parts): EarnAttachments['ending'] {
  return ledger.attachment(
    'earn_redeem',
    async (tx, rows: readonly { entryId: number; data: EndingData }[]) => {
      await markEnded(
        tx,
        rows.map((r) => ({
          id: r.data.id,
          status: r.data.status,
          redeemedDay: r.data.day,
          received: BigInt(r.data.received),
          penalty: BigInt(r.data.penalty),
          at: r.data.at,
        })),
      );
      for (const r of rows)
        if (r.data.notice) await notices.notifyInTx(tx, r.data.userId, 'en', 'earn_matured', r.data.notice);
      return new Map<number, never>();
    },
  );
}

/** A day's income: its `earn_incomes` row. */
function incomeAttachment({ ledger }: Parts): EarnAttachments['income'] {
  return ledger.attachment(
    'earn_payout',
    async (
      tx,
      rows: readonly { entryId: number; data: { investmentId: number; day: string; amount: string } }[],
    ) => {
      await insertIncomes(
        tx,
        rows.map((r) => ({
          investmentId: r.data.investmentId,
          day: r.data.day,
          amount: BigInt(r.data.amount),
          entryId: r.entryId,
        })),
      );
      return new Map<number, never>();
    },
  );
}

async function insertSubscription(
  tx: Queryable,
  data: Subscription,
  ledgerIds: { entryId: number | null; holdId: number | null },
): Promise<number> {
  if (!(await takeCapacity(tx, data.productId, data.book, data.amount)))
    throw new ApiError(Code.SOLD_OUT, { reason: 'capacity' });
  try {
    return await insertInvestment(tx, {
      ...data,
      entryId: ledgerIds.entryId,
      clearingHoldId: ledgerIds.holdId,
      // A purchase from the balance moves its interest in the same entry.
      promiseEntryId: data.totalInterest !== null && data.totalInterest > 0n ? ledgerIds.entryId : null,
    });
  } catch (error) {
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === '23505' && constraint === 'earn_investments_one_key')
      throw new ApiError(Code.ALREADY_PURCHASED);
    if (code === '23505' && constraint === 'earn_investments_tx_hash_key')
      throw new ApiError(Code.TRANSACTION_ALREADY_USED);
    throw error;
  }
}
