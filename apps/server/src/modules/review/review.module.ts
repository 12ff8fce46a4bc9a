import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { ReviewService } from './review.service.ts';

/** The staff review queues: each kind registers itself (review.define.ts) with this service. */
export const reviewModule = defineModule({
  name: 'review',
  create: (
    platform,
    deps: {
      audit: AuditService;
      notices: NoticesService;
      staff: StaffService;
      customers: CustomerDirectory;
      ledger: LedgerService;
    },
  ) => ({
    reviews: new ReviewService({
      db: platform.db,
      audit: deps.audit,
      notices: deps.notices,
      staff: deps.staff,
      customers: deps.customers,
      ledger: deps.ledger,
    }),
  }),
});
