import type { z } from 'zod/mini';
import { Code, isSuccessCode } from './codes.ts';

/**
 * The one API client of both front ends (the customer app under `/swx/customer`, the back office
 * under `/swx/admin`): calls by contract name, fills the path, sends the app's headers (token,
 * language, book), parses the envelope and the call's data with the contract's schema. Each app
 * makes one with its base path, its calls, where its token and language come from, and what a
 * 401 means to it.
 */

/** A refusal or failure of a call, with the text to show; `data` is the envelope's (10026: the field issues). */
export class ApiFailure extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data: unknown = null) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** What the client needs of a call: the customer calls and the staff calls both fit. */
export type ClientCall = { method: 'GET' | 'POST'; path: string; data: z.ZodMiniType };

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;
export type Query = Record<string, QueryValue>;

export type CallInput = { params?: Record<string, string | number>; query?: Query; body?: unknown };

/** The request timeout of spec §7/§9. */
export const REQUEST_TIMEOUT_MS = 90_000;

/** Codes of a call that never reached an answer: no network (-1), or no answer in time (-2). */
export const NETWORK_FAILURE = -1;
export const TIMED_OUT = -2;

/** GET parameters with arrays as repeated keys (spec §7): `?id=1&id=2`. */
export function toQueryString(query: Query): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** `/user/:id` with `{id: 7}` → `/user/7` (each value URL-encoded). */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

/**
 * Calls whose schemas load when first needed: each call's method and path at once, its
 * definition (schemas included) from `load`, which the client starts as it sends the request.
 */
export type LazyCalls<C extends Record<string, ClientCall>> = {
  routes: {
    readonly [N in keyof C]: readonly [method: ClientCall['method'], path: string, ...rest: unknown[]];
  };
  load<N extends keyof C & string>(name: N): Promise<C[N]>;
};

export type ClientOptions<C extends Record<string, ClientCall>> = {
  /** `/swx/customer` or `/swx/admin`. */
  base: string;
  /** The calls, or their routes and a loader of their definitions. */
  calls: C | LazyCalls<C>;
  /** The headers of every request (language, token, book), read at each request. */
  headers: () => Record<string, string>;
  /**
   * A GET already sent with this URL and these headers (the customer app's page sends its first
   * screen's call before the app runs): its answer, used once instead of sending the GET again.
   */
  sent?: (url: string, headers: Record<string, string>) => Promise<Response> | undefined;
  /** A 401 answer (HTTP or envelope) to a call (its name) or to a file (`null`): end the session. */
  onSessionExpired: (call: keyof C | null) => void;
  /** Texts of failures the server did not word. Empty strings leave the wording to the screen. */
  text: {
    network: () => string;
    error: () => string;
    /** The text of a 401; without it, the server's message. */
    sessionExpired?: () => string;
  };
};

/** The envelope as it arrived (any of it may be missing on a broken answer). */
export type RawEnvelope = { code?: unknown; msg?: unknown; data?: unknown };

export type ApiClient<C extends Record<string, ClientCall>> = {
  call<N extends keyof C & string>(name: N, input?: CallInput): Promise<z.infer<C[N]['data']>>;
  /** A call by its definition (generic screens that are handed a call, e.g. a review kind's). */
  callDefinition<D extends ClientCall>(definition: D, input?: CallInput): Promise<z.infer<D['data']>>;
  /**
   * The data of an answer received by other means (an upload sent with XMLHttpRequest for its
   * progress): the same envelope rules as `call`.
   */
  answerOf<N extends keyof C & string>(
    name: N,
    status: number,
    body: RawEnvelope | null,
  ): Promise<z.infer<C[N]['data']>>;
  /** The request URL of a call (base and filled path). */
  urlOf(name: keyof C & string, params?: Record<string, string | number>): string;
  /** The headers every request carries, as `call` sends them. */
  headers(): Record<string, string>;
  /** A file answer (a CSV, a photo) with the same headers; refused unless its type passes `accepts`. */
  file(path: string, options: { query?: Query; accepts: (contentType: string) => boolean }): Promise<Blob>;
};

function isLazy<C extends Record<string, ClientCall>>(calls: C | LazyCalls<C>): calls is LazyCalls<C> {
  return typeof (calls as Partial<LazyCalls<C>>).load === 'function';
}

/** A client's calls by name: each one's method and path at once, its definition (schemas) on demand. */
function callsOf<C extends Record<string, ClientCall>>(
  calls: C | LazyCalls<C>,
  text: ClientOptions<C>['text'],
) {
  const lazy = isLazy(calls) ? calls : null;
  const eager = lazy ? null : (calls as C);
  return {
    /** A call's method and path. */
    routeOf: <N extends keyof C & string>(name: N): Pick<ClientCall, 'method' | 'path'> => {
      if (eager) return eager[name] as ClientCall;
      const [method, path] = (lazy as LazyCalls<C>).routes[name];
      return { method, path };
    },
    /** A call's definition; a definition that cannot load (offline, a new release) is a network failure. */
    definitionOf: async <N extends keyof C & string>(name: N): Promise<C[N]> => {
      if (eager) return eager[name];
      try {
        return await (lazy as LazyCalls<C>).load(name);
      } catch {
        throw new ApiFailure(NETWORK_FAILURE, text.network());
      }
    },
  };
}

/** Requests with the timeout of spec §7/§9; a request that got no answer fails as the network's. */
function transport(text: ClientOptions<Record<string, ClientCall>>['text']) {
  /** A request's answer, or the failure of a request that got none (no network, no answer in time). */
  async function received(request: Promise<Response>): Promise<Response> {
    try {
      return await request;
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new ApiFailure(timedOut ? TIMED_OUT : NETWORK_FAILURE, text.network());
    }
  }
  const send = (url: string, init: RequestInit): Promise<Response> =>
    received(fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
  return { received, send };
}

/** The envelope's rules: a 401 ends the session; a refusal throws its code; data parsed by the schema. */
function envelopeRules<C extends Record<string, ClientCall>>(options: ClientOptions<C>) {
  const { text } = options;
  const expired = (call: keyof C | null, message: unknown): ApiFailure => {
    options.onSessionExpired(call);
    const wording = text.sessionExpired?.() ?? (typeof message === 'string' ? message : text.error());
    return new ApiFailure(Code.SESSION_EXPIRED, wording);
  };

  function answer<D extends ClientCall>(
    name: keyof C | null,
    definition: D,
    status: number,
    body: RawEnvelope | null,
  ): z.infer<D['data']> {
    const code = typeof body?.code === 'number' ? body.code : NETWORK_FAILURE;
    if (status === 401 || code === Code.SESSION_EXPIRED) throw expired(name, body?.msg);
    if (!isSuccessCode(code))
      throw new ApiFailure(code, typeof body?.msg === 'string' ? body.msg : text.error(), body?.data ?? null);
    const parsed = definition.data.safeParse(body?.data);
    if (!parsed.success) throw new ApiFailure(Code.UNKNOWN_ERROR, text.error());
    return parsed.data as z.infer<D['data']>;
  }
  return { expired, answer };
}

export function createApiClient<C extends Record<string, ClientCall>>(
  options: ClientOptions<C>,
): ApiClient<C> {
  const { base, text } = options;
  const { routeOf, definitionOf } = callsOf(options.calls, text);
  const { received, send } = transport(text);
  const { expired, answer } = envelopeRules(options);

  /**
   * Sends a call by its route; its definition (`definition`, already loading) parses the answer. A
   * POST waits for its definition before it is sent: a change the server made must never be
   * reported as a failure because the app could not load the schema of its answer.
   */
  async function callWith<D extends ClientCall>(
    name: keyof C | null,
    route: Pick<ClientCall, 'method' | 'path'>,
    loading: D | Promise<D>,
    input: CallInput,
  ): Promise<z.infer<D['data']>> {
    const definition = route.method === 'POST' ? await loading : loading;
    // Not left unhandled while the request is under way; awaited below.
    if (definition instanceof Promise) definition.catch(() => undefined);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers() };
    const post = route.method === 'POST';
    if (post) headers['content-type'] = 'application/json';
    const url = base + fillPath(route.path, input.params ?? {}) + toQueryString(input.query ?? {});
    const already = post ? undefined : options.sent?.(url, headers);
    const response = already
      ? await received(already)
      : await send(url, {
          method: route.method,
          headers,
          body: post ? JSON.stringify(input.body ?? {}) : null,
        });
    const body = (await response.json().catch(() => null)) as RawEnvelope | null;
    return answer(name, await definition, response.status, body);
  }

  return {
    call: <N extends keyof C & string>(name: N, input: CallInput = {}) =>
      callWith(name, routeOf(name), definitionOf(name), input),
    callDefinition: (definition, input = {}) => callWith(null, definition, definition, input),
    answerOf: async <N extends keyof C & string>(name: N, status: number, body: RawEnvelope | null) =>
      answer(name, await definitionOf(name), status, body),
    urlOf: (name, params = {}) => base + fillPath(routeOf(name).path, params),
    headers: () => options.headers(),

    async file(path, { query = {}, accepts }) {
      const response = await send(base + path + toQueryString(query), { headers: options.headers() });
      if (response.status === 401) throw expired(null, null);
      if (!response.ok || !accepts(response.headers.get('content-type') ?? ''))
        throw new ApiFailure(response.ok ? Code.UNKNOWN_ERROR : response.status, text.error());
      return response.blob();
    },
  };
}
