import { defineModule } from '../../platform/module.ts';
import { noticesRoutes } from './notices.routes.ts';
import { NoticesService } from './notices.service.ts';

/** The customer's notices (the bell), in the customer's language. */
export const noticesModule = defineModule({
  name: 'notices',
  create: (platform, { clock }) => ({ notices: new NoticesService(platform.db, clock.now) }),
  routes: (server, { notices }) => noticesRoutes(server, notices),
});
