/**
 * The page's first call: when the page opens on a route with a `firstCall` (routes.ts), boot.js
 * sends that GET with the app's first requests, before the app has run, and leaves it here. The
 * screen's own call takes its answer, once, when it asks for the same URL with the same headers
 * within a short while of the page's start; any other call, or a later one, is sent as usual.
 */
export type FirstCall = {
  url: string;
  headers: Record<string, string>;
  response: Promise<Response>;
  /** When boot.js sent it (performance.now()). */
  at: number;
  /**
   * The answer came inside the page: the server drew the screen with it (prerender.tsx
   * `drawScreen`), so the app draws its first commit with it too (main.tsx).
   */
  drawn?: true;
};

declare global {
  interface Window {
    swxFirstCall?: FirstCall;
  }
}

/** How long after it was sent the first call's answer may stand for the screen's own call. */
export const FIRST_CALL_FRESH_MS = 10_000;

const sameHeaders = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

/** Where the server's render gets the answers of the calls it makes (prerender.tsx `drawScreen`). */
type Answerer = (url: string, headers: Record<string, string>) => Promise<Response>;
let answerer: Answerer | undefined;

/**
 * While the server draws a screen with its data (prerender.tsx), every GET the app sends is
 * answered by `answer` instead of the network; `undefined` ends it.
 */
export function answerCallsWith(answer: Answerer | undefined): void {
  answerer = answer;
}

/** The first call's answer for this request, once; `undefined` when it is another request, or stale. */
export function takeFirstCall(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  if (answerer) return answerer(url, headers);
  if (typeof window === 'undefined') return undefined;
  const first = window.swxFirstCall;
  if (!first || first.url !== url || !sameHeaders(first.headers, headers)) return undefined;
  window.swxFirstCall = undefined;
  return performance.now() - first.at <= FIRST_CALL_FRESH_MS ? first.response : undefined;
}
