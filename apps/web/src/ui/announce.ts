/**
 * The one polite live region of the app (rendered by the shell's `Announcer`). A screen says what
 * happened with `announce(text)`: a position opened, closed or changed, and every money action of
 * later products; the app names each new page with `announcePage`. The same text twice is spoken
 * twice.
 */
let text = '';
let serial = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/**
 * The last outcome announced, and when: a page the app opens just after it (an order placed, then
 * its page) is announced with it. A press of a key or a pointer since then is the reader's own
 * next step (a search's count said, then a row of it clicked): the page is not announced with it.
 */
let outcome = { text: '', at: 0 };
const OUTCOME_KEEPS_MS = 3000;

function forgetOutcome(): void {
  outcome = { text: '', at: 0 };
}

/** Says a result (a position opened, closed or changed; a money action done), politely. */
export function announce(message: string): void {
  outcome = { text: message, at: Date.now() };
  for (const type of ['keydown', 'pointerdown'])
    document.addEventListener(type, forgetOutcome, { capture: true, once: true });
  say(message);
}

/** The outcome that led to the page just opened, if one did: taken once, as the page opens. */
export function takeOutcome(): string {
  const recent = Date.now() - outcome.at < OUTCOME_KEEPS_MS ? outcome.text : '';
  forgetOutcome();
  return recent;
}

/** Names the page a navigation arrived at, after the outcome that led there when there was one. */
export function announcePage(title: string, led = takeOutcome()): void {
  say(led ? `${led} ${title}` : title);
}

function say(message: string): void {
  // Emptied first, then filled on the next task: screen readers speak a changed region, and the
  // same words again must be a change.
  text = '';
  const mine = ++serial;
  emit();
  setTimeout(() => {
    if (mine !== serial) return;
    text = message;
    emit();
  }, 50);
}

/** What the live region says now (tests read it from the page; the shell renders it). */
export function announced(): string {
  return text;
}

/** Calls `listener` on each change of what the live region says; returns an unsubscribe. */
export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
