import type {
  Asset,
  Language,
  LoanDetail,
  LoanLimit,
  LoanLimitProposal,
  LoanLimitRule,
  LoanLimitSettings,
  LoanPayoff,
  LoanPool,
  LoanProductAdmin,
  LoanProductBody,
  LoanProductsData,
  LoanQuote,
  LoanRecord,
  LoanRepayment,
  LoanState,
  OverdueLoan,
} from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { FileStore } from '../../platform/storage.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import { Quotes } from '../products/quotes.ts';
import type { SubLedger } from '../products/reconciliation.ts';
import type { SettledProduct, SettlementRunner } from '../products/settlement.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { apply, creditFacts, products, quote } from './loans.apply.ts';
import { loanAttachments } from './loans.attachments.ts';
import {
  book,
  bookReceivables,
  listPendingProofs,
  pendingApplications,
  recordApproval,
  recordProofDecision,
  recordRejection,
  repaymentRow,
} from './loans.decisions.ts';
import type { PrincipalPaid } from './loans.figures.ts';
import { runDaily } from './loans.jobs.ts';
import { decideLimitRule, limit, limitSettings, proposeLimitRule, type StaffRefs } from './loans.limit.ts';
import { agreementForOwner, agreementForStaff, detail, loans, wireLoan } from './loans.reads.ts';
import { applyProofs, payoff, repay, repayAddresses, repayWithProof } from './loans.repayment.ts';
import type { RepaymentRow } from './loans.repayments.repository.ts';
import { type LoanRow, loanById, principalPaidOf } from './loans.repository.ts';
import { markOverdue, remind, servicing } from './loans.servicing.ts';
import {
  incomeAccount,
  LOAN_QUOTE,
  type LoansContext,
  poolAccount,
  today,
  unearnedAccount,
} from './loans.shared.ts';
import {
  adminProducts,
  createProduct,
  fundPool,
  overdue,
  pool,
  pools,
  subLedger,
  updateProduct,
} from './loans.staff.ts';

export { loansMinuteJob } from './loans.jobs.ts';
export { wireRepayment } from './loans.reads.ts';
export { INCOME, LOAN, POOL, UNEARNED } from './loans.shared.ts';

/**
 * Loans, the module's public API: a thin front over its use cases, one file each — products,
 * limit, quote and application (`loans.apply.ts`), staff decisions and the booking of the debt
 * (`loans.decisions.ts`), daily servicing, overdue and reminders (`loans.servicing.ts`, its jobs in
 * `loans.jobs.ts`), repayment from the wallet and by proof (`loans.repayment.ts`), the customer's
 * reads (`loans.reads.ts`) and staff's pools and products (`loans.staff.ts`); the ledger
 * attachments are in `loans.attachments.ts`, and what they share in `loans.shared.ts`.
 */
export class LoansService {
  private readonly ctx: LoansContext;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    audit: AuditService;
    notices: NoticesService;
    kyc: Pick<KycService, 'stateOf' | 'status'>;
    operator: Pick<OperatorService, 'info'>;
    uploads: Pick<UploadsService, 'takeInTx' | 'fileForOwner'>;
    storage: FileStore;
    params: Pick<ParamsService, 'get'>;
    quoteKeys: PurposeKeys;
    now?: () => number;
    logger?: Logger;
    /** Reminders and overdue notices are also mailed to the customer's address, when they have one. */
    mail?: { mailer: Mailer; customers: Pick<CustomerDirectory, 'get'> };
    /**
     * The platform's own address on the EVM chain (the hot wallet's: the development chain's in
     * the sandbox, SIGNER_ADDRESS in production): where a repayment by transfer of USDT or ETH is
     * sent when no `loan.repaymentAddress.<asset>` parameter names another. Not a customer's
     * deposit address, which the deposit watcher would credit a second time.
     */
    platformAddress?: string | null;
  }) {
    const now = deps.now ?? Date.now;
    this.ctx = {
      db: deps.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      kyc: deps.kyc,
      operator: deps.operator,
      uploads: deps.uploads,
      storage: deps.storage,
      params: deps.params,
      now,
      logger: deps.logger,
      mail: deps.mail ?? null,
      platformAddress: deps.platformAddress ?? null,
      quotes: new Quotes(LOAN_QUOTE, { keys: deps.quoteKeys, db: deps.db, now }),
      attachments: loanAttachments({ ...deps, now }),
    };
  }

  today(): string {
    return today(this.ctx);
  }

  // Accounts

  poolAccount(asset: Asset): Promise<number> {
    return poolAccount(this.ctx, asset);
  }

  unearnedAccount(asset: Asset): Promise<number> {
    return unearnedAccount(this.ctx, asset);
  }

  incomeAccount(asset: Asset): Promise<number> {
    return incomeAccount(this.ctx, asset);
  }

  // Products and limits

  /** The loan facts the credit score reads (installed into the KYC service). */
  creditFacts(userId: number): ReturnType<typeof creditFacts> {
    return creditFacts(this.ctx, userId);
  }

  /** The customer's limit: a share of each product's maximum from the credit score, identity verified first. */
  limit(userId: number): Promise<LoanLimit & { sharePpm: bigint }> {
    return limit(this.ctx, userId);
  }

  products(userId: number): Promise<LoanProductsData> {
    return products(this.ctx, userId);
  }

  /** Staff: the limit rule that applies, a change waiting, the latest decided. */
  limitSettings(refs: StaffRefs): Promise<LoanLimitSettings> {
    return limitSettings(this.ctx, refs);
  }

  /** Staff propose a limit rule; another approves it (four eyes). */
  proposeLimitRule(staffId: number, body: LoanLimitRule, refs: StaffRefs): Promise<LoanLimitProposal> {
    return proposeLimitRule(this.ctx, staffId, body, refs);
  }

  decideLimitRule(
    staffId: number,
    id: number,
    decision: 'approved' | 'rejected',
    refs: StaffRefs,
  ): Promise<LoanLimitProposal> {
    return decideLimitRule(this.ctx, staffId, id, decision, refs);
  }

  // Quote and apply

  quote(
    book: Book,
    userId: number,
    body: { productId: number; amount: string; termDays: number },
    language: Language = 'en',
  ): Promise<LoanQuote> {
    return quote(this.ctx, book, userId, body, language);
  }

  /** Applies at a quote with the drawn signature (the agreement signed and kept; the pool holds the amount): 20001. */
  apply(
    book: Book,
    userId: number,
    body: { quoteId: string; requestId: string; signature: string; acceptAgreement: true },
  ): Promise<LoanRecord> {
    return apply(this.ctx, book, userId, body);
  }

  // Decisions (loans.review.ts calls these in the decision's transaction)

  pendingApplications(after: number | null, limit: number): Promise<LoanRow[]> {
    return pendingApplications(this.ctx, after, limit);
  }

  loanRow(id: number, tx: Queryable = this.ctx.db): Promise<LoanRow | null> {
    return loanById(tx, id);
  }

  recordApproval(tx: Queryable, id: number, entryId: number | null): Promise<LoanRow> {
    return recordApproval(this.ctx, tx, id, entryId);
  }

  recordRejection(tx: Queryable, id: number, reason: string): Promise<void> {
    return recordRejection(this.ctx, tx, id, reason);
  }

  /** After the payout, the customer's debt on the ledger (key `loan-book:<id>`; a job retries it). */
  book(loan: LoanRow): Promise<void> {
    return book(this.ctx, loan);
  }

  bookReceivables(): Promise<number> {
    return bookReceivables(this.ctx);
  }

  // Servicing

  /** The settled product of one asset: each day's interest or late cost, from the unearned account to the customer's debt. */
  servicing(asset: Asset): SettledProduct<LoanRow & { ownerId: number; paidPrincipal: PrincipalPaid[] }> {
    return servicing(this.ctx, asset);
  }

  /** One run of the daily job: book, settle every asset's due days, mark overdue, remind; the unfunded days. */
  runDaily(runner: SettlementRunner): Promise<string[]> {
    return runDaily(this.ctx, runner);
  }

  markOverdue(): Promise<number> {
    return markOverdue(this.ctx);
  }

  remind(): Promise<number> {
    return remind(this.ctx);
  }

  // Repayment

  repayAddresses(asset: Asset): Promise<{ asset: Asset; network: string; address: string }[]> {
    return repayAddresses(this.ctx, asset);
  }

  payoff(book: Book, userId: number, loanId: number): Promise<LoanPayoff> {
    return payoff(this.ctx, book, userId, loanId);
  }

  repay(
    book: Book,
    userId: number,
    body: { loanId: number; requestId: string; full: boolean; amount?: string | undefined },
    withdraw = false,
  ): Promise<LoanDetail> {
    return repay(this.ctx, book, userId, body, withdraw);
  }

  withdraw(book: Book, userId: number, body: { loanId: number; requestId: string }): Promise<LoanDetail> {
    return this.repay(book, userId, { ...body, full: true }, true);
  }

  /** Repayment by a transfer with a proof: the declared amount is held on external clearing until staff decide. */
  repayWithProof(
    book: Book,
    userId: number,
    body: { loanId: number; amount: string; proof: string; txHash: string; address: string },
  ): Promise<LoanRepayment> {
    return repayWithProof(this.ctx, book, userId, body);
  }

  pendingProofs(after: number | null, limit: number): Promise<RepaymentRow[]> {
    return listPendingProofs(this.ctx, after, limit);
  }

  repaymentRow(id: number): Promise<RepaymentRow | null> {
    return repaymentRow(this.ctx, id);
  }

  recordProofDecision(
    tx: Queryable,
    id: number,
    decision: 'approved' | 'rejected',
    reason: string | null,
  ): ReturnType<typeof recordProofDecision> {
    return recordProofDecision(this.ctx, tx, id, decision, reason);
  }

  /** Approved proofs whose money reached the wallet applied to their loan (after each approval and every minute). */
  applyProofs(): Promise<number> {
    return applyProofs(this.ctx);
  }

  // Reads

  loans(book: Book, userId: number, state: LoanState | undefined): Promise<LoanRecord[]> {
    return loans(this.ctx, book, userId, state);
  }

  detail(book: Book, userId: number, id: number): Promise<LoanDetail> {
    return detail(this.ctx, book, userId, id);
  }

  wireLoan(loan: LoanRow, paid: readonly PrincipalPaid[] = []): LoanRecord {
    return wireLoan(this.ctx, loan, paid);
  }

  /** A loan's wire form with what it owes now, its principal repayments read (staff's review of a proof). */
  async wireLoanNow(loan: LoanRow): Promise<LoanRecord> {
    return wireLoan(this.ctx, loan, (await principalPaidOf(this.ctx.db, [loan.id])).get(loan.id) ?? []);
  }

  /** The signed agreement of the owner's loan; anyone else's: nothing. */
  agreementForOwner(userId: number, id: number): Promise<Uint8Array | null> {
    return agreementForOwner(this.ctx, userId, id);
  }

  /** The signed agreement for staff (the route checks the role and audits the view). */
  agreementForStaff(id: number): Promise<{ bytes: Uint8Array; sha256: string } | null> {
    return agreementForStaff(this.ctx, id);
  }

  // Staff

  pool(
    asset: Asset,
    figures?: Map<string, { open: number; overdue: number; lent: bigint }>,
  ): Promise<LoanPool> {
    return pool(this.ctx, asset, figures);
  }

  pools(): Promise<LoanPool[]> {
    return pools(this.ctx);
  }

  adminProducts(): Promise<LoanProductAdmin[]> {
    return adminProducts(this.ctx);
  }

  createProduct(actor: string, body: LoanProductBody): Promise<LoanProductAdmin> {
    return createProduct(this.ctx, actor, body);
  }

  /** A change applies to new applications only: every loan keeps the terms it was signed at. */
  updateProduct(actor: string, body: LoanProductBody & { id: number }): Promise<LoanProductAdmin> {
    return updateProduct(this.ctx, actor, body);
  }

  /** Staff fund an asset's lending pool from the house: a ledger transfer, audited by the ledger with its actor and reason. */
  fundPool(
    actor: string,
    body: { asset: Asset; amount: string; reason: string },
    requestKey: string,
  ): Promise<LoanPool> {
    return fundPool(this.ctx, actor, body, requestKey);
  }

  overdue(): Promise<OverdueLoan[]> {
    return overdue(this.ctx);
  }

  /** The sub-ledger of one asset: each customer's `loan` account equals what their booked loans owe. */
  subLedger(asset: Asset): SubLedger {
    return subLedger(this.ctx, asset);
  }
}
