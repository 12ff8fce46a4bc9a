/**
 * What keeps keyboard focus in sight and in place, loaded as its own chunk at start (App.tsx):
 * the focus moves and guard of ui/focus.ts, the page's announcement, and the bars' measured sizes behind the scroll padding.
 */
export { announcePage } from '../ui/announce.ts';
export { focusPageWhenReady, installFocusGuard } from '../ui/focus.ts';
export { watchBarSizes } from './barSizes.ts';
