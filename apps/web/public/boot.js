// Runs before the first paint (a classic script in the head; the security policy allows no inline
// script), so that paint is drawn as the app will draw it:
// - the root font size of app/layout.ts (rootFontSizePx: on a phone it grows with the viewport
//   from a 375 px design width, 16 to 19 px), which main.tsx applies again on every resize;
// - a phone's first page of a browser session opens on the welcome board (spec §2), so the first
//   paint is that board (index.html's #boot), not a loading line the board then covers. The same
//   test as the app's: a phone by user agent (app/state.ts isDesktopUserAgent) and no welcomeShown
//   in session storage.
// app/boot.test.ts runs this file against both.
(() => {
  const phone = /Android|iPhone|iPad|iPod/i.test(navigator.userAgent);
  const size = phone ? Math.min(19, Math.max(16, (16 * window.innerWidth) / 375)) : 16;
  document.documentElement.style.fontSize = `${(Math.round(size * 100) / 100 / 16) * 100}%`;
  try {
    if (phone && sessionStorage.getItem('welcomeShown') !== '1')
      document.documentElement.classList.add('boot-welcome');
  } catch {
    // Storage blocked: the plain first paint; the app decides about the board itself.
  }
})();
