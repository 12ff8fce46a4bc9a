import {
  ADMIN_API_BASE,
  type AdminCallDefinition,
  type AdminCallName,
  adminCalls,
  type CallDefinition,
  type CallName,
  CUSTOMER_API_BASE,
  calls,
} from '@swx/contract';
import type { z } from 'zod/mini';

/**
 * A typed client of the API, generated from the contract: a call is named as the contract names
 * it (`calls` under /swx/customer, `adminCalls` under /swx/admin), its input is the call's path
 * params, query and body in one object, checked by the compiler against the contract's schemas,
 * and a success's data is parsed by the call's data schema (an answer that breaks the contract
 * fails the test). Refusals come back as they are: `{ code, msg, data }` with the refusal's data.
 *
 *   const alice = customerApi(server, await registerByApi(server, inbox, 'alice@example.com'));
 *   const order = await alice.ok('openPosition', { ...ticket, quoteId, requestId });
 *   expect((await bob.call('closeOptions', { id: order.id })).code).toBe(10028);
 *
 * Keep raw `fetch` (or `api` of server.ts) for what is about HTTP itself: malformed bodies,
 * headers, methods and attacks on the wire.
 */

type Schema<D, K extends string> = D extends { [key in K]: infer S extends z.ZodMiniType }
  ? z.input<S>
  : unknown;
/** A path or query value travels as text: a number is written as its digits. */
type Wire<T> = unknown extends T
  ? T
  : { [K in keyof T]: NonNullable<T[K]> extends string ? T[K] | number : T[K] };

/** One object: path params, then the query (GET) or the body (POST), as the contract types them. */
export type InputOf<D> = Wire<Schema<D, 'params'>> & Wire<Schema<D, 'query'>> & Schema<D, 'body'>;
export type DataOf<D> = D extends { data: infer S extends z.ZodMiniType } ? z.output<S> : never;

/** What the server answered: the envelope (data parsed on a success), the HTTP status and headers. */
export type Answer<T> = { code: number; msg: string; data: T; status: number; headers: Headers };

export type CallOptions = {
  /** The Accept-Language header as sent (e.g. 'de' or 'ar-SA'). */
  language?: string;
  /** The book the call acts on (the `virtually` header); the server's default is demo. */
  book?: 'demo' | 'live';
  headers?: Record<string, string>;
};

/** Codes of a success: 200, and the 20001–20005 of an accepted submission. */
const succeeded = (code: number) => code === 200 || (code >= 20001 && code <= 20005);

type Optional<I> =
  Partial<I> extends I ? [input?: I, options?: CallOptions] : [input: I, options?: CallOptions];

export type Client<Defs extends Record<string, CallDefinition | AdminCallDefinition>> = {
  /** Makes the call; resolves with the answer whatever its code. */
  call<N extends keyof Defs & string>(
    name: N,
    ...args: Optional<InputOf<Defs[N]>>
  ): Promise<Answer<DataOf<Defs[N]>>>;
  /** Makes the call and resolves with its data; a refusal fails the test with its code and message. */
  ok<N extends keyof Defs & string>(name: N, ...args: Optional<InputOf<Defs[N]>>): Promise<DataOf<Defs[N]>>;
  /** The same client acting with other options (language, book, headers) by default. */
  with(options: CallOptions): Client<Defs>;
  /** The session token it sends ('' when anonymous), for a raw request beside the calls. */
  readonly token: string;
};

type Holder = { token: string } | string | null | undefined;
/**
 * The server called: its address, and the client address it should see (`clientAddress`, sent as
 * X-Forwarded-For to a server that trusts it: a file on its worker's shared server calls from an
 * address of its own, support/integration.ts).
 */
type Origin = { baseUrl: string; clientAddress?: string } | string;

function query(values: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function client<Defs extends Record<string, CallDefinition | AdminCallDefinition>>(
  definitions: Defs,
  base: string,
  origin: Origin,
  holder: Holder,
  defaults: CallOptions,
): Client<Defs> {
  const baseUrl = typeof origin === 'string' ? origin : origin.baseUrl;
  const clientAddress = typeof origin === 'string' ? undefined : origin.clientAddress;
  const token = typeof holder === 'string' ? holder : holder?.token;
  async function call(name: string, input: unknown = {}, options: CallOptions = {}) {
    const definition = definitions[name];
    if (!definition) throw new Error(`no call ${name} in the contract`);
    const rest: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    const path = definition.path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
      const value = rest[key];
      delete rest[key];
      return encodeURIComponent(String(value ?? ''));
    });
    const { language, book, headers: extra } = { ...defaults, ...options };
    const headers: Record<string, string> = {
      ...(clientAddress ? { 'x-forwarded-for': clientAddress } : {}),
      ...extra,
    };
    if (token) headers.authorization = token;
    if (language) headers['accept-language'] = language;
    if (book) headers.virtually = book === 'live' ? 'YES' : 'NO';
    const isPost = definition.method === 'POST';
    // A body goes with a POST whose call declares one (or that is given fields), as the apps send it.
    const hasBody = isPost && (definition.body !== undefined || Object.keys(rest).length > 0);
    if (hasBody) headers['content-type'] = 'application/json';
    const response = await fetch(baseUrl + base + path + (isPost ? '' : query(rest)), {
      method: definition.method,
      headers,
      ...(hasBody ? { body: JSON.stringify(rest) } : {}),
    });
    const envelope = (await response.json()) as { code: number; msg: string; data: unknown };
    let data = envelope.data;
    if (succeeded(envelope.code)) {
      const parsed = definition.data.safeParse(data);
      if (!parsed.success)
        throw new Error(`${name} answered data outside its contract: ${JSON.stringify(parsed.error.issues)}`);
      data = parsed.data;
    }
    return {
      code: envelope.code,
      msg: envelope.msg,
      data,
      status: response.status,
      headers: response.headers,
    };
  }
  return {
    call: call as Client<Defs>['call'],
    ok: (async (name: string, input?: unknown, options?: CallOptions) => {
      const answer = await call(name, input, options);
      if (!succeeded(answer.code)) throw new Error(`${name} answered ${answer.code}: ${answer.msg}`);
      return answer.data;
    }) as Client<Defs>['ok'],
    with: (options) => client(definitions, base, origin, holder, { ...defaults, ...options }),
    token: token ?? '',
  };
}

export type CustomerApi = Client<typeof calls>;
export type StaffApi = Client<typeof adminCalls>;

/** The customer API of a server, anonymous or as a customer (a session or its token). */
export function customerApi(server: Origin, as?: Holder, options: CallOptions = {}): CustomerApi {
  return client(calls, CUSTOMER_API_BASE, server, as, options);
}

/** The staff API of a server, before sign-in or as a staff member (a session or its token). */
export function staffApi(server: Origin, as?: Holder, options: CallOptions = {}): StaffApi {
  return client(adminCalls, ADMIN_API_BASE, server, as, options);
}

export type { AdminCallName, CallName };
