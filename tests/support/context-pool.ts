import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { type Layout, newContext } from './browser.ts';

/**
 * Browser contexts a test file's tests take in turn. On this two-core machine a fresh Chromium
 * context and its first page cost about 1.4 s of CPU (most of it a new renderer process), a new
 * page in a context kept open beside a parked page of the same site about 0.5 s
 * (`node bench/browser-context.ts`): with some 340 contexts a run, that is minutes of the browser stage.
 *
 * A context goes back to the pool when its test closes it (or the test ends) and is handed to a
 * later `take` of the same kind only as a fresh one would be: every page of the test closed, the
 * cookies, storage (local, session, IndexedDB, caches, service workers) of every origin it reached
 * and the HTTP cache cleared, permissions withdrawn, the test's init scripts and routes removed,
 * back online. One its test changed in a way that cannot be undone (its own listeners, a CDP
 * session, the fake clock, a WebSocket route, extra headers) is closed instead. TEST_FRESH_CONTEXTS=1
 * gives every test fresh contexts, as before.
 */
export type ContextKind = {
  layout: Layout;
  baseURL: string;
  locale: string;
  width?: number;
  /** The live-quote socket kept silent (a WebSocket route set once, part of the kind). */
  quiet: boolean;
};

type Pooled = {
  context: BrowserContext;
  kind: string;
  /** A page parked on the site, so the test's pages share its renderer process. */
  keeper: Page;
  cdp: CDPSession;
  origins: Set<string>;
  undo: { dispose: () => Promise<void> }[];
  offline: boolean;
  dirty: boolean;
  free: boolean;
  closeForReal: () => Promise<void>;
};

const FRESH = process.env.TEST_FRESH_CONTEXTS === '1';

/** Methods whose effect a reset cannot take back: a context that used one is closed after its test. */
const LASTING = [
  'on',
  'once',
  'addListener',
  'prependListener',
  'routeWebSocket',
  'newCDPSession',
  'exposeBinding',
  'exposeFunction',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
  'routeFromHAR',
  'unroute',
  'unrouteAll',
] as const;

export class ContextPool {
  private readonly browser: () => Browser;
  private readonly all: Pooled[] = [];

  constructor(browser: () => Browser) {
    this.browser = browser;
  }

  /** A context of this kind: a pooled one made fresh, or a new one. */
  async take(kind: ContextKind, serviceWorkers: 'allow' | 'block'): Promise<BrowserContext> {
    const options = { locale: kind.locale, serviceWorkers, ...(kind.width ? { width: kind.width } : {}) };
    if (FRESH || serviceWorkers === 'allow') {
      const context = await newContext(this.browser(), kind.layout, kind.baseURL, options);
      if (kind.quiet) await context.routeWebSocket(/\/message/, () => undefined);
      return context;
    }
    const key = JSON.stringify(kind);
    const free = this.all.find((p) => p.free && p.kind === key && !p.dirty);
    if (free) {
      free.free = false;
      return free.context;
    }
    return (await this.made(kind, key, options)).context;
  }

  /** Closes every context of the pool (the file's server is going away). */
  async closeAll(): Promise<void> {
    const all = this.all.splice(0);
    await Promise.all(all.map((p) => p.closeForReal()));
  }

  private async made(
    kind: ContextKind,
    key: string,
    options: { locale: string; width?: number; serviceWorkers: 'allow' | 'block' },
  ): Promise<Pooled> {
    const context = await newContext(this.browser(), kind.layout, kind.baseURL, options);
    if (kind.quiet) await context.routeWebSocket(/\/message/, () => undefined);
    const origins = new Set<string>([new URL(kind.baseURL).origin]);
    const keeper = await context.newPage();
    await keeper.goto('/robots.txt', { waitUntil: 'commit' }).catch(() => undefined);
    const cdp = await context.newCDPSession(keeper);
    const realClose = context.close.bind(context);
    const pooled: Pooled = {
      context,
      kind: key,
      keeper,
      cdp,
      origins,
      undo: [],
      offline: false,
      dirty: false,
      free: false,
      closeForReal: async () => {
        pooled.dirty = true;
        await realClose().catch(() => undefined);
      },
    };
    this.all.push(pooled);
    this.watch(pooled);
    return pooled;
  }

  /** Wraps the context's methods: what a test adds is recorded to be taken back, or marks it lasting. */
  private watch(pooled: Pooled): void {
    const context = pooled.context as unknown as Record<string, unknown>;
    const wrap = (name: string, after: (result: unknown) => void) => {
      const original = context[name] as (...args: unknown[]) => unknown;
      context[name] = (...args: unknown[]) => {
        const result = original.apply(pooled.context, args);
        after(result);
        return result;
      };
    };
    for (const name of ['addInitScript', 'route'])
      wrap(name, (result) => {
        pooled.undo.push({
          dispose: async () => {
            const made = (await (result as Promise<{ dispose: () => Promise<void> }>)) ?? null;
            await made?.dispose();
          },
        });
      });
    wrap('setOffline', () => {
      pooled.offline = true;
    });
    for (const name of LASTING)
      wrap(name, () => {
        pooled.dirty = true;
      });
    // The fake clock (page.clock is its context's): one a test set stays with the context.
    const clock = pooled.context.clock as unknown as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(clock))) {
      const original = clock[name];
      if (name === 'constructor' || typeof original !== 'function') continue;
      clock[name] = (...args: unknown[]) => {
        pooled.dirty = true;
        return (original as (...a: unknown[]) => unknown).apply(clock, args);
      };
    }
    context.close = async () => {
      if (pooled.free) return;
      await this.release(pooled);
    };
  }

  /** Back to the pool as a fresh context would be, or closed when that cannot be promised. */
  private async release(pooled: Pooled): Promise<void> {
    pooled.free = true;
    try {
      const pages = pooled.context.pages().filter((p) => p !== pooled.keeper);
      await Promise.all(pages.map((p) => p.close()));
      if (pooled.dirty || pooled.keeper.isClosed()) throw new Error('not reusable');
      // Its pages' clocks, pinned with page.clock, are the context's: `clock` marks it lasting.
      for (const undo of pooled.undo.splice(0)) await undo.dispose();
      if (pooled.offline) await pooled.context.setOffline(false);
      pooled.offline = false;
      await pooled.context.clearCookies();
      await pooled.context.clearPermissions();
      for (const origin of pooled.origins)
        await pooled.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      await pooled.cdp.send('Network.clearBrowserCache');
    } catch {
      const at = this.all.indexOf(pooled);
      if (at >= 0) this.all.splice(at, 1);
      await pooled.closeForReal();
    }
  }
}
