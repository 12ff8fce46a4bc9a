import type { Duplex } from 'node:stream';
import { Code, messageFor } from '@swx/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendCode } from './http.ts';

/** A Host header that is a plain host name or address with an optional port, nothing else. */
const PLAIN_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The websocket origin of the platform: PUBLIC_URL's host when it is set, else the host this
 * request came to (when it is a plain host; anything else adds nothing beyond 'self').
 */
export function websocketOrigin(request: FastifyRequest, publicUrl: string | undefined): string | null {
  if (publicUrl) {
    const url = new URL(publicUrl);
    return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
  }
  if (!PLAIN_HOST.test(request.host)) return null;
  return `${request.protocol === 'https' ? 'wss' : 'ws'}://${request.host.toLowerCase()}`;
}

/**
 * Strict security headers. The apps ship no inline script, so the policy allows scripts from this
 * origin only; styles likewise. `connect-src` is this origin ('self', which CSP3 browsers extend to
 * ws: and wss: of the same host) and the exact websocket origin of the platform for the quote feed
 * — never any other ws: or wss: host.
 */
export function contentSecurityPolicy(wsOrigin: string | null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    wsOrigin ? `connect-src 'self' ${wsOrigin}` : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers every answer carries, the CSP included (also for the framework's own errors). */
export function securityHeaders(wsOrigin: string | null, api: boolean): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(wsOrigin),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy':
      'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    ...(api ? { 'cache-control': 'no-store' } : {}),
  };
}

/**
 * May a browser page of this Origin open a websocket here: the same origin as the request, or
 * PUBLIC_URL's. A request without Origin is not from a browser page (browsers always send it on
 * a websocket handshake, and a page cannot remove it), so it is allowed: native and server
 * clients, and the bench, connect without one; what a foreign page cannot do is ride a visitor's
 * browser into the feed.
 */
export function websocketOriginAllowed(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const own = PLAIN_HOST.test(request.host) ? `${request.protocol}://${request.host}`.toLowerCase() : null;
  const allowed = [own, publicUrl ? new URL(publicUrl).origin : null];
  return allowed.includes(origin.toLowerCase());
}

export function installSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl?: string | undefined } = {},
): void {
  app.addHook('onRequest', async (request, reply) => {
    const upgrade = String(request.headers.upgrade ?? '').toLowerCase() === 'websocket';
    if (upgrade && !websocketOriginAllowed(request, options.publicUrl))
      return sendCode(reply, request, Code.FORBIDDEN);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(
      securityHeaders(websocketOrigin(request, options.publicUrl), request.url.startsWith('/swx/')),
    );
    return payload;
  });
}

/**
 * What the server answers to a request Node's HTTP parser refused (malformed request line or
 * header, headers or URL beyond the size limit): the envelope with 10026 in English (the language
 * header may be what was malformed) and the security headers, on a closing connection. Nothing
 * of the input is echoed.
 */
export function clientErrorResponse(error: { code?: string }): string {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  const body = JSON.stringify({
    code: Code.INVALID_INPUT,
    msg: messageFor(Code.INVALID_INPUT, 'en'),
    data: null,
  });
  const headers = {
    ...securityHeaders(null, true),
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Fastify's clientErrorHandler: the envelope, then the connection ends. */
export function handleClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error));
}
