import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { FourEyesSettingsService } from './params.fourEyes.ts';
import { paramsRoutes } from './params.routes.ts';
import { ParamsService } from './params.service.ts';

/** Settings staff change at run time, and the four-eyes thresholds. */
export const paramsModule = defineModule({
  name: 'params',
  create: (platform, { audit, staff }: { audit: AuditService; staff: StaffService }) => ({
    params: new ParamsService(platform.db),
    fourEyes: new FourEyesSettingsService({ db: platform.db, audit, staff }),
  }),
  routes: (server, { params, staff, fourEyes }) => paramsRoutes(server, params, staff, fourEyes),
  prepare: async ({ params }, platform) => {
    if (platform.config.seed) await params.seedDefaults();
  },
});
