/**
 * index.html's first paint (#boot, or the screen the build drew in #root, which the app's first
 * commit replaces) stays until the app has drawn what replaces it: the first commit, or, on a
 * phone's first page of the session, the app's own welcome board, which opens over the same
 * picture (so the screen never flashes between the two).
 */
export function endBoot(): void {
  document.getElementById('boot')?.remove();
  document.documentElement.classList.remove('boot-welcome', 'first-screen');
  document.documentElement.removeAttribute('data-first-screen');
  document.getElementById('root')?.removeAttribute('inert');
}

/** Whether the first paint is the welcome board, which the app's board then ends. */
export function bootShowsWelcome(): boolean {
  return document.documentElement.classList.contains('boot-welcome');
}
