import { useSyncExternalStore } from 'react';
import { announced, subscribe } from '../ui/announce.ts';

const nothingAnnounced = () => '';

/** The app's one polite live region: `announce()` (ui/announce.ts) writes to it. */
export function Announcer() {
  // Drawn empty before the app (the build, the server): taken over empty, then what was announced.
  const text = useSyncExternalStore(subscribe, announced, nothingAnnounced);
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
