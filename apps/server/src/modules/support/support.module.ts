import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { SupportHub } from './support.hub.ts';
import { supportRoutes } from './support.routes.ts';
import { SupportService } from './support.service.ts';
import { SupportDesk } from './support.staff.ts';

type Needs = {
  audit: AuditService;
  identity: IdentityService;
  customers: CustomerDirectory;
  staff: StaffService;
  uploads: UploadsService;
};

/** The customer-service chat: conversations, the agents' inbox, the `/support/ws` websocket. */
export const supportModule = defineModule({
  name: 'support',
  create: (platform, { audit, identity, customers, staff, uploads }: Needs) => {
    const support = new SupportService({
      db: platform.db,
      bus: platform.bus,
      mailer: platform.mailer,
      limiter: platform.rateLimiter,
      customers,
      staff,
      uploads,
      publicUrl: platform.config.publicUrl,
      logger: platform.logger,
    });
    const desk = new SupportDesk(support, staff, audit);
    const supportHub = new SupportHub({
      support,
      desk,
      resolveCustomer: identity.resolveSession,
      resolveStaff: (token) => staff.resolveSession(token),
    });
    return { support, supportDesk: desk, supportHub };
  },
  routes: (server, { support, supportDesk, supportHub, staff }) =>
    supportRoutes(server, { support, desk: supportDesk, hub: supportHub, staff }),
  start: ({ supportHub }) => supportHub.start(),
  stop: ({ supportHub }) => supportHub.stop(),
});
