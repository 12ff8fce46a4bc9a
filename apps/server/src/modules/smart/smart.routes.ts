import { adminCalls, Code, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { SmartService } from './smart.service.ts';

export function smartRoutes(app: FastifyInstance, smart: SmartService, staff: StaffService): void {
  // Products are public (strategy, backtest, live record); plans are the customer's, live book only.
  mountCall(app, calls.smartProducts, () => smart.products());
  mountCall(app, calls.smartProduct, ({ params }) => smart.product(params.id));
  mountCall(app, calls.smartQuote, ({ customer, body, request }) =>
    smart.quote(request.book, customer.userId, body),
  );
  mountCall(
    app,
    calls.buySmart,
    ({ customer, body, request }) => smart.buy(request.book, customer.userId, request.language, body),
    { successCode: Code.PURCHASE_SUCCESSFUL },
  );
  mountCall(app, calls.listSmartOrder, ({ customer, query, request }) =>
    smart.list(request.book, customer.userId, query.state),
  );
  mountCall(app, calls.smartPlan, ({ customer, params, request }) =>
    smart.plan(request.book, customer.userId, params.id),
  );
  mountCall(
    app,
    calls.stopSmart,
    ({ customer, body, request }) => smart.stop(request.book, customer.userId, body.planId),
    { successCode: Code.OPERATION_SUCCESSFUL },
  );

  // Staff calls: products (changes audited with them) and the plan monitor.
  mountStaffCall(app, staff, adminCalls.listSmartProducts, async ({ staff: session }) => {
    await staff.record(session, 'smart.products.viewed', 'smart', {});
    return smart.adminProducts();
  });
  mountStaffCall(app, staff, adminCalls.createSmartProduct, ({ staff: session, body }) =>
    smart.createProduct(`staff:${session.staffId}`, body),
  );
  mountStaffCall(app, staff, adminCalls.updateSmartProduct, ({ staff: session, body }) =>
    smart.updateProduct(`staff:${session.staffId}`, body),
  );
  mountStaffCall(app, staff, adminCalls.smartPlanMonitor, async ({ staff: session, query }) => {
    await staff.record(session, 'smart.plans.viewed', 'smart', query);
    return smart.monitor(query);
  });
}
