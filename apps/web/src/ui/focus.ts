/**
 * Where keyboard focus goes when the page moves under it (WCAG 2.4.3): to the new page's heading
 * after a navigation, to the first invalid field after a refused submit, and to the next logical
 * place when the focused control is disabled, hidden or removed (the guard the app installs once).
 * A screen needs none of this wired by hand; `focusFirstInvalid` is for forms outside
 * `useContractForm`.
 */

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

function shown(element: Element): boolean {
  return element.isConnected && element.checkVisibility() && element.closest('[inert]') === null;
}

/** The first control of `root` the Tab key reaches, besides `except`. */
export function firstTabbable(root: Element, except?: Element): HTMLElement | null {
  for (const candidate of root.querySelectorAll<HTMLElement>(TABBABLE))
    if (candidate !== except && shown(candidate)) return candidate;
  return null;
}

/** Focuses an element, a heading or region included (it takes `tabindex="-1"` for that). */
export function focusElement(element: HTMLElement): void {
  if (!element.matches(TABBABLE) && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus();
}

/** The page's heading: its h1 in the main region, else the mobile bar's title, else the main region. */
export function pageHeading(): HTMLElement | null {
  for (const selector of ['main h1', '.mobile-title', 'main']) {
    const found = document.querySelector<HTMLElement>(selector);
    if (found && shown(found)) return found;
  }
  return null;
}

/** After a refused submit: the first field marked invalid (once React has marked it). */
export function focusFirstInvalid(form: HTMLElement | null): void {
  if (!form) return;
  requestAnimationFrame(() => {
    const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (invalid && shown(invalid)) focusElement(invalid);
  });
}

/** An element's words as a screen reader reads them: not what is aria-hidden, no bidi controls. */
export function spokenText(element: Element): string {
  const words = (node: Node): string =>
    node.nodeType === Node.TEXT_NODE
      ? (node.textContent ?? '')
      : node instanceof Element && node.getAttribute('aria-hidden') === 'true'
        ? ''
        : [...node.childNodes].map(words).join('');
  return words(element)
    .replace(/[\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How long the page's title is waited for while the page still loads its data. */
const TITLE_WAIT_MS = 5000;

/**
 * The page's own title, once it has it: its title heading (`h1.page-title`) in the main region,
 * read when nothing there is loading any more (an instrument's name or an article's title comes
 * with the page's data), or after TITLE_WAIT_MS; `fallback()` (the route's title) for a page
 * without one (the home page's h1 is its hero's headline). Returns a cancel.
 */
export function whenPageTitled(fallback: () => string, done: (title: string) => void): () => void {
  const main = document.querySelector('main');
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    clearTimeout(timer);
    const heading = main?.querySelector<HTMLElement>('h1.page-title');
    const own = heading && shown(heading) ? spokenText(heading) : '';
    done(own || fallback());
  };
  const check = () => {
    if (!main?.querySelector('[data-loading]')) finish();
  };
  const observer = new MutationObserver(check);
  if (main) observer.observe(main, { childList: true, subtree: true, characterData: true });
  const timer = setTimeout(finish, TITLE_WAIT_MS);
  check();
  return () => {
    finished = true;
    observer.disconnect();
    clearTimeout(timer);
  };
}

let navigating = 0;

/**
 * After an in-app navigation: once the new page has rendered (its h1 is there, or no loading state
 * is left in the main region), focus moves to its heading and `done(heading)` runs. Focus the
 * reader has moved on their own meanwhile is left where it is. Returns a cancel.
 */
export function focusPageWhenReady(pressed: Element | null, done: () => void): () => void {
  const mine = ++navigating;
  const main = document.querySelector('main');
  let finished = false;
  const finish = (target: HTMLElement | null) => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    clearTimeout(timer);
    const active = document.activeElement;
    const untouched =
      active === null ||
      active === document.body ||
      active === pressed ||
      (pressed !== null && !pressed.isConnected);
    if (target && untouched) focusElement(target);
    if (mine === navigating) navigating = 0;
    done();
  };
  const check = () => {
    if (!main) return finish(null);
    const heading = main.querySelector<HTMLElement>('h1');
    if (heading && shown(heading)) return finish(heading);
    if (main.childElementCount > 0 && main.querySelector('[data-loading]') === null) finish(pageHeading());
  };
  const observer = new MutationObserver(check);
  if (main) observer.observe(main, { childList: true, subtree: true });
  const timer = setTimeout(() => finish(pageHeading()), 10_000);
  queueMicrotask(check);
  return () => {
    finished = true;
    observer.disconnect();
    clearTimeout(timer);
    if (mine === navigating) navigating = 0;
  };
}

type Focused = { element: HTMLElement; ancestors: Element[] };

function lost(element: HTMLElement): boolean {
  return !shown(element) || (element as HTMLButtonElement).disabled === true;
}

/**
 * The next logical place for focus whose control went away: the first control left in its nearest
 * still-shown container (the code field beside a disabled "Send code", the language button of a
 * menu that closed, the next row of a table), else the page's heading.
 */
function nextPlace(from: Focused): HTMLElement | null {
  for (const ancestor of from.ancestors) {
    if (ancestor === document.body || ancestor.matches('main, .shell, #root')) break;
    if (!shown(ancestor)) continue;
    const found = firstTabbable(ancestor, from.element);
    if (found) return found;
  }
  return pageHeading();
}

/**
 * Installs, once, the guard that keeps focus off the body: when the focused control is disabled,
 * hidden or removed, focus moves to the next logical place (`nextPlace`). A click on the page's
 * background (focus on the body, the last control still there) is left alone.
 */
export function installFocusGuard(): () => void {
  let last: Focused | null = null;
  let frame = 0;
  const rescue = () => {
    frame = 0;
    if (navigating || !last) return;
    const active = document.activeElement;
    const dropped = active === null || active === document.body || active === document.documentElement;
    if (!(dropped || active === last.element) || !lost(last.element)) return;
    const target = nextPlace(last);
    if (target) focusElement(target);
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(rescue);
  };
  const onFocusIn = (event: FocusEvent) => {
    const element = event.target;
    if (!(element instanceof HTMLElement)) return;
    const ancestors: Element[] = [];
    for (let at = element.parentElement; at; at = at.parentElement) ancestors.push(at);
    last = { element, ancestors };
  };
  const observer = new MutationObserver(schedule);
  observer.observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['disabled', 'hidden', 'open', 'inert'],
  });
  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('focusout', schedule);
  return () => {
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn);
    document.removeEventListener('focusout', schedule);
    cancelAnimationFrame(frame);
  };
}
