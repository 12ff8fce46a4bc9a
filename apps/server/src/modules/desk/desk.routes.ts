import { adminCalls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { DeskCustomers } from './desk.customers.ts';

/** The back office's customers screen: search, one customer's overview and detail, lock and unlock. */
export function deskRoutes(app: FastifyInstance, staff: StaffService, customers: DeskCustomers): void {
  mountStaffCall(app, staff, adminCalls.searchCustomers, ({ staff: session, query }) =>
    customers.search(session, query.q ?? '', query.before ? Number(query.before) : null),
  );
  mountStaffCall(app, staff, adminCalls.customerOverview, ({ staff: session, params }) =>
    customers.overview(session, params.id),
  );
  mountStaffCall(app, staff, adminCalls.getCustomer, ({ staff: session, params }) =>
    customers.view(session, params.id),
  );
  mountStaffCall(app, staff, adminCalls.lockCustomer, ({ staff: session, params, body }) =>
    customers.setLocked(session, params.id, true, body.reason),
  );
  mountStaffCall(app, staff, adminCalls.unlockCustomer, ({ staff: session, params, body }) =>
    customers.setLocked(session, params.id, false, body.reason),
  );
}
