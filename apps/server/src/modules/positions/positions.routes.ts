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
}
