import { readFileSync } from 'node:fs';
import {
  CUSTOMER_API_BASE,
  callRoutes,
  isDesktopUserAgent,
  LANGUAGE_TAGS,
  REQUEST_TIMEOUT_MS,
} from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { requestHeaders } from './api.ts';
import { applyRootFont, DESKTOP_MIN_WIDTH, isDesktopLayout } from './layout.ts';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0';
const bootScript = readFileSync(new URL('../../public/boot.js', import.meta.url), 'utf8');

type Tag = { localName: string; attributes: { name: string; value: string }[] };

/**
 * What public/boot.js does to the page, run with this user agent, width and session storage: the
 * root font size, the welcome class, and the tags it puts in the head (from the build's
 * `<template id="app">`, when there is one), with the frames it waited for.
 */
function boot(
  userAgent: string,
  width: number,
  welcomeShown: string | null,
  appTags: Tag[] | null = null,
  page: {
    path?: string;
    routes?: string;
    language?: string;
    /** The page's data-first-screen (a first screen the build drew): its language and layout. */
    firstScreen?: string;
    signedIn?: boolean;
    search?: string;
    /** Local storage's demo flag (`virtual`). */
    virtual?: string;
    /** The call a screen the server drew with its data carries (`#first-call`'s text). */
    drawnCall?: string;
  } = {},
) {
  /** The requests boot.js sends itself (the page's first call), with their options. */
  const fetched: { url: string; init: { headers: Record<string, string>; signal: unknown } }[] = [];
  const window: {
    innerWidth: number;
    swxFirstCall?: { url: string; headers: Record<string, string>; response: Promise<Response> };
  } = {
    innerWidth: width,
  };
  const classes = new Set<string>();
  const added: Tag[] = [];
  const steps: string[] = [];
  const documentElement = {
    style: { fontSize: '' },
    dataset: { firstScreen: page.firstScreen } as { firstScreen?: string | undefined; layout?: string },
    classList: { add: (name: string) => classes.add(name) },
  };
  const document = {
    documentElement,
    visibilityState: 'visible',
    head: {
      // A module script runs once appended: its load event, then the next task.
      append: (tag: Tag & { load?: () => void }) => {
        added.push(tag);
        steps.push(tag.localName);
        tag.load?.();
      },
    },
    getElementById: (id: string) =>
      id === 'app' && appTags
        ? {
            content: { children: appTags },
            getAttribute: (name: string) => (name === 'data-routes' ? (page.routes ?? null) : null),
          }
        : id === 'first-call' && page.drawnCall !== undefined
          ? { textContent: page.drawnCall }
          : null,
    createElement: (localName: string) => {
      const tag: Tag & { load?: () => void } & Record<string, unknown> = {
        localName,
        attributes: [] as Tag['attributes'],
        setAttribute: (name: string, value: string) => tag.attributes.push({ name, value }),
        addEventListener: (type: string, listener: () => void) => {
          if (type === 'load') tag.load = listener;
        },
      };
      return tag;
    },
  };
  /** Paint timing as Chromium reports it: the first contentful paint, at once (buffered). */
  class PaintObserver {
    static supportedEntryTypes = ['paint'];
    readonly callback: (list: unknown, observer: PaintObserver) => void;
    constructor(callback: (list: unknown, observer: PaintObserver) => void) {
      this.callback = callback;
    }
    observe() {
      steps.push('paint');
      this.callback(
        { getEntriesByName: (name: string) => (name === 'first-contentful-paint' ? [{}] : []) },
        this,
      );
    }
    disconnect() {}
  }
  new Function(
    'navigator',
    'window',
    'document',
    'sessionStorage',
    'localStorage',
    'location',
    'requestAnimationFrame',
    'setTimeout',
    'PerformanceObserver',
    'fetch',
    'AbortSignal',
    'performance',
    bootScript,
  )(
    { userAgent },
    window,
    document,
    { getItem: (key: string) => (key === 'welcomeShown' ? welcomeShown : null) },
    {
      getItem: (key: string) =>
        ({
          language: page.language ?? null,
          isLogin: page.signedIn ? 'true' : null,
          token: page.signedIn ? 'a-token' : null,
          virtual: page.virtual ?? null,
        })[key] ?? null,
    },
    { pathname: page.path ?? '/', search: page.search ?? '' },
    (frame: () => void) => {
      steps.push('frame');
      frame();
    },
    // A task runs at once; a timer with a delay is only noted (the paint comes first).
    (task: () => void, delay = 0) => {
      steps.push(delay ? `timer ${delay}` : 'task');
      if (!delay) task();
    },
    PaintObserver,
    (url: string, init: (typeof fetched)[number]['init']) => {
      fetched.push({ url, init });
      steps.push('fetch');
      return Promise.resolve(new Response('{}'));
    },
    { timeout: (ms: number) => `timeout ${ms}` },
    { now: () => 5 },
  );
  return {
    fetched,
    firstCall: window.swxFirstCall,
    fontSize: documentElement.style.fontSize,
    layout: documentElement.dataset.layout,
    welcome: classes.has('boot-welcome'),
    firstScreen: classes.has('first-screen'),
    added: added.map(({ localName, attributes }) => ({ localName, attributes })),
    steps,
  };
}

/** What the app's layout.ts sets for the same page. */
function appFontSize(userAgent: string, width: number): string {
  const documentElement = { style: { fontSize: '' } };
  const saved = globalThis.document;
  Object.assign(globalThis, { document: { documentElement } });
  try {
    applyRootFont(width, isDesktopLayout(!isDesktopUserAgent(userAgent), width));
  } finally {
    Object.assign(globalThis, { document: saved });
  }
  return documentElement.style.fontSize;
}

describe('the first paint (public/boot.js) is drawn as the app draws it', () => {
  it('sets the root font size the app sets, on phones and desktops at any width', () => {
    const edge = DESKTOP_MIN_WIDTH;
    for (const userAgent of [PHONE, DESKTOP])
      for (const width of [320, 360, 375, 390, 412, 414, 430, 768, edge - 1, edge, 1200])
        expect(boot(userAgent, width, null).fontSize).toBe(appFontSize(userAgent, width));
  });

  it('picks the layout the app picks: mobile on a phone, and in a desktop window narrower than the desktop layout', () => {
    for (const userAgent of [PHONE, DESKTOP])
      for (const width of [320, 390, 768, DESKTOP_MIN_WIDTH - 1, DESKTOP_MIN_WIDTH, 1366])
        expect(boot(userAgent, width, null).layout, `${userAgent} ${width}`).toBe(
          isDesktopLayout(!isDesktopUserAgent(userAgent), width) ? 'desktop' : 'mobile',
        );
    expect(boot(DESKTOP, 390, null).layout).toBe('mobile');
    expect(boot(DESKTOP, 1366, null).layout).toBe('desktop');
    expect(boot(PHONE, 1366, null).layout).toBe('mobile');
    // The board is a phone's: a narrow desktop window opens on the plain first paint.
    expect(boot(DESKTOP, 390, null).welcome).toBe(false);
  });

  it('draws the welcome board on a phone until the session has seen it, never on a desktop', () => {
    expect(boot(PHONE, 390, null).welcome).toBe(true);
    expect(boot(PHONE, 390, '1').welcome).toBe(false);
    expect(boot(DESKTOP, 1200, null).welcome).toBe(false);
  });

  it("puts the build's preloads in the head at once, or after the welcome board's paint, and its scripts after the first contentful paint, one task each", () => {
    const script = (src: string): Tag => ({
      localName: 'script',
      attributes: [
        { name: 'type', value: 'module' },
        { name: 'src', value: src },
      ],
    });
    const preload = (href: string): Tag => ({
      localName: 'link',
      attributes: [
        { name: 'rel', value: 'modulepreload' },
        { name: 'href', value: href },
      ],
    });
    const tags = [
      preload('/assets/main-1.js'),
      preload('/assets/api-1.js'),
      script('/assets/api-1.js'),
      script('/assets/main-1.js'),
    ];
    // What boot.js does, in order: the 3 s fallback, the first contentful paint and the task after
    // it; the preloads; the first script, then a task after each script.
    const paint = ['timer 3000', 'paint', 'task'];
    const preloads = ['link', 'link'];
    const scripts = ['script', 'task', 'script', 'task'];
    // The page first (the welcome board seen, or a desktop): the preloads at once, before the first
    // paint. The board first: the preloads in the task after its paint.
    for (const [userAgent, width, seen, steps] of [
      [PHONE, 390, null, [...paint, ...preloads, ...scripts]],
      [PHONE, 390, '1', [...preloads, ...paint, ...scripts]],
      [DESKTOP, 1200, null, [...preloads, ...paint, ...scripts]],
    ] as const) {
      const started = boot(userAgent, width, seen, tags);
      expect(started.added).toEqual([tags[0], tags[1], tags[2], tags[3]]);
      expect(started.steps).toEqual(steps);
    }
    // vite's dev server keeps the page's own module script, and nothing is added.
    expect(boot(PHONE, 390, null).added).toEqual([]);
    expect(boot(PHONE, 390, '1').added).toEqual([]);
  });

  it('shows a first screen the build drew only to a signed-out reader of its language in its layout, and fetches the app once it is on screen', () => {
    const entry: Tag[] = [
      { localName: 'link', attributes: [{ name: 'rel', value: 'modulepreload' }] },
      { localName: 'script', attributes: [{ name: 'src', value: '/assets/main-1.js' }] },
    ];
    const shown = (userAgent: string, page: Parameters<typeof boot>[4], width = 390) =>
      boot(userAgent, width, '1', entry, { firstScreen: 'ar mobile', ...page });
    const drawn = shown(PHONE, { language: 'ar' });
    expect(drawn.firstScreen).toBe(true);
    // The app's preloads wait for the first screen's paint, as they wait for the welcome board's.
    expect(drawn.steps).toEqual(['timer 3000', 'paint', 'task', 'link', 'script', 'task']);
    // Another language, the other layout, a signed-in visitor: hidden, the plain first paint, and
    // the app fetched at once.
    for (const hidden of [
      shown(PHONE, { language: 'en' }),
      shown(PHONE, {}),
      shown(DESKTOP, { language: 'ar' }, 1366),
      // A narrow desktop window is in the mobile layout: the screen the server drew for its user
      // agent (the desktop one) is not what the app draws there.
      boot(DESKTOP, 390, '1', entry, { firstScreen: 'ar desktop', language: 'ar' }),
      shown(PHONE, { language: 'ar', signedIn: true }),
    ]) {
      expect(hidden.firstScreen).toBe(false);
      expect(hidden.steps.slice(0, 2)).toEqual(['link', 'timer 3000']);
    }
    expect(boot(PHONE, 390, '1', entry, { language: 'ar' }).firstScreen).toBe(false);
    expect(shown(DESKTOP, { language: 'ar' }).firstScreen).toBe(true);
    // The build draws for the demo book: a signed-out visitor on the live book gets the plain paint.
    expect(shown(PHONE, { language: 'ar', virtual: '0' }).firstScreen).toBe(false);
  });

  it("fetches the screen of the path the page opens on with the entry, in the app's language, and nothing for a path of the entry", () => {
    const entry: Tag[] = [
      { localName: 'link', attributes: [{ name: 'rel', value: 'modulepreload' }] },
      { localName: 'script', attributes: [{ name: 'src', value: '/assets/main-1.js' }] },
    ];
    // As the build writes it: the files, then the routes most specific first, each with its
    // chunks and stylesheets and its feature's texts per language.
    const routes = JSON.stringify([
      ['Plans-1.js', 'Product-1.js', 'smart-1.css', 'en-1.js', 'ar-1.js'],
      [
        ['^/trading/plans/?$', [0], {}],
        ['^/trading/[^/]+/?$', [2, 1], { en: [3], ar: [4] }],
      ],
    ]);
    const link = (attributes: Record<string, string>): Tag => ({
      localName: 'link',
      attributes: Object.entries(attributes).map(([name, value]) => ({ name, value })),
    });
    const module = (file: string) =>
      link({ rel: 'modulepreload', fetchpriority: 'low', crossorigin: '', href: `/assets/${file}` });
    const opened = (path: string, language?: string) =>
      boot(PHONE, 390, '1', entry, { path, routes, language }).added.filter(
        (tag) => tag.localName === 'link',
      );
    expect(opened('/trading/plans')).toEqual([entry[0], module('Plans-1.js')]);
    expect(opened('/trading/7', 'ar')).toEqual([
      entry[0],
      link({ rel: 'preload', as: 'style', crossorigin: '', href: '/assets/smart-1.css' }),
      module('Product-1.js'),
      module('ar-1.js'),
    ]);
    expect(opened('/trading/7')).toContainEqual(module('en-1.js'));
    expect(opened('/')).toEqual([entry[0]]);
    expect(opened('/trading/7/more')).toEqual([entry[0]]);
  });

  it("sends the first call of the screen the page opens on, with the headers the app's own call carries, when the app's chunks are fetched", () => {
    const entry: Tag[] = [
      { localName: 'link', attributes: [{ name: 'rel', value: 'modulepreload' }] },
      { localName: 'script', attributes: [{ name: 'src', value: '/assets/main-1.js' }] },
    ];
    const info = CUSTOMER_API_BASE + callRoutes().getMarketInfo[1];
    // As the build writes it: a route's first call is its URL path and each parameter's source,
    // the page's query (a name) or a group of the route's pattern (a number).
    const routes = JSON.stringify([
      ['Currency-1.js', 'Product-1.js'],
      [
        ['^/cruuency/?$', [0], {}, [info, { id: 'id' }]],
        ['^/trading/([^/]+)/?$', [1], {}, ['/swx/customer/smart/:productId', { productId: 1 }]],
      ],
      { languages: LANGUAGE_TAGS, timeout: REQUEST_TIMEOUT_MS },
    ]);
    const open = (
      path: string,
      search: string,
      page: Parameters<typeof boot>[4] = {},
      seen: string | null = '1',
    ) => boot(PHONE, 390, seen, entry, { path, search, routes, ...page });
    const url = info.replace(':id', '7');
    // Signed out in English on the demo book; signed in, in Arabic, on the live book.
    for (const [page, state] of [
      [{}, { language: 'en', virtual: 1, token: null }],
      [
        { language: 'ar', signedIn: true, virtual: '0' },
        { language: 'ar', virtual: 0, token: 'a-token' },
      ],
    ] as const) {
      const opened = open('/cruuency', '?code=EURUSD&id=7', page);
      const headers = { accept: 'application/json', ...requestHeaders(state) };
      expect(opened.fetched).toEqual([{ url, init: { headers, signal: `timeout ${REQUEST_TIMEOUT_MS}` } }]);
      expect(opened.firstCall).toMatchObject({ url, headers, at: 5 });
    }
    // A path parameter, as the router reads it (decoded), encoded as the app's client fills it.
    expect(open('/trading/a%20b', '').fetched.map((request) => request.url)).toEqual([
      '/swx/customer/smart/a%20b',
    ]);
    // Nothing without the parameter, in a language the app does not have, or on another screen.
    expect(open('/cruuency', '?code=EURUSD').fetched).toEqual([]);
    expect(open('/cruuency', '?id=7', { language: 'xx' }).fetched).toEqual([]);
    expect(open('/market', '?id=7').fetched).toEqual([]);
    // With the app's chunks: at once when the app draws the page, after the welcome board's paint.
    expect(open('/cruuency', '?id=7').steps.slice(0, 2)).toEqual(['fetch', 'link']);
    expect(open('/cruuency', '?id=7', {}, null).steps.slice(0, 5)).toEqual([
      'timer 3000',
      'paint',
      'task',
      'fetch',
      'link',
    ]);
  });

  it('takes the answer a screen drawn with its data carries when it is the call the app would send, and shows that screen only then', async () => {
    const entry: Tag[] = [{ localName: 'script', attributes: [{ name: 'src', value: '/assets/main-1.js' }] }];
    const info = CUSTOMER_API_BASE + callRoutes().getMarketInfo[1];
    const routes = JSON.stringify([
      ['Currency-1.js'],
      [['^/cruuency/?$', [0], {}, [info, { id: 'id' }]]],
      { languages: LANGUAGE_TAGS, timeout: REQUEST_TIMEOUT_MS },
    ]);
    const url = info.replace(':id', '7');
    // As the server draws it (prerender.tsx drawScreen): signed out, on the demo book.
    const drawnCall = (language: 'en' | 'ar', id = '7') =>
      JSON.stringify({
        url: info.replace(':id', id),
        headers: { accept: 'application/json', ...requestHeaders({ language, virtual: 1, token: null }) },
        status: 200,
        body: '{"code":200,"msg":"Success","data":{"id":7}}',
      });
    const open = (page: Parameters<typeof boot>[4]) =>
      boot(PHONE, 390, '1', entry, { path: '/cruuency', search: '?id=7', routes, ...page });

    for (const language of ['en', 'ar'] as const) {
      const drawn = open({ language, firstScreen: `${language} mobile`, drawnCall: drawnCall(language) });
      expect(drawn.firstScreen).toBe(true);
      expect(drawn.fetched).toEqual([]);
      expect(drawn.firstCall).toMatchObject({ url, drawn: true });
      const response = await drawn.firstCall?.response;
      expect(response?.status).toBe(200);
      expect(await response?.json()).toEqual({ code: 200, msg: 'Success', data: { id: 7 } });
    }
    // Signed in, on the live book, another instrument's answer, an unreadable one: the call is
    // sent, and the screen stays hidden (the app would draw it otherwise).
    for (const page of [
      { signedIn: true, drawnCall: drawnCall('en') },
      { virtual: '0', drawnCall: drawnCall('en') },
      { drawnCall: drawnCall('en', '8') },
      { drawnCall: '{' },
    ]) {
      const opened = open({ language: 'en', firstScreen: 'en mobile', ...page });
      expect(opened.firstScreen).toBe(false);
      expect(opened.fetched.map((request) => request.url)).toEqual([url]);
      expect(opened.firstCall).not.toHaveProperty('drawn');
    }
  });
});
