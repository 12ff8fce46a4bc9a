import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { PriceAlertsService } from './pricealerts.service.ts';

export function priceAlertsRoutes(app: FastifyInstance, alerts: PriceAlertsService): void {
  mountCall(app, calls.createPriceAlert, ({ customer, body }) => alerts.create(customer.userId, body));
  mountCall(app, calls.listPriceAlerts, ({ customer }) => alerts.list(customer.userId));
  mountCall(app, calls.cancelPriceAlert, ({ customer, body }) => alerts.cancel(customer.userId, body.id));
  mountCall(app, calls.getPushKey, async () => alerts.pushKey());
  mountCall(app, calls.subscribePush, ({ customer, body }) => alerts.subscribePush(customer.userId, body));
  mountCall(app, calls.unsubscribePush, ({ customer, body }) =>
    alerts.unsubscribePush(customer.userId, body.endpoint),
  );
}
