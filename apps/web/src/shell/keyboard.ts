import { announcePage, takeOutcome } from '../ui/announce.ts';
import { focusPageWhenReady, whenPageTitled } from '../ui/focus.ts';

/**
 * What keeps keyboard focus in sight and in place, loaded as its own chunk at start (App.tsx):
 * the focus moves and guard of ui/focus.ts, the page's announcement, and the bars' measured sizes behind the scroll padding.
 */
export { installFocusGuard } from '../ui/focus.ts';
export { watchBarSizes } from './barSizes.ts';

/**
 * A page arrived at (an in-app navigation, or the page under the welcome board once it is gone):
 * focus moves to its heading once it has rendered, and the live region names it by its own title
 * once it has that (an instrument's name, not "Instrument detail"), after the outcome that led
 * there, taken as the page opens. `routeTitle` names a page without an h1 of its own. Returns a
 * cancel.
 */
export function arriveAtPage(pressed: Element | null, routeTitle: () => string): () => void {
  const led = takeOutcome();
  let untitled: (() => void) | null = null;
  const unfocused = focusPageWhenReady(pressed, () => {
    untitled = whenPageTitled(routeTitle, (title) => announcePage(title, led));
  });
  return () => {
    unfocused();
    untitled?.();
  };
}
