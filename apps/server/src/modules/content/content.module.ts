import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { HelpService } from './content.help.ts';
import { contentRoutes } from './content.routes.ts';
import { ContentService } from './content.service.ts';

/** Content pages (terms, privacy) and the help centre's FAQ and notices, written by staff, with their images. */
export const contentModule = defineModule({
  name: 'content',
  create: (
    platform,
    {
      operator,
      audit,
      uploads,
    }: { operator: OperatorService; audit: AuditService; staff: StaffService; uploads: UploadsService },
  ) => {
    const help = new HelpService(platform.db, audit, uploads);
    // An image of an article or page is served to anyone while a published text shows it.
    uploads.servePublicly('content_image', (upload) => help.imageIsPublic(upload));
    return { content: new ContentService(platform.db, operator), help };
  },
  routes: (server, { content, help, staff, uploads }) =>
    contentRoutes(server, { content, help, staff, uploads }),
  prepare: async ({ content }, platform) => {
    if (platform.config.seed) await content.seed();
  },
});
