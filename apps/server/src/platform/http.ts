import {
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

/** Which book a request acts on: the `virtually` header, NO = demo, YES = live, missing = demo (spec §7). */
export type Book = 'demo' | 'live';

/** The customer behind a request's token. The identity module resolves tokens into this. */
export type CustomerSession = { userId: number; userName: string; sessionId: string };

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    book: Book;
    customer: CustomerSession | null;
  }
}

/** A refusal with a catalogue code; the error handler turns it into the localized envelope. */
export class ApiError extends Error {
  readonly code: CodeValue;
  readonly data: unknown;

  constructor(code: CodeValue, data: unknown = null) {
    super(`api error ${code}`);
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

export type CallInput<D extends CallDefinition> = {
  params: Inferred<D['params']>;
  query: Inferred<D['query']>;
  body: Inferred<D['body']>;
  request: FastifyRequest;
  /** For headers only (a cookie): the answer itself is the handler's return value. */
  reply: FastifyReply;
  customer: D['auth'] extends true ? CustomerSession : CustomerSession | null;
};

function validate(schema: z.ZodMiniType | undefined, value: unknown): unknown {
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
        params: validate(definition.params, request.params),
        query: validate(definition.query, request.query),
        body: validate(definition.body, request.body),
        request,
        reply,
        customer: request.customer,
      } as CallInput<D>;
      const data = definition.data.parse(await handler(input));
      return reply.send(envelopeOf(options.successCode ?? Code.OK, request.language, data));
    },
  });
}

/** Request decoration, session resolution and the error envelope for every /swx call. */
export function installApiConventions(app: FastifyInstance, resolveSession: SessionResolver): void {
  app.decorateRequest('language', 'en');
  app.decorateRequest('book', 'demo');
  app.decorateRequest('customer', null);
  app.addHook('onRequest', async (request) => {
    request.language = languageFromAcceptLanguage(request.headers['accept-language']);
    request.book = bookOf(request.headers.virtually);
    const token = tokenOf(request);
    request.customer = token ? await resolveSession(token) : null;
  });
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) return sendCode(reply, request, error.code, error.data);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 429) return sendCode(reply, request, Code.TOO_MANY_REQUESTS);
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
