import {
  ADMIN_API_BASE,
  adminCalls,
  Code,
  CUSTOMER_API_BASE,
  calls,
  kycPhotoParams,
  type kycReviewCalls,
} from '@swx/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mountCall, sendCode } from '../../platform/http.ts';
import type { StoredFile } from '../../platform/storage.ts';
import { mountReview } from '../review/review.routes.ts';
import type { ReviewQueue } from '../review/review.service.ts';
import { requireStaff } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { KycService } from './kyc.service.ts';

/** Three photos of up to 2 MB as base64 (4/3 larger) and the fields: 10 MB is ample. */
const IDENTIFICATION_BODY_LIMIT = 10 * 1024 * 1024;

/** A private image: never cached, never sniffed, shown inline only. */
function sendImage(reply: FastifyReply, file: StoredFile) {
  return reply
    .header('content-type', file.contentType)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', 'inline')
    .send(file.bytes);
}

function photoIdOf(request: FastifyRequest): string | null {
  const parsed = kycPhotoParams.safeParse(request.params);
  return parsed.success ? parsed.data.id : null;
}

export function kycRoutes(
  app: FastifyInstance,
  kyc: KycService,
  staff: StaffService,
  review: ReviewQueue<typeof kycReviewCalls>,
): void {
  // Customer calls.
  mountCall(app, calls.identification, ({ customer, body }) => kyc.submit(customer.userId, body), {
    successCode: Code.SUBMITTED_FOR_REVIEW,
    bodyLimit: IDENTIFICATION_BODY_LIMIT,
  });
  mountCall(app, calls.getIdentification, ({ customer }) => kyc.status(customer.userId));
  mountCall(app, calls.getCreditScore, ({ customer }) => kyc.creditScore(customer.userId));

  /** A photo of my own submission; any other id (someone else's, or none) is "nothing found". */
  app.get(`${CUSTOMER_API_BASE}/user/identificationPhoto/:id`, async (request, reply) => {
    if (!request.customer) return sendCode(reply, request, Code.SESSION_EXPIRED);
    const id = photoIdOf(request);
    const file = id ? await kyc.photoForOwner(request.customer.userId, id) : null;
    if (!file) return sendCode(reply, request, Code.NOT_FOUND);
    return sendImage(reply, file);
  });

  // Staff calls: the review queue (compliance decides; admin may read), from kyc.review.ts.
  mountReview(app, staff, review);
  app.get(`${ADMIN_API_BASE}/kyc/photo/:id`, async (request, reply) => {
    const session = await requireStaff(staff, request, adminCalls.getKyc.roles);
    const id = photoIdOf(request);
    const file = id ? await kyc.photoForStaff(id) : null;
    if (!file) return sendCode(reply, request, Code.NOT_FOUND);
    await staff.record(session, 'kyc.photo_viewed', `kyc_photo:${id}`, { submissionId: file.submissionId });
    return sendImage(reply, file);
  });
}
