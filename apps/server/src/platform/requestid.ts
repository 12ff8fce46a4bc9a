import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** What an incoming request id may be: 1 to 128 letters, digits and `._:-` (a UUID, a trace id). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id (Fastify's genReqId): the `x-request-id` a load balancer or another node sent,
 * when it is a safe one, so one request reads the same in every node's logs; else a new UUID.
 * Anything else in the header (too long, other characters, several values) is not used.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Every answer names its request's id (`x-request-id`); the logs carry it as `reqId`. */
export function installRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
