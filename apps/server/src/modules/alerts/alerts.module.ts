import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { staffAlertsJob } from './alerts.jobs.ts';
import { alertsRoutes } from './alerts.routes.ts';
import { AlertsService } from './alerts.service.ts';

/** Staff alerts: a failed job, an empty reserve; mailed to the roles that act on them. */
export const alertsModule = defineModule({
  name: 'alerts',
  create: (platform, { audit, staff }: { audit: AuditService; staff: StaffService }) => ({
    alerts: new AlertsService({
      db: platform.db,
      audit,
      staff,
      mailer: platform.mailer,
      adminUrl: platform.config.publicUrl
        ? `${platform.config.publicUrl.replace(/\/+$/, '')}/admin`
        : undefined,
      logger: platform.logger,
    }),
  }),
  routes: (server, { staff, alerts }) => alertsRoutes(server, staff, alerts),
  jobs: ({ alerts }, _platform, runner) => {
    // A failed run raises a staff alert (one per job while unresolved), mailed to the admins.
    runner.onFailure((failure) => alerts.jobFailed(failure));
    return [staffAlertsJob(alerts, runner)];
  },
});
