import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoanProductBody } from '@swx/contract';
import { jpegWithGps, pngImage } from '../../../../tests/support/images.ts';
import { CustomerDirectory } from '../modules/identity/identity.customers.ts';
import { kycReview } from '../modules/kyc/kyc.review.ts';
import { KycService } from '../modules/kyc/kyc.service.ts';
import { loanApplicationReview, loanProofReview } from '../modules/loans/loans.review.ts';
import { LoansService } from '../modules/loans/loans.service.ts';
import { OperatorService } from '../modules/operator/operator.service.ts';
import { ParamsService } from '../modules/params/params.service.ts';
import { SettlementRunner } from '../modules/products/settlement.ts';
import { type ReviewQueue, ReviewService } from '../modules/review/review.service.ts';
import { UploadsService } from '../modules/uploads/uploads.service.ts';
import { KeyRing } from '../platform/keys.ts';
import { createMailer, type MailMessage } from '../platform/mail.ts';
import { FileStorage } from '../platform/storage.ts';
import { recording, type TestContext } from './context.ts';

/**
 * The loans module on real services, as app.ts builds it, on the context's clock: uploads, KYC
 * (with its compliance review), the two loan reviews, the settlement runner. `verify(userId)`
 * takes a customer through identity verification as they would (photos, submission, a
 * compliance officer's approval).
 */
export async function testLoans(ctx: TestContext, options: { platformAddress?: string } = {}) {
  const storage = new FileStorage(mkdtempSync(join(tmpdir(), 'swx-loans-')));
  const uploads = new UploadsService({ db: ctx.db, storage });
  const customers = new CustomerDirectory(ctx.db);
  const kyc = new KycService({ db: ctx.db, uploads, audit: ctx.audit, customers, now: ctx.now });
  const params = new ParamsService(ctx.db);
  const operator = new OperatorService({ db: ctx.db, audit: ctx.audit, production: false });
  // Mail goes to an outbox folder, and is recorded for the test to read.
  const mailed: MailMessage[] = [];
  const mailer = recording(
    createMailer({
      from: 'SWX tests <tests@swx.test>',
      dataDir: mkdtempSync(join(tmpdir(), 'swx-loans-mail-')),
    }),
    mailed,
  );
  const loans = new LoansService({
    db: ctx.db,
    ledger: ctx.ledger,
    audit: ctx.audit,
    notices: ctx.notices,
    kyc,
    operator,
    uploads,
    storage,
    params,
    quoteKeys: new KeyRing(Buffer.alloc(32, 7)).purpose('quotes'),
    now: ctx.now,
    mail: { mailer, customers },
    platformAddress: options.platformAddress ?? null,
  });
  kyc.useLoanFacts((userId) => loans.creditFacts(userId));
  const reviews = new ReviewService({
    db: ctx.db,
    audit: ctx.audit,
    notices: ctx.notices,
    staff: ctx.staff,
    customers,
    ledger: ctx.ledger,
    now: ctx.now,
  });
  const kycQueue = reviews.register(kycReview(kyc, ctx.staff));
  const applications = reviews.register(loanApplicationReview(loans, ctx.ledger, kyc, params));
  const proofs = reviews.register(loanProofReview(loans, ctx.ledger, params));
  const runner = new SettlementRunner({ db: ctx.db, ledger: ctx.ledger, audit: ctx.audit, now: ctx.now });
  const compliance = await ctx.staffMember('compliance');
  const images = {
    front: await jpegWithGps(),
    back: await pngImage(),
    signature: await pngImage(300, 120, 5),
  };
  const verify = (userId: number, name?: { firstName: string; lastName: string }) =>
    verifyIdentity({ kyc, uploads, kycQueue, compliance, images }, userId, name);

  /** A signature drawn on the screen, as the web app uploads it (purpose loan_signature). */
  async function signature(userId: number): Promise<string> {
    return (await uploads.store(userId, 'loan_signature', async () => images.signature)).id;
  }

  return { loans, kyc, operator, uploads, params, applications, proofs, runner, verify, signature, mailed };
}

/**
 * A customer taken through identity verification as they would be: photos uploaded, the form
 * submitted, a compliance officer's claim and approval on the KYC queue.
 */
async function verifyIdentity(
  parts: {
    kyc: KycService;
    uploads: UploadsService;
    kycQueue: ReviewQueue<ReturnType<typeof kycReview>['calls']>;
    compliance: { id: number };
    images: { front: Buffer; back: Buffer };
  },
  userId: number,
  name = { firstName: 'Ada', lastName: 'Lovelace' },
): Promise<void> {
  const { kyc, uploads, kycQueue, compliance, images } = parts;
  const id = async (purpose: 'kyc_front' | 'kyc_back' | 'kyc_in_hand', bytes: Buffer) =>
    (await uploads.store(userId, purpose, async () => bytes)).id;
  await kyc.submit(userId, {
    ...name,
    birthdate: '1990-12-10',
    sex: 'female',
    country: 'GB',
    address: '12 St James Square, London',
    phoneCode: '+44',
    phone: '2079460000',
    documentType: 'passport',
    photos: {
      front: await id('kyc_front', images.front),
      back: await id('kyc_back', images.back),
      inHand: await id('kyc_in_hand', images.front),
    },
  });
  const queued = (await kyc.queue()).find((q) => q.userId === userId);
  if (!queued) throw new Error(`no KYC submission of ${userId}`);
  await kycQueue.claim({ staffId: compliance.id }, queued.id);
  await kycQueue.approve({ staffId: compliance.id }, queued.id);
}

/** A product body with the tests' defaults: USDT 100 to 10,000, 30 or 60 days, 0.05 % a day, 7 days free, late 0.1 % a day capped at 5 %. */
export function loanProductBody(overrides: Partial<LoanProductBody> = {}): LoanProductBody {
  return {
    name: 'Test loan',
    asset: 'USDT',
    minAmount: '100',
    maxAmount: '10000',
    terms: [30, 60],
    dailyRate: '0.0005',
    interestFreeDays: 7,
    lateDailyRate: '0.001',
    lateCapRate: '0.05',
    enabled: true,
    ...overrides,
  };
}
