import { defineModule } from '../../platform/module.ts';
import { AuditService } from './audit.service.ts';

/** The audit log: every staff and money action, hash-chained. */
export const auditModule = defineModule({
  name: 'audit',
  create: (platform) => ({ audit: new AuditService(platform.db) }),
});
