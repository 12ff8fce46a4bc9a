import { defineModule } from '../../platform/module.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { uploadsRoutes } from './uploads.routes.ts';
import { UploadsService } from './uploads.service.ts';

/** Customers' files (photos, proofs), checked by content and served only to their owner and staff. */
export const uploadsModule = defineModule({
  name: 'uploads',
  create: (platform, _needs: { staff: StaffService }) => ({
    uploads: new UploadsService({
      db: platform.db,
      storage: platform.storage,
      rateLimiter: platform.rateLimiter,
    }),
  }),
  routes: (server, { uploads, staff }) => uploadsRoutes(server, uploads, staff),
});
