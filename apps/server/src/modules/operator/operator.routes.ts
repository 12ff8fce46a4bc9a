import { adminCalls, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { OperatorService } from './operator.service.ts';

/** The operator identity: public for the customer pages, set by admins under /swx/admin. */
export function operatorRoutes(app: FastifyInstance, operator: OperatorService, staff: StaffService): void {
  mountCall(app, calls.getOperator, () => operator.info());
  mountStaffCall(app, staff, adminCalls.getOperatorSettings, () => operator.record());
  mountStaffCall(app, staff, adminCalls.setOperatorSettings, ({ staff: session, body }) =>
    operator.set(session, body),
  );
}
