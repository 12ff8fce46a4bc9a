import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { seedOf } from './feed.ts';
import type { MarketService } from './market.service.ts';
import { itemToWire } from './market.wire.ts';
import { type QuoteHub, readSubscription } from './quote-hub.ts';

/** A logo drawn here: a monogram in a colour of the code's own, no external image. */
function logoSvg(code: string, base: string): string {
  const hue = seedOf(code) % 360;
  const letters = base.slice(0, 3).replace(/[^A-Z0-9]/g, '');
  const size = letters.length > 2 ? 13 : 16;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" role="img" aria-label="${letters}"><circle cx="20" cy="20" r="20" fill="hsl(${hue} 60% 34%)"/><text x="20" y="25" font-family="system-ui,sans-serif" font-size="${size}" font-weight="700" fill="#fff" text-anchor="middle">${letters}</text></svg>`;
}

export function marketRoutes(app: FastifyInstance, market: MarketService, hub: QuoteHub): void {
  mountCall(app, calls.listMarketByType, async ({ query, request }) => {
    const items = market.listByType(query.type, request.language);
    return (query.limit === undefined ? items : items.slice(0, query.limit)).map(itemToWire);
  });
  mountCall(app, calls.getMarketInfo, async ({ params, request }) =>
    itemToWire(market.info(params.id, request.language)),
  );
  mountCall(app, calls.getKValueByCodeAndDate, async ({ query }) => ({
    code: query.code,
    period: query.period,
    candles: market.candles(query.code, query.period, query.date, query.limit ?? 300),
  }));
  mountCall(app, calls.listWatchlist, async ({ customer, request }) =>
    (await market.watchlist(customer.userId, request.language)).map(itemToWire),
  );
  mountCall(app, calls.addWatchlist, async ({ customer, body }) => {
    await market.watch(customer.userId, body.id);
    return null;
  });
  mountCall(app, calls.removeWatchlist, async ({ customer, body }) => {
    await market.unwatch(customer.userId, body.id);
    return null;
  });

  app.get<{ Params: { file: string } }>('/logos/:file', async (request, reply) => {
    const code = /^([A-Z0-9]{2,16})\.svg$/.exec(request.params.file)?.[1];
    const instrument = code ? market.instrument(code) : undefined;
    if (!code || !instrument) return reply.status(404).type('text/plain').send('no such logo');
    const base =
      instrument.class === 'crypto'
        ? code.replace(/USDT$/, '')
        : instrument.class === 'forex' || instrument.class === 'metals'
          ? code.slice(0, 3)
          : code;
    reply.header('cache-control', 'public, max-age=86400');
    return reply.type('image/svg+xml').send(logoSvg(code, base));
  });

  // The /message websocket (spec §7): the server pushes JSON arrays of quotes. A client that sends
  // nothing gets the whole list; one that sends a subscription ({codes, types}) gets only those.
  // Anything else it sends is ignored.
  app.get('/message', { websocket: true }, (socket) => {
    hub.add(socket);
    socket.on('message', (data: Buffer, binary: boolean) => {
      if (binary) return;
      const selection = readSubscription(data.toString());
      if (selection !== undefined) hub.select(socket, selection);
    });
  });
}
