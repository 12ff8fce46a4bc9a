import { adminCalls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { AlertsService } from './alerts.service.ts';

/** The back office's alerts screen: alerts by state, acknowledge, resolve (staff API under /swx/admin). */
export function alertsRoutes(app: FastifyInstance, staff: StaffService, alerts: AlertsService): void {
  mountStaffCall(app, staff, adminCalls.listStaffAlerts, ({ query }) =>
    alerts.list(query.state ?? 'open', query.before ? Number(query.before) : null),
  );
  mountStaffCall(app, staff, adminCalls.acknowledgeStaffAlert, ({ staff: session, params }) =>
    alerts.acknowledge(session, params.id),
  );
  mountStaffCall(app, staff, adminCalls.resolveStaffAlert, ({ staff: session, params, body }) =>
    alerts.resolve(session, params.id, body.note),
  );
}
