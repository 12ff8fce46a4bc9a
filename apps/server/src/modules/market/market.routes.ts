import type { FastifyInstance } from 'fastify';
import type { QuoteHub } from './quote-hub.ts';

/** The /message websocket (spec §7): the server pushes JSON arrays of quotes; clients send nothing. */
export function marketRoutes(app: FastifyInstance, hub: QuoteHub): void {
  app.get('/message', { websocket: true }, (socket) => {
    hub.add(socket);
    // Clients have nothing to say; a message from one is ignored, not echoed or buffered.
    socket.on('message', () => undefined);
  });
}
