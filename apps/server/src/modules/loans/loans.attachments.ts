import { Code } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import {
  applyToLoan,
  insertBalanceRepayment,
  insertProofRepayment,
  lockRepaid,
  markProofApplied,
} from './loans.repayments.repository.ts';
import { insertCharge, insertLoan, markBooked, type NewLoan } from './loans.repository.ts';
import {
  type ApplyData,
  type LoanAttachments,
  type LoanEntryData,
  nowIso,
  type ProofData,
  type RepayData,
} from './loans.shared.ts';

/*
 * The records the loans module writes in the same transaction as its ledger entries and holds:
 * registered once with the ledger when `LoansService` is built.
 */

type Parts = {
  ledger: LedgerService;
  audit: AuditService;
  notices: NoticesService;
  uploads: Pick<UploadsService, 'takeInTx' | 'fileForOwner'>;
  /** The loans' clock: every row written is stamped with its time. */
  now: () => number;
};

/** The four attachments, registered in this order: `loan`, `repayment`, `loan_apply`, `loan_repayment_proof`. */
export function loanAttachments(parts: Parts): LoanAttachments {
  return {
    loanEntry: loanEntryAttachment(parts),
    repayEntry: repayEntryAttachment(parts),
    applyHold: applyHoldAttachment(parts),
    proofHold: proofHoldAttachment(parts),
  };
}

/** `loan` entries: pool funding writes nothing, a booking marks the loan, a day's charge is recorded. */
function loanEntryAttachment({ ledger, now }: Parts): LoanAttachments['loanEntry'] {
  return ledger.attachment('loan', async (tx, rows: readonly { entryId: number; data: LoanEntryData }[]) => {
    const at = nowIso({ now });
    for (const { entryId, data } of rows) {
      if (data.op === 'book') await markBooked(tx, data.loanId, entryId, at);
      else if (data.op === 'charge')
        await insertCharge(tx, {
          loanId: data.loanId,
          day: data.day,
          interest: BigInt(data.interest),
          late: BigInt(data.late),
          entryId,
          at,
        });
    }
    return new Map<number, never>();
  });
}

/** `repayment` entries: the repayment row (or the proof applied), the loan's figures, the notice of the last one. */
function repayEntryAttachment({ ledger, notices, now }: Parts): LoanAttachments['repayEntry'] {
  return ledger.attachment('repayment', async (tx, rows: readonly { entryId: number; data: RepayData }[]) => {
    const out = new Map<number, number>();
    const at = nowIso({ now });
    for (const { entryId, data } of rows) {
      // Two repayments of one loan at once: the second was allocated on figures the first changed.
      const now = await lockRepaid(tx, data.loanId);
      if (!now || now.paid !== data.paidBefore || (now.state !== 'repaying' && now.state !== 'expired'))
        throw new ApiError(Code.PRICE_CHANGED, { reason: 'repaid' });
      const a = {
        late: BigInt(data.late),
        interest: BigInt(data.interest),
        principal: BigInt(data.principal),
      };
      let id: number;
      if (data.proofId === null)
        id = await insertBalanceRepayment(
          tx,
          {
            loanId: data.loanId,
            userId: data.userId,
            amount: BigInt(data.amount),
            day: data.day,
            requestKey: data.requestKey,
            entryId,
            at,
          },
          a,
        );
      else {
        id = data.proofId;
        await markProofApplied(tx, id, { ...a, day: data.day, entryId });
      }
      await applyToLoan(tx, data.loanId, { ...a, day: data.day, close: data.close, at });
      if (data.notice) await notices.notifyInTx(tx, data.userId, 'en', 'loan_repaid', data.notice);
      out.set(entryId, id);
    }
    return out;
  });
}

/** An application: the loan row with its signed agreement, the signature taken, the agreement's hash audited. */
function applyHoldAttachment({ ledger, audit, uploads, now }: Parts): LoanAttachments['applyHold'] {
  return ledger.holdAttachment(
    'loan_apply',
    async (tx, rows: readonly { holdId: number; data: ApplyData }[]) => {
      const out = new Map<number, number>();
      const at = nowIso({ now });
      for (const { holdId, data } of rows) {
        const loan: NewLoan = {
          ...data,
          amount: BigInt(data.amount),
          dailyPpm: BigInt(data.dailyPpm),
          lateDailyPpm: BigInt(data.lateDailyPpm),
          lateCapPpm: BigInt(data.lateCapPpm),
          totalInterest: BigInt(data.totalInterest),
          lateCap: BigInt(data.lateCap),
        };
        let id: number;
        try {
          id = await insertLoan(tx, loan, holdId, at);
        } catch (error) {
          const { code, constraint } = error as { code?: string; constraint?: string };
          if (code === '23505' && constraint === 'loans_one_open_key')
            throw new ApiError(Code.ALREADY_PURCHASED);
          throw error;
        }
        await uploads.takeInTx(
          tx,
          data.userId,
          [{ path: 'signature', id: data.signatureUpload, purpose: 'loan_signature' }],
          `loan:${id}`,
        );
        await audit.appendInTx(tx, [
          {
            actor: `customer:${data.userId}`,
            action: 'loan.agreement.signed',
            subject: `loan:${id}`,
            data: {
              sha256: data.agreementSha256,
              amount: data.amount,
              asset: data.asset,
              termDays: data.termDays,
            },
          },
        ]);
        out.set(holdId, id);
      }
      return out;
    },
  );
}

/** A repayment by proof: the proof row (one per transaction hash) and its upload taken. */
function proofHoldAttachment({ ledger, uploads, now }: Parts): LoanAttachments['proofHold'] {
  return ledger.holdAttachment(
    'loan_repayment_proof',
    async (tx, rows: readonly { holdId: number; data: ProofData }[]) => {
      const out = new Map<number, number>();
      const at = nowIso({ now });
      for (const { holdId, data } of rows) {
        const id = await insertProofRepayment(tx, {
          ...data,
          amount: BigInt(data.amount),
          proofUpload: data.proof,
          holdId,
          at,
        }).catch((error: unknown) => {
          if ((error as { code?: string }).code === '23505')
            throw new ApiError(Code.TRANSACTION_ALREADY_USED);
          throw error;
        });
        await uploads.takeInTx(
          tx,
          data.userId,
          [{ path: 'proof', id: data.proof, purpose: 'loan_repayment_proof' }],
          `loan_repayment:${id}`,
        );
        out.set(holdId, id);
      }
      return out;
    },
  );
}
