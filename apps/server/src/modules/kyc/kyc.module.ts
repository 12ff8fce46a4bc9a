import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { ReviewService } from '../review/review.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { kycReview } from './kyc.review.ts';
import { kycRoutes } from './kyc.routes.ts';
import { KycService } from './kyc.service.ts';

/** Identity checks (KYC): the customer's submission and the staff review of it. */
export const kycModule = defineModule({
  name: 'kyc',
  create: (
    platform,
    deps: {
      audit: AuditService;
      uploads: UploadsService;
      customers: CustomerDirectory;
      reviews: ReviewService;
      staff: StaffService;
    },
  ) => {
    const kyc = new KycService({
      db: platform.db,
      uploads: deps.uploads,
      audit: deps.audit,
      customers: deps.customers,
      rateLimiter: platform.rateLimiter,
    });
    return { kyc, kycReview: deps.reviews.register(kycReview(kyc, deps.staff)) };
  },
  routes: (server, { kyc, staff, kycReview: queue }) => kycRoutes(server, kyc, staff, queue),
});
