/**
 * The app's layout (spec §3 isDesktop): the mobile one on a phone or tablet by user agent, the
 * desktop one otherwise. The web app decides with it at start, and the server with it which
 * first screen it sends (a page's screen drawn at build time in each layout).
 */
export function isDesktopUserAgent(userAgent: string): boolean {
  return !/Android|iPhone|iPad|iPod/i.test(userAgent);
}
