import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

/**
 * Personal data and secrets a log line could pick up from an error's text (a mail server echoing
 * the recipient, a database quoting a value): email addresses, phone numbers (8 to 15 digits,
 * with or without +), hex digests (code and token hashes) and long base64url strings (tokens).
 */
const SCRUB: readonly [RegExp, string][] = [
  [/[^\s@<>"'`(),;:[\]]+@[^\s@<>"'`(),;:[\]]+\.[A-Za-z]{2,}/g, '[email]'],
  [/\b[a-f0-9]{32,}\b/gi, '[hash]'],
  [/[A-Za-z0-9_-]{40,}/g, '[token]'],
  [/(?<![\w.])\+?\d{8,15}(?![\w.])/g, '[number]'],
];

export function scrub(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SCRUB) out = out.replace(pattern, replacement);
  return out;
}

/**
 * An error as a log line holds it: its class, code, message and stack, scrubbed. Nothing else of
 * it: a mail error's envelope and recipients, a database error's detail, parameters and query,
 * an HTTP client's request — all may carry a customer's data.
 */
export function errorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: scrub(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.constructor.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: scrub(String(code)) } : {}),
    message: scrub(error.message),
    ...(error.stack ? { stack: scrub(error.stack) } : {}),
  };
}

/** A request as a log line holds it: method, path without the query string, id. No headers, no body. */
function requestForLog(request: { method?: string; url?: string; id?: unknown }): Record<string, unknown> {
  return {
    method: request.method,
    url: scrub(String(request.url ?? '').split('?')[0] ?? ''),
    id: request.id,
  };
}

/** Strings of a log line's own fields, scrubbed (an error or request is shaped by its serializer). */
function scrubFields(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object' || depth > 6 || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => scrubFields(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubFields(v, depth + 1)]));
}

/**
 * JSON logs on stdout. Authorization headers, cookies, bodies, passwords, tokens, emails, phone
 * numbers and code hashes never reach a log line: errors and requests go through serializers that
 * keep only what an operator needs, and every text is scrubbed of what looks like personal data.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'nodeId'>): Logger {
  return pino({
    level: config.logLevel,
    base: { node: config.nodeId },
    serializers: { err: errorForLog, error: errorForLog, req: requestForLog },
    formatters: { log: (object) => scrubFields(object) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        // The message text, and any interpolation arguments after it.
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as typeof args;
        method.apply(this, scrubbed);
      },
    },
    redact: {
      paths: [
        'req.headers',
        'req.body',
        'body',
        'headers',
        '*.headers.authorization',
        '*.headers.cookie',
        '*.password',
        '*.token',
        '*.email',
        '*.phone',
        '*.codeHash',
        '*.code_hash',
        '*.tokenHash',
        '*.token_hash',
      ],
      censor: '[redacted]',
    },
  });
}
