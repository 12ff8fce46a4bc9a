import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { PositionsService } from './positions.service.ts';

export function positionsRoutes(app: FastifyInstance, trading: PositionsService): void {
  mountCall(app, calls.getTradingTerms, async ({ params }) => trading.terms(params.id));

  // The quote is signed for whoever asked (no session: a quote nobody can commit) in the request's book.
  mountCall(app, calls.previewOptions, async ({ body, customer, request }) =>
    trading.preview(body, { customerId: customer?.userId ?? null, book: request.book }),
  );

  mountCall(app, calls.openPosition, ({ body, customer, request }) =>
    trading.open(customer.userId, request.book, request.language, body),
  );

  // Every read and change of a position is scoped to the request's book (the `virtually` header).
  mountCall(app, calls.closeOptions, ({ body, customer, request }) =>
    trading.close(customer.userId, request.book, body.id),
  );

  mountCall(app, calls.updateOptions, ({ body, customer, request }) =>
    trading.updateStops(
      customer.userId,
      request.book,
      body.id,
      body.stopLoss,
      body.takeProfit,
      body.trailingDistance,
    ),
  );

  mountCall(app, calls.getPosition, ({ params, customer, request }) =>
    trading.get(customer.userId, request.book, params.id),
  );

  mountCall(app, calls.listPositions, ({ query, customer, request }) =>
    trading.list(customer.userId, request.book, query),
  );

  // Pending entry orders: every read and change scoped to the customer and the request's book.
  mountCall(app, calls.previewPendingOrder, async ({ body, customer, request }) =>
    trading.previewPending(body, { customerId: customer.userId, book: request.book }),
  );
  mountCall(app, calls.placePendingOrder, ({ body, customer, request }) =>
    trading.placePending(customer.userId, request.book, request.language, body),
  );
  mountCall(app, calls.editPendingOrder, ({ body, customer, request }) =>
    trading.editPending(customer.userId, request.book, body),
  );
  mountCall(app, calls.cancelPendingOrder, ({ body, customer, request }) =>
    trading.cancelPending(customer.userId, request.book, body.id),
  );
  mountCall(app, calls.getPendingOrder, ({ params, customer, request }) =>
    trading.getPending(customer.userId, request.book, params.id),
  );
  mountCall(app, calls.listPendingOrders, ({ query, customer, request }) =>
    trading.listPending(customer.userId, request.book, query),
  );
}
