import { type ComponentType, lazy, useState } from 'react';
import { featureTextsArrived } from './i18n.ts';

/** The chunk load timeout of spec §9. */
export const CHUNK_TIMEOUT_MS = 120_000;

/**
 * A component loaded on first use (its own chunk), within the chunk load timeout. Once its module
 * is here it renders at once, without suspending: React holds a suspended screen's content until
 * 300 ms after its fallback appeared, so the page that opens on a screen preloads it first
 * (`preloadRoute`, main.tsx) and draws it in its first commit, with no loading line in between.
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = (): Promise<ComponentType<P>> => {
    if (loading) return loading;
    loading = new Promise<ComponentType<P>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_TIMEOUT_MS);
      // With its feature's texts (registered by the chunk as it ran), so the screen never renders
      // a text before it is there.
      load().then(
        async (module) => {
          await featureTextsArrived();
          clearTimeout(timer);
          loaded = module.default;
          resolve(module.default);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Page(props: P) {
    // Chosen once per mount: turning from the lazy wrapper to the module's own component on a
    // later render would be another component to React, which would mount the screen afresh.
    const [Screen] = useState(() => loaded ?? Lazy);
    return <Screen {...props} />;
  }
  return Object.assign(Page, { preload });
}
