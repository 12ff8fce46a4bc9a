import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { CustomerDirectory } from './identity.customers.ts';
import { identityRoutes } from './identity.routes.ts';
import { IdentityService } from './identity.service.ts';
import { sessionCacheOf } from './identity.session-cache.ts';

/** Customers: registration, sign-in, sessions, two-step, social sign-in, the customer directory. */
export const identityModule = defineModule({
  name: 'identity',
  create: (platform, deps: { audit: AuditService; ledger: LedgerService; notices: NoticesService }) => {
    // Sessions ended on another node are forgotten by this node's session cache too.
    sessionCacheOf(platform.db).connect(platform.bus);
    const identity = new IdentityService({
      db: platform.db,
      mailer: platform.mailer,
      sms: platform.sms,
      rateLimiter: platform.rateLimiter,
      ledger: deps.ledger,
      notices: deps.notices,
      audit: deps.audit,
      keys: platform.keys,
      social: { providers: platform.config.socialProviders, publicUrl: platform.config.publicUrl },
      logger: platform.logger,
    });
    return { identity, customers: new CustomerDirectory(platform.db) };
  },
  routes: (server, { identity }) => identityRoutes(server, identity),
});
