import { CALL_ROUTES } from 'virtual:swx/call-routes';
import {
  ApiFailure,
  type CallName,
  CUSTOMER_API_BASE,
  type calls,
  createApiClient,
  LANGUAGE_TAGS,
  loadCallDomain,
  type Query,
} from '@swx/contract';
import { takeFirstCall } from './firstCall.ts';
import { i18n } from './i18n.ts';
import { type ClientState, clearAllStorage, getState } from './state.ts';

export { ApiFailure };

let onSessionExpired: () => void = () => undefined;

/** The router registers how to go to /pass/login; api calls use it on a 401. */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

/**
 * The headers of every call: the reader's language, the `virtually` book header (NO for the demo
 * flag 1, YES otherwise) and the token. public/boot.js sends the page's first call with the same.
 */
export function requestHeaders(
  state: Pick<ClientState, 'language' | 'virtual' | 'token'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'accept-language': LANGUAGE_TAGS[state.language],
    virtually: state.virtual === 1 ? 'NO' : 'YES',
  };
  if (state.token) headers.authorization = state.token;
  return headers;
}

/**
 * The customer API: calls by contract name with `requestHeaders`. A 401 clears local storage
 * (spec §8, the language kept) and goes to /pass/login. The page's first call may already have
 * been sent by boot.js (firstCall.ts).
 */
const client = createApiClient<typeof calls>({
  base: CUSTOMER_API_BASE,
  // Each call is sent by its route at once; its schemas load with its domain's module meanwhile.
  calls: {
    routes: CALL_ROUTES,
    load: async (name) => {
      const domain = await loadCallDomain[CALL_ROUTES[name][2]]();
      return (domain as Partial<typeof calls>)[name as CallName] as (typeof calls)[typeof name];
    },
  },
  headers: () => requestHeaders(getState()),
  sent: takeFirstCall,
  onSessionExpired: () => {
    clearAllStorage();
    onSessionExpired();
  },
  text: {
    network: () => i18n.t('state.network'),
    error: () => i18n.t('state.error'),
    sessionExpired: () => i18n.t('state.sessionExpired'),
  },
});

export const callApi = client.call;
/** For an upload sent with XMLHttpRequest (for its progress): the same headers and envelope rules. */
export const baseHeaders = client.headers;
export const answerOf = client.answerOf;
export const urlOf = client.urlOf;

/** Downloads a file answer (the CSV export, a signed agreement) with the same headers as a call, then saves it. */
export async function downloadFile(
  path: string,
  query: Query,
  fileName: string,
  type = 'text/csv',
): Promise<void> {
  const blob = await client.file(path, { query, accepts: (given) => given.startsWith(type) });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
