import { ADMIN_API_BASE, adminCalls, Code, calls, kycPhotoParams, type kycReviewCalls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall, sendCode } from '../../platform/http.ts';
import { mountReview } from '../review/review.routes.ts';
import type { ReviewQueue } from '../review/review.service.ts';
import { requireStaff } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { sendPrivateFile } from '../uploads/uploads.routes.ts';
import type { KycService } from './kyc.service.ts';

export function kycRoutes(
  app: FastifyInstance,
  kyc: KycService,
  staff: StaffService,
  review: ReviewQueue<typeof kycReviewCalls>,
): void {
  // Customer calls. The photos are uploads (the uploads module); their owner reads them back at
  // the guarded file route /swx/files/:id.
  mountCall(app, calls.identification, ({ customer, body }) => kyc.submit(customer.userId, body), {
    successCode: Code.SUBMITTED_FOR_REVIEW,
  });
  mountCall(app, calls.getIdentification, ({ customer }) => kyc.status(customer.userId));
  mountCall(app, calls.getCreditScore, ({ customer }) => kyc.creditScore(customer.userId));

  // Staff calls: the review queue (compliance decides; admin may read), from kyc.review.ts.
  mountReview(app, staff, review);
  // A photo of a submission for the review screen: the uploads service serves it (roles per
  // purpose); the view is audited with its submission.
  app.get(`${ADMIN_API_BASE}/kyc/photo/:id`, async (request, reply) => {
    const session = await requireStaff(staff, request, adminCalls.getKyc.roles);
    const parsed = kycPhotoParams.safeParse(request.params);
    const id = parsed.success ? parsed.data.id : null;
    const file = id ? await kyc.photoForStaff(session.role, id) : null;
    if (!file) return sendCode(reply, request, Code.NOT_FOUND);
    await staff.record(session, 'kyc.photo_viewed', `kyc_photo:${id}`, { submissionId: file.submissionId });
    return sendPrivateFile(reply, file);
  });
}
