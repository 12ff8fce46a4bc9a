import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { operatorRoutes } from './operator.routes.ts';
import { OperatorService } from './operator.service.ts';

/** Who operates the platform (name, licence, addresses), as customers read it and admins set it. */
export const operatorModule = defineModule({
  name: 'operator',
  create: (platform, { audit }: { audit: AuditService; staff: StaffService }) => ({
    operator: new OperatorService({ db: platform.db, audit, production: platform.config.production }),
  }),
  routes: (server, { operator, staff }) => operatorRoutes(server, operator, staff),
});
