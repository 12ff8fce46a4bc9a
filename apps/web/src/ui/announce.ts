import { useSyncExternalStore } from 'react';

/**
 * The one polite live region of the app (rendered by the shell's `Announcer`). A screen says what
 * happened with `announce(text)`: a page change, a position opened, closed or changed, and every
 * money action of later products. Saying the same text twice speaks it twice.
 */
let text = '';
let serial = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function announce(message: string): void {
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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAnnouncement(): string {
  return useSyncExternalStore(subscribe, announced);
}
