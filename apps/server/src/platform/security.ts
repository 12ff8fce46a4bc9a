import type { FastifyInstance } from 'fastify';

/**
 * Strict security headers on every answer. The apps ship no inline script, so the policy allows
 * scripts from this origin only; styles likewise. `connect-src` names ws: and wss: of this origin
 * for the quote feed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    reply.header(
      'permissions-policy',
      'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    );
    reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (request.url.startsWith('/swx/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
