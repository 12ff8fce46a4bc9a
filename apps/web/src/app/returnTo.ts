import { isLoginCallback, isPassPage } from './routes.ts';

/** Any origin works as the base: only a path that stays on it is kept. */
const BASE = 'https://app.invalid';

/**
 * The in-app page to return to after logging in, from a `?return=` value: a same-origin path
 * only. Anything else (another origin, `//host`, a backslash trick, a scheme, control
 * characters, the login pages themselves) gives null, so a link can never send a customer away.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  // Browsers read a backslash as a slash ("/\\evil.com") and drop tabs and newlines.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  if (isPassPage(url.pathname) || isLoginCallback(url.pathname)) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * Where a customer whose session ended is sent: the login page, told why, with the page they
 * were on to come back to (the home page needs no return).
 */
export function loginAfterExpiry(location: { pathname: string; search: string; hash: string }): string {
  const here = safeReturnPath(location.pathname + location.search + location.hash);
  const query = new URLSearchParams({ expired: '1' });
  if (here && here !== '/') query.set('return', here);
  return `/pass/login?${query.toString()}`;
}
