import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { TradingService } from './trading.service.ts';

export function tradingRoutes(app: FastifyInstance, trading: TradingService): void {
  mountCall(app, calls.getTradingTerms, async ({ params }) => trading.terms(params.id));

  mountCall(app, calls.previewOptions, async ({ body }) => trading.preview(body));

  mountCall(app, calls.buyOptions, ({ body, customer, request }) =>
    trading.open(customer.userId, request.book, request.language, body),
  );

  mountCall(app, calls.closeOptions, ({ body, customer }) => trading.close(customer.userId, body.id));

  mountCall(app, calls.updateOptions, ({ body, customer }) =>
    trading.updateStops(customer.userId, body.id, body.stopLoss, body.takeProfit),
  );

  mountCall(app, calls.getOptionsOrderById, ({ params, customer }) =>
    trading.get(customer.userId, params.id),
  );

  mountCall(app, calls.listOptionsOrder, ({ query, customer, request }) =>
    trading.list(customer.userId, request.book, query),
  );
}
