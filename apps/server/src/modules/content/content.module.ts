import { defineModule } from '../../platform/module.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import { contentRoutes } from './content.routes.ts';
import { ContentService } from './content.service.ts';

/** Content pages (terms, privacy, help articles) in every language. */
export const contentModule = defineModule({
  name: 'content',
  create: (platform, { operator }: { operator: OperatorService }) => ({
    content: new ContentService(platform.db, operator),
  }),
  routes: (server, { content }) => contentRoutes(server, content),
  prepare: async ({ content }, platform) => {
    if (platform.config.seed) await content.seed();
  },
});
