import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { HelpService } from './content.help.ts';
import { contentRoutes } from './content.routes.ts';
import { ContentService } from './content.service.ts';

/** Content pages (terms, privacy), and the help centre's FAQ and notices that staff write. */
export const contentModule = defineModule({
  name: 'content',
  create: (
    platform,
    { operator, audit }: { operator: OperatorService; audit: AuditService; staff: StaffService },
  ) => ({
    content: new ContentService(platform.db, operator),
    help: new HelpService(platform.db, audit),
  }),
  routes: (server, { content, help, staff }) => contentRoutes(server, { content, help, staff }),
  prepare: async ({ content }, platform) => {
    if (platform.config.seed) await content.seed();
  },
});
