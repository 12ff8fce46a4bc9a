import { Code, PROOF_CLOSED_BY_CHAIN } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import {
  creditDeposits,
  insertProofDeposit,
  lockTransactionHash,
  moveDeposit,
  setDepositLock,
  transactionClaimed,
} from './wallet.deposits.repository.ts';
import {
  type ClosedData,
  type CreditData,
  type DeclaredData,
  type DepositAttachments,
  type DepositDeps,
  limitRefusal,
  nowIso,
  type RequestedData,
  type StepData,
  type WithdrawalAttachments,
  type WithdrawalDeps,
} from './wallet.shared.ts';
import {
  insertWithdrawal,
  lockCustomerWithdrawals,
  moveWithdrawal,
  setSettleEntry,
  withdrawnSince,
} from './wallet.withdrawals.repository.ts';

/** The service's clock: every row these attachments write is dated on it. */
type Clock = { readonly now: () => number };

/*
 * The wallet's ledger attachments: what each of its entries and holds writes in the ledger's own
 * transaction (the deposit or withdrawal row moved on, the customer told), so money and rows never
 * disagree. Registered once, by `Deposits` and `Withdrawals`.
 */

export function depositAttachments(
  deps: Pick<DepositDeps, 'ledger' | 'notices' | 'uploads' | 'audit'> & Clock,
): DepositAttachments {
  const { ledger, notices } = deps;
  return {
    // A batch's credits (a whole block's) move their rows in one statement, with the lock each
    // entry placed (`holdCredit`); a row no longer confirming fails the batch, which the ledger
    // retries one by one, so only that credit is refused.
    credited: ledger.attachment<CreditData, boolean>('deposit', async (tx, rows) => {
      const moved = await creditDeposits(
        tx,
        rows.map(({ entryId, holdId, data }) => ({
          id: data.depositId,
          creditEntryId: entryId,
          lockHoldId: holdId ?? null,
        })),
        nowIso(deps),
      );
      for (const { data } of rows)
        if (!moved.has(data.depositId)) throw new Error(`deposit ${data.depositId} is no longer confirming`);
      await notices.notifyManyInTx(
        tx,
        rows.map(({ data }) => ({
          userId: data.userId,
          language: data.language,
          kind: 'deposit_credited' as const,
          params: { amount: data.amount, asset: data.asset },
        })),
      );
      return new Map(rows.map(({ entryId }) => [entryId, true]));
    }),
    locked: ledger.holdAttachment<{ depositId: number }, boolean>('deposit_lock', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { holdId, data } of rows) {
        await setDepositLock(tx, data.depositId, holdId);
        done.set(holdId, true);
      }
      return done;
    }),
    unlocked: ledger.holdAttachment<CreditData, boolean>('deposit_unlock', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { holdId, data } of rows) {
        // Withdrawable now: said once, in the same transaction as the row's move.
        if (await moveDeposit(tx, data.depositId, ['credited'], 'available'))
          await notices.notifyInTx(tx, data.userId, data.language, 'deposit_available', {
            amount: data.amount,
            asset: data.asset,
          });
        done.set(holdId, true);
      }
      return done;
    }),
    declared: ledger.holdAttachment<DeclaredData, number>('deposit_proof', async (tx, rows) => {
      const done = new Map<number, number>();
      for (const { holdId, data } of rows) done.set(holdId, await writeDeclared(deps, tx, holdId, data));
      return done;
    }),
    closed: ledger.holdAttachment<ClosedData, boolean>('deposit_proof_closed', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { holdId, data } of rows) {
        await writeClosed(deps, tx, data);
        done.set(holdId, true);
      }
      return done;
    }),
  };
}

/** A declared deposit's row, once per transaction hash, with its proof taken from the uploads. */
async function writeDeclared(
  deps: Pick<DepositDeps, 'uploads'> & Clock,
  tx: Queryable,
  holdId: number,
  data: DeclaredData,
): Promise<number> {
  await lockTransactionHash(tx, data.txHash);
  if (await transactionClaimed(tx, data.txHash, null)) throw new ApiError(Code.TRANSACTION_ALREADY_USED);
  const id = await insertProofDeposit(
    tx,
    {
      userId: data.userId,
      network: data.network,
      asset: data.asset,
      amount: BigInt(data.amount),
      txHash: data.txHash,
      address: data.address,
      minimum: BigInt(data.minimum),
      lastSix: data.lastSix,
      proofUpload: data.proof,
      clearingHoldId: holdId,
    },
    nowIso(deps),
  );
  await deps.uploads.takeInTx(
    tx,
    data.userId,
    [{ path: 'proof', id: data.proof, purpose: 'deposit_proof' }],
    `deposit:${id}`,
  );
  return id;
}

/** A pending proof closed (`credited_on_chain`): rejected with that reason, the customer told, audited. */
async function writeClosed(
  deps: Pick<DepositDeps, 'notices' | 'audit'>,
  tx: Queryable,
  data: ClosedData,
): Promise<void> {
  const moved = await moveDeposit(tx, data.depositId, ['pending_review'], 'rejected', {
    reason: PROOF_CLOSED_BY_CHAIN,
  });
  // Decided by staff meanwhile: their decision stands, this release is not written.
  if (!moved) throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  await deps.notices.notifyInTx(tx, data.userId, data.language, 'deposit_proof_closed', {
    amount: data.amount,
    asset: data.asset,
  });
  await deps.audit.appendInTx(tx, [
    {
      actor: 'system',
      action: 'deposit_proof.closed',
      subject: `deposit_proof:${data.depositId}`,
      data: { userId: data.userId, reason: PROOF_CLOSED_BY_CHAIN, chainDepositId: data.chainDepositId },
    },
  ]);
}

export function withdrawalAttachments(
  deps: Pick<WithdrawalDeps, 'ledger' | 'notices'> & Clock,
): WithdrawalAttachments {
  const { ledger, notices } = deps;
  return {
    requested: ledger.holdAttachment<RequestedData, number>('withdrawal_request', async (tx, rows) => {
      const done = new Map<number, number>();
      for (const { holdId, data } of rows)
        done.set(holdId, await writeRequested(tx, holdId, data, nowIso(deps)));
      return done;
    }),
    posted: ledger.holdAttachment<StepData, boolean>('withdrawal_post', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { holdId, entryId, data } of rows) {
        const moved = await moveWithdrawal(tx, data.withdrawalId, ['sent'], 'completed', nowIso(deps), {
          ...(entryId === null ? {} : { postEntryId: entryId }),
          completed: true,
        });
        if (!moved) throw new Error(`withdrawal ${data.withdrawalId} is not sent`);
        await notices.notifyInTx(tx, data.userId, data.language, 'withdrawal_completed', data.params);
        done.set(holdId, true);
      }
      return done;
    }),
    released: ledger.holdAttachment<StepData & { reason: string }, boolean>(
      'withdrawal_release',
      async (tx, rows) => {
        const done = new Map<number, boolean>();
        for (const { holdId, data } of rows) {
          const moved = await moveWithdrawal(
            tx,
            data.withdrawalId,
            ['approved', 'sent'],
            'failed',
            nowIso(deps),
            { reason: data.reason },
          );
          if (!moved) throw new Error(`withdrawal ${data.withdrawalId} cannot fail now`);
          await notices.notifyInTx(tx, data.userId, data.language, 'withdrawal_failed', data.params);
          done.set(holdId, true);
        }
        return done;
      },
    ),
    settled: ledger.attachment<{ withdrawalId: number }, boolean>('withdrawal', async (tx, rows) => {
      const done = new Map<number, boolean>();
      for (const { entryId, data } of rows) {
        await setSettleEntry(tx, data.withdrawalId, entryId);
        done.set(entryId, true);
      }
      return done;
    }),
  };
}

/** A requested withdrawal's row; the daily limit is a sum over the customer's withdrawals: counted under their lock. */
async function writeRequested(
  tx: Queryable,
  holdId: number,
  data: RequestedData,
  at: string,
): Promise<number> {
  await lockCustomerWithdrawals(tx, data.userId);
  const used = await withdrawnSince(tx, data.userId, data.asset, data.since);
  if (used + BigInt(data.amount) > BigInt(data.limit)) throw limitRefusal(data, used);
  return insertWithdrawal(
    tx,
    {
      userId: data.userId,
      requestId: data.requestId,
      network: data.network,
      asset: data.asset,
      addressId: data.addressId,
      address: data.address,
      amount: BigInt(data.amount),
      fee: BigInt(data.fee),
      receive: BigInt(data.receive),
      holdId,
    },
    at,
  );
}
