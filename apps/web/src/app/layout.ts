/**
 * Root font scaling (spec §9). The root size follows the window so the layout keeps its
 * proportions, within limits that keep text readable: on desktop it is 16 px from the 1000 px
 * breakpoint up and shrinks gently below it; on mobile it scales with the viewport around a 375 px
 * design width. It never exceeds 100 px, and it is a percentage of the reader's own default size,
 * so a reader who enlarged their browser's text keeps that enlargement.
 */
export const DESKTOP_BREAKPOINT_PX = 1000;
export const ROOT_FONT_CAP_PX = 100;

export function rootFontSizePx(viewWidth: number, isDesktop: boolean): number {
  const size = isDesktop
    ? viewWidth >= DESKTOP_BREAKPOINT_PX
      ? 16
      : Math.max(13, (16 * viewWidth) / DESKTOP_BREAKPOINT_PX)
    : Math.min(19, Math.max(14, (16 * viewWidth) / 375));
  return Math.min(ROOT_FONT_CAP_PX, Math.round(size * 100) / 100);
}

export function applyRootFont(viewWidth: number, isDesktop: boolean): void {
  document.documentElement.style.fontSize = `${(rootFontSizePx(viewWidth, isDesktop) / 16) * 100}%`;
}
