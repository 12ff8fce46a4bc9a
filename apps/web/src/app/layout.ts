/**
 * The layout (spec §3 isDesktop): the mobile one on a phone or tablet by user agent, and in any
 * window narrower than DESKTOP_MIN_WIDTH CSS px, where the desktop top bar (logo, six tabs,
 * service, language, Log in and Sign up) no longer fits beside the logo in most languages (its
 * actions would take a row of their own, shell.css); the desktop one otherwise. A window resized across the width switches it (App.tsx). public/boot.js decides
 * the first paint with the same rule (app/boot.test.ts runs it against this file).
 */
export const DESKTOP_MIN_WIDTH = 1024;

/** `phone`: a phone or tablet by user agent (@swx/contract isDesktopUserAgent). */
export function isDesktopLayout(phone: boolean, viewWidth: number): boolean {
  return !phone && viewWidth >= DESKTOP_MIN_WIDTH;
}

/**
 * Root font scaling (spec §9). On desktop the root is the reader's own size (16 px by default)
 * at any width: it never shrinks below the 1000 px breakpoint, since a window narrowed by zoom
 * would otherwise take back the zoom (WCAG 1.4.4). On mobile it grows with the viewport from a
 * 375 px design width, never below the reader's size. It never exceeds 100 px, and it is a
 * percentage of the reader's own default size, so a reader who enlarged their browser's text keeps
 * that enlargement.
 */
export const ROOT_FONT_CAP_PX = 100;

export function rootFontSizePx(viewWidth: number, isDesktop: boolean): number {
  const size = isDesktop ? 16 : Math.min(19, Math.max(16, (16 * viewWidth) / 375));
  return Math.min(ROOT_FONT_CAP_PX, Math.round(size * 100) / 100);
}

export function applyRootFont(viewWidth: number, isDesktop: boolean): void {
  document.documentElement.style.fontSize = `${(rootFontSizePx(viewWidth, isDesktop) / 16) * 100}%`;
}
