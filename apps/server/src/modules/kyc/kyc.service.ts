import {
  COUNTRIES,
  Code,
  type CreditScore,
  type IdentificationBody,
  type IdentificationStatus,
  KYC_REVIEW_HOURS,
  type KycQueueItem,
  type KycReview,
  type KycState,
  PHOTO_PURPOSES,
  PHOTO_SIDES,
  type StaffRole,
} from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { StoredFile } from '../../platform/storage.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { computeCreditScore, type LoanFactsSource } from './kyc.credit.ts';
import {
  decideSubmission,
  findPhoto,
  findSubmission,
  insertPhotos,
  insertSubmission,
  latestStates,
  latestSubmission,
  pendingSubmissions,
  photosOf,
  type SubmissionRow,
} from './kyc.repository.ts';

const MIN_AGE_YEARS = 18;
/** A customer may try 10 submissions an hour (each upload is limited by the uploads service too). */
export const SUBMIT_LIMIT = { limit: 10, windowMs: 3600_000 };
const MAX_AGE_YEARS = 120;

/** Age in whole years on `today` of someone born on `birthdate` (both YYYY-MM-DD, UTC). */
export function ageOn(birthdate: string, today: Date): number {
  const [y, m, d] = birthdate.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age -= 1;
  return age;
}

function validBirthdate(text: string, today: Date): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) return false;
  const age = ageOn(text, today);
  return age >= MIN_AGE_YEARS && age <= MAX_AGE_YEARS;
}

/**
 * Identity verification (spec §3-§5): a customer uploads three photos through the uploads service
 * (checked by content, re-encoded without metadata, kept in private storage), then submits the
 * fields with the photos' upload ids, which the submission takes in its transaction; staff of
 * the compliance role approve or reject with a reason through the review queue (kyc.review.ts);
 * the customer gets a notice in their language. States: none → pending → verified | failed;
 * failed → pending again.
 */
export class KycService {
  private readonly db: Database;
  private readonly uploads: UploadsService;
  private readonly audit: AuditService;
  private readonly customers: CustomerDirectory;
  private readonly limiter: RateLimiter | undefined;
  private readonly now: () => number;
  private loanFacts: LoanFactsSource | null = null;

  constructor(deps: {
    db: Database;
    uploads: UploadsService;
    audit: AuditService;
    customers: CustomerDirectory;
    rateLimiter?: RateLimiter;
    now?: () => number;
  }) {
    this.db = deps.db;
    this.uploads = deps.uploads;
    this.audit = deps.audit;
    this.customers = deps.customers;
    this.limiter = deps.rateLimiter;
    this.now = deps.now ?? Date.now;
  }

  /** Submit (or, after a failure, resubmit). Pending or verified already: 10019. */
  async submit(userId: number, body: IdentificationBody): Promise<IdentificationStatus> {
    const issues: { path: string; issue: string }[] = [];
    if (!validBirthdate(body.birthdate, new Date(this.now())))
      issues.push({ path: 'birthdate', issue: 'age' });
    if (!COUNTRIES.includes(body.country)) issues.push({ path: 'country', issue: 'unknown' });
    if (issues.length > 0) throw new ApiError(Code.INVALID_INPUT, issues);
    const before = await latestSubmission(this.db, userId);
    if (before && before.status !== 'failed') throw new ApiError(Code.WRONG_AUTHENTICATION_STATUS);
    const verdict = await this.limiter?.hit(
      `kyc:submit:${userId}`,
      SUBMIT_LIMIT.limit,
      SUBMIT_LIMIT.windowMs,
    );
    if (verdict && !verdict.allowed)
      throw new ApiError(Code.TOO_MANY_REQUESTS, {
        retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000),
      });
    try {
      await this.db.transaction(async (tx) => {
        const id = await insertSubmission(tx, {
          userId,
          firstName: body.firstName,
          lastName: body.lastName,
          birthdate: body.birthdate,
          sex: body.sex,
          country: body.country,
          address: body.address,
          phoneCode: body.phoneCode,
          phone: body.phone,
          documentType: body.documentType,
          reviewHours: KYC_REVIEW_HOURS,
        });
        // The caller's own unused photos of each side's purpose; else nothing is written.
        await this.uploads.takeInTx(
          tx,
          userId,
          PHOTO_SIDES.map((side) => ({
            path: `photos.${side}`,
            id: body.photos[side],
            purpose: PHOTO_PURPOSES[side],
          })),
          `kyc:${id}`,
        );
        await insertPhotos(
          tx,
          id,
          PHOTO_SIDES.map((side) => ({ uploadId: body.photos[side], side })),
        );
        await this.audit.appendInTx(tx, [
          {
            actor: `user:${userId}`,
            action: 'kyc.submitted',
            subject: `kyc:${id}`,
            data: { documentType: body.documentType, resubmission: before !== null },
          },
        ]);
      });
    } catch (error) {
      // A second submission raced this one: the partial unique index lets one through.
      if ((error as { code?: string }).code === '23505') throw new ApiError(Code.WRONG_AUTHENTICATION_STATUS);
      throw error;
    }
    return this.status(userId);
  }

  async stateOf(userId: number): Promise<KycState> {
    return (await latestSubmission(this.db, userId))?.status ?? 'none';
  }

  async statesOf(userIds: number[]): Promise<Map<number, KycState>> {
    return userIds.length === 0 ? new Map() : latestStates(this.db, userIds);
  }

  private async detailsOf(s: SubmissionRow) {
    const photos = await photosOf(this.db, s.id);
    return {
      firstName: s.firstName,
      lastName: s.lastName,
      birthdate: s.birthdate,
      sex: s.sex,
      country: s.country,
      address: s.address,
      phoneCode: s.phoneCode,
      phone: s.phone,
      documentType: s.documentType,
      photos: photos.map((p) => ({ id: p.uploadId, side: p.side })),
    };
  }

  async status(userId: number): Promise<IdentificationStatus> {
    const s = await latestSubmission(this.db, userId);
    if (!s)
      return {
        state: 'none',
        canSubmit: true,
        submittedAt: null,
        dueAt: null,
        reviewedAt: null,
        reason: null,
        details: null,
      };
    return {
      state: s.status,
      canSubmit: s.status === 'failed',
      submittedAt: s.submittedAt,
      dueAt: s.dueAt,
      reviewedAt: s.reviewedAt,
      reason: s.reason,
      details: await this.detailsOf(s),
    };
  }

  async creditScore(userId: number): Promise<CreditScore> {
    const [kycState, loans] = await Promise.all([
      this.stateOf(userId),
      this.loanFacts ? this.loanFacts(userId) : Promise.resolve(undefined),
    ]);
    return computeCreditScore({ kycState, ...(loans ? { loans } : {}) });
  }

  /** The loans module installs its facts (loans repaid on time, overdue) once it is built. */
  useLoanFacts(source: LoanFactsSource): void {
    this.loanFacts = source;
  }

  /**
   * A photo of a submission for staff, through the uploads service (which checks that the
   * purpose names the role); the route audits the view with the submission.
   */
  async photoForStaff(
    role: StaffRole,
    uploadId: string,
  ): Promise<(StoredFile & { submissionId: number }) | null> {
    const photo = await findPhoto(this.db, uploadId);
    if (!photo) return null;
    const file = await this.uploads.fileForStaff(role, uploadId);
    return file
      ? { bytes: file.bytes, contentType: file.contentType, submissionId: photo.submissionId }
      : null;
  }

  /** Pending submissions, oldest first (by id), after the id `after`: the review queue's rows. */
  async queue(page: { after?: number | null; limit?: number } = {}): Promise<KycQueueItem[]> {
    const rows = await pendingSubmissions(this.db, page.after ?? null, page.limit ?? 200);
    const names = await this.customers.namesOf(rows.map((r) => r.userId));
    const now = this.now();
    return rows.map((r) => ({
      id: r.id,
      userId: r.userId,
      userName: names.get(r.userId) ?? '',
      name: `${r.firstName} ${r.lastName}`,
      documentType: r.documentType,
      submittedAt: r.submittedAt,
      dueAt: r.dueAt,
      overdue: Date.parse(r.dueAt) < now,
    }));
  }

  private async reviewOf(s: SubmissionRow): Promise<KycReview> {
    const names = await this.customers.namesOf([s.userId]);
    return {
      id: s.id,
      userId: s.userId,
      userName: names.get(s.userId) ?? '',
      status: s.status,
      submittedAt: s.submittedAt,
      dueAt: s.dueAt,
      reviewedAt: s.reviewedAt,
      reviewedBy: s.reviewedBy === null ? null : `staff:${s.reviewedBy}`,
      reason: s.reason,
      details: await this.detailsOf(s),
    };
  }

  /** A customer's latest submission as staff see it, or null when they never submitted. */
  async latestReviewOf(userId: number): Promise<KycReview | null> {
    const s = await latestSubmission(this.db, userId);
    return s ? this.reviewOf(s) : null;
  }

  /** One submission as staff see it, or null. */
  async review(id: number): Promise<KycReview | null> {
    const s = await findSubmission(this.db, id);
    return s ? this.reviewOf(s) : null;
  }

  /**
   * Records the review's decision on a pending submission, in the review's transaction (with its
   * audit row and the customer's notice; see kyc.review.ts). A submission no longer pending is
   * refused (and the database refuses any change to a decided one).
   */
  async recordDecision(
    tx: Queryable,
    id: number,
    decision: { approve: boolean; staffId: number; reason: string | null },
  ): Promise<void> {
    const row = await decideSubmission(tx, id, {
      status: decision.approve ? 'verified' : 'failed',
      staffId: decision.staffId,
      reason: decision.approve ? null : decision.reason,
    });
    if (!row) throw new ApiError(Code.WRONG_AUTHENTICATION_STATUS);
  }
}
