import { useSyncExternalStore } from 'react';
import { announced, subscribe } from '../ui/announce.ts';

/** The app's one polite live region: `announce()` (ui/announce.ts) writes to it. */
export function Announcer() {
  const text = useSyncExternalStore(subscribe, announced, announced);
  return (
    <p
      className="visually-hidden"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="announcer"
    >
      {text}
    </p>
  );
}
