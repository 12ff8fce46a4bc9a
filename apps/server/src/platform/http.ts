import {
  type Book,
  type CallDefinition,
  Code,
  type CodeValue,
  CUSTOMER_API_BASE,
  httpStatusFor,
  type Language,
  languageFromAcceptLanguage,
  messageFor,
} from '@swx/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod/mini';
import { isDatabaseUnavailable } from './db.ts';

/** Which book a request acts on: the `virtually` header, NO = demo, YES = live, missing = demo (spec §7). */
export type { Book };

/** The customer behind a request's token. The identity module resolves tokens into this. */
export type CustomerSession = { userId: number; userName: string; sessionId: string };

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    book: Book;
    customer: CustomerSession | null;
  }
}

/**
 * An error that names the catalogue code its caller gets (and the envelope's data); null is an
 * internal fault, logged and answered 10030. A module's own errors extend it (the ledger's
 * `LedgerError` maps its reasons in one place), so a refusal that reaches the error handler is
 * answered with its code wherever it was raised.
 */
export class CodedError extends Error {
  readonly apiCode: CodeValue | null;
  readonly apiData: unknown;

  constructor(message: string, apiCode: CodeValue | null, apiData: unknown = null) {
    super(message);
    this.apiCode = apiCode;
    this.apiData = apiData;
  }
}

/** A refusal with a catalogue code; the error handler turns it into the localized envelope. */
export class ApiError extends CodedError {
  readonly code: CodeValue;
  readonly data: unknown;

  constructor(code: CodeValue, data: unknown = null) {
    super(`api error ${code}`, code, data);
    this.code = code;
    this.data = data;
  }
}

export function envelopeOf(code: CodeValue, language: Language, data: unknown) {
  return { code, msg: messageFor(code, language), data };
}

export function sendCode(
  reply: FastifyReply,
  request: FastifyRequest,
  code: CodeValue,
  data: unknown = null,
) {
  return reply.status(httpStatusFor(code)).send(envelopeOf(code, request.language, data));
}

export function bookOf(header: string | string[] | undefined): Book {
  return header === 'YES' ? 'live' : 'demo';
}

/** Resolves a bearer token to a session; the identity module provides it. */
export type SessionResolver = (token: string) => Promise<CustomerSession | null>;

export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  return /^[A-Za-z0-9_-]{16,256}$/.test(token) ? token : null;
}

type Inferred<S> = S extends z.ZodMiniType ? z.infer<S> : undefined;

/** What a call's schemas check in a request, the customer's calls and the staff's alike. */
type CallSchemas = { params?: z.ZodMiniType; query?: z.ZodMiniType; body?: z.ZodMiniType };

/** A request's path parameters, query and body as the call's schemas give them back. */
export type CallParts<D extends CallSchemas> = {
  params: Inferred<D['params']>;
  query: Inferred<D['query']>;
  body: Inferred<D['body']>;
};

export type CallInput<D extends CallDefinition> = CallParts<D> & {
  request: FastifyRequest;
  /** For headers only (a cookie): the answer itself is the handler's return value. */
  reply: FastifyReply;
  customer: D['auth'] extends true ? CustomerSession : CustomerSession | null;
};

/**
 * Control characters: C0 (U+0000 to U+001F, tab and newline included), DEL and C1 (U+0080 to
 * U+009F). No field of the contract is multi-line text (neither app has a text area), so every
 * string input refuses them; a lone surrogate (not well-formed UTF-16) is refused alike.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return LONE_SURROGATE.test(text);
}

/** The first path (keys included) under which an input holds a string with a control character. */
function controlCharacterPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return hasControlCharacters(value) ? path : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = controlCharacterPath(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    // A field's name goes back to the caller only when it is a plain name, never arbitrary text.
    const name = /^[A-Za-z0-9_]{1,64}$/.test(key) ? key : '*';
    const here = path ? `${path}.${name}` : name;
    if (hasControlCharacters(key)) return here;
    const found = controlCharacterPath(item, here, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Checks one part of a request (path parameters, query or body) with its contract schema: any
 * string with a control character anywhere in it (known field or not) is 10026 before the schema
 * is even asked; so is anything the schema refuses. The staff API validates through this too.
 */
export function validateInput(schema: z.ZodMiniType | undefined, value: unknown): unknown {
  const bad = controlCharacterPath(value, '');
  // The path is the field's name only: the value itself is never echoed.
  if (bad !== null) throw new ApiError(Code.INVALID_INPUT, [{ path: bad, issue: 'control_character' }]);
  if (!schema) return undefined;
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new ApiError(
      Code.INVALID_INPUT,
      parsed.error.issues.slice(0, 20).map((issue) => ({ path: issue.path.join('.'), issue: issue.code })),
    );
  }
  return parsed.data;
}

/** Checks a request's path parameters, query and body with its call's schemas (`validateInput`). */
export function validateParts<D extends CallSchemas>(definition: D, request: FastifyRequest): CallParts<D> {
  return {
    params: validateInput(definition.params, request.params),
    query: validateInput(definition.query, request.query),
    body: validateInput(definition.body, request.body),
  } as CallParts<D>;
}

/**
 * Mounts one call of the contract: validates path, query and body with its zod schemas, checks
 * the session when the call needs one, and answers with the envelope, its data shaped by the
 * contract's output schema (so a database row never leaks a field the contract does not name).
 */
export function mountCall<D extends CallDefinition>(
  app: FastifyInstance,
  definition: D,
  handler: (input: CallInput<D>) => Promise<z.infer<D['data']>>,
  /** bodyLimit: bytes, for the few calls that carry more than the app's 1 MB (uploads). */
  options: { successCode?: CodeValue; bodyLimit?: number } = {},
): void {
  if (definition.status !== 'live') throw new Error(`call ${definition.path} is not live in the contract`);
  app.route({
    method: definition.method,
    url: CUSTOMER_API_BASE + definition.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (request, reply) => {
      if (definition.auth && !request.customer) return sendCode(reply, request, Code.SESSION_EXPIRED);
      const input = {
        ...validateParts(definition, request),
        request,
        reply,
        customer: request.customer,
      } as CallInput<D>;
      const data = definition.data.parse(await handler(input));
      return reply.send(envelopeOf(options.successCode ?? Code.OK, request.language, data));
    },
  });
}

/** The request headers the server reads (language, book, token, cookies, device, origin, proxy). */
const READ_HEADERS = [
  'accept-language',
  'virtually',
  'authorization',
  'cookie',
  'user-agent',
  'origin',
  'host',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
] as const;

/** Request decoration, session resolution and the error envelope for every /swx call. */
export function installApiConventions(app: FastifyInstance, resolveSession: SessionResolver): void {
  app.decorateRequest('language', 'en');
  app.decorateRequest('book', 'demo');
  app.decorateRequest('customer', null);
  app.addHook('onRequest', async (request) => {
    request.language = languageFromAcceptLanguage(request.headers['accept-language']);
    // The headers the app reads: a control character in any of them is bad input (10026).
    for (const name of READ_HEADERS) {
      const value = request.headers[name];
      const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
      if (values.some(hasControlCharacters))
        throw new ApiError(Code.INVALID_INPUT, [{ path: `header.${name}`, issue: 'control_character' }]);
    }
    request.book = bookOf(request.headers.virtually);
    const token = tokenOf(request);
    request.customer = token ? await resolveSession(token) : null;
  });
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof CodedError && error.apiCode !== null)
      return sendCode(reply, request, error.apiCode, error.apiData);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 429) return sendCode(reply, request, Code.TOO_MANY_REQUESTS);
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendCode(reply, request, Code.SERVICE_UNAVAILABLE);
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, oversized body: bad input, never a 500.
      return sendCode(reply, request, Code.INVALID_INPUT, {
        reason: (error as { code?: string }).code ?? 'bad_request',
      });
    }
    request.log.error({ err: error }, 'request failed');
    return sendCode(reply, request, Code.UNKNOWN_ERROR);
  });
}
