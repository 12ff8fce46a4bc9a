import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { StaffAuditLog } from './staff.audit.ts';
import { staffRoutes } from './staff.routes.ts';
import { StaffService } from './staff.service.ts';

/** Staff accounts, their sign-in with TOTP and roles, and the audit log as staff read it. */
export const staffModule = defineModule({
  name: 'staff',
  create: (platform, { audit }: { audit: AuditService }) => {
    const staff = new StaffService({
      db: platform.db,
      audit,
      rateLimiter: platform.rateLimiter,
      keys: platform.keys,
    });
    return { staff, staffAuditLog: new StaffAuditLog({ audit, staff }) };
  },
  routes: (server, { staff, staffAuditLog }) => staffRoutes(server, staff, staffAuditLog),
});
