import { type CallData, type CallName, Code, CUSTOMER_API_BASE, calls, LANGUAGE_TAGS } from '@swx/contract';
import { i18n } from './i18n.ts';
import { clearAllStorage, clearSession, getState } from './state.ts';

/** The request timeout of spec §7/§9. */
export const REQUEST_TIMEOUT_MS = 90_000;

/** A refusal or failure of a call, with the text to show the user. */
export class ApiFailure extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data: unknown = null) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

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

/** The headers every call carries: language, book (`virtually`), and the token when logged in. */
export function baseHeaders(): Record<string, string> {
  const state = getState();
  const headers: Record<string, string> = {
    'accept-language': LANGUAGE_TAGS[state.language],
    virtually: state.virtual === 1 ? 'NO' : 'YES',
  };
  if (state.token) headers.authorization = state.token;
  return headers;
}

/** Downloads a file answer (the CSV export) with the same headers as a call, then saves it. */
export async function downloadFile(path: string, query: Query, fileName: string): Promise<void> {
  const response = await fetch(CUSTOMER_API_BASE + path + toQueryString(query), {
    headers: baseHeaders(),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status === 401) {
    clearAllStorage();
    onSessionExpired();
    throw new ApiFailure(Code.SESSION_EXPIRED, i18n.t('state.sessionExpired'));
  }
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/csv'))
    throw new ApiFailure(Code.UNKNOWN_ERROR, i18n.t('state.error'));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

let onSessionExpired: () => void = () => undefined;

/** The router registers how to go to /pass/login; api calls use it on a 401. */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

/**
 * Calls the API by its contract name. Sends the token, the `virtually` book header (NO for the
 * demo flag 1, YES otherwise) and the reader's language; parses the envelope and the call's data
 * with the contract's schema. Resolves with the data on a success code; rejects with an
 * ApiFailure otherwise. A 401 (body or HTTP) ends the session and goes to /pass/login.
 */
export async function callApi<N extends CallName>(
  name: N,
  input: { params?: Record<string, string | number>; query?: Query; body?: unknown } = {},
): Promise<CallData<N>> {
  const definition = calls[name];
  const headers: Record<string, string> = { accept: 'application/json', ...baseHeaders() };
  if (input.body !== undefined) headers['content-type'] = 'application/json';
  const url =
    CUSTOMER_API_BASE + fillPath(definition.path, input.params ?? {}) + toQueryString(input.query ?? {});
  let response: Response;
  try {
    response = await fetch(url, {
      method: definition.method,
      headers,
      body: input.body === undefined ? null : JSON.stringify(input.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiFailure(timedOut ? -2 : -1, i18n.t('state.network'));
  }
  const body = (await response.json().catch(() => null)) as Envelope | null;
  return answerOf(name, response.status, body);
}

export type Envelope = { code?: unknown; msg?: unknown; data?: unknown };

/**
 * A call's answer: its data, parsed with the contract's schema, on a success code; otherwise an
 * ApiFailure with the server's message. A 401 (body or HTTP) ends the session and goes to
 * /pass/login. Shared by callApi and the uploads' XMLHttpRequest.
 */
export function answerOf<N extends CallName>(name: N, status: number, body: Envelope | null): CallData<N> {
  if (status === 401) {
    clearAllStorage();
    onSessionExpired();
    throw new ApiFailure(Code.SESSION_EXPIRED, i18n.t('state.sessionExpired'));
  }
  const code = typeof body?.code === 'number' ? body.code : -1;
  const msg = typeof body?.msg === 'string' ? body.msg : i18n.t('state.error');
  if (code === Code.SESSION_EXPIRED) {
    clearSession();
    onSessionExpired();
    throw new ApiFailure(code, msg);
  }
  if (code !== Code.OK && !(code >= 20001 && code <= 20005))
    throw new ApiFailure(code, msg, body?.data ?? null);
  const parsed = calls[name].data.safeParse(body?.data);
  if (!parsed.success) throw new ApiFailure(Code.UNKNOWN_ERROR, i18n.t('state.error'));
  return parsed.data as CallData<N>;
}
