import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

const page = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** A string literal, or literals joined by `+`, as the contract writes a call's summary. */
const SUMMARY =
  /summary:\s*(?:'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)(?:\s*\+\s*(?:'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`))*/g;

/**
 * The contract's call summaries document the API (/swx/openapi.json, built by the server); the
 * customer app never reads them, so its build leaves them empty rather than ship every sentence.
 */
function dropCallSummaries(): Plugin {
  return {
    name: 'swx-drop-call-summaries',
    enforce: 'pre',
    transform(code, id) {
      if (!/packages[\\/]contract[\\/]src[\\/].*\.ts$/.test(id) || !code.includes('summary')) return null;
      return { code: code.replace(SUMMARY, "summary: ''"), map: null };
    },
  };
}

/**
 * Each lazily loaded screen's chunks and stylesheets, beside a pattern of its route's path, for
 * boot.js to fetch with the entry's when the page opens on that route (a deep link, a reload)
 * instead of once the app has run and rendered up to the screen. Read from routes.ts itself (Node
 * strips its types): a loader's source names the module it imports. More specific paths first,
 * as the router ranks them (`/trading/plans` before `/trading/:productId`). A route's first call
 * (routes.ts `firstCall`) adds the chunk of its schemas and what boot.js needs to send it: its URL
 * path and each path parameter's source (a name: the page's query; a number: the pattern's group),
 * with the app's language tags and request timeout. As compact JSON: `[files, [[pattern, [file
 * index, ...], {language: [file index, ...]}, [path, {parameter: source}]?], ...], {languages,
 * timeout}]`, file names relative to /assets/.
 */
async function routeChunks(bundle: OutputBundle, entryFiles: Set<string>): Promise<string> {
  const routesFile = page('src/app/routes.ts');
  const { ROUTES, loadPassShell } = (await import(
    pathToFileURL(routesFile).href
  )) as typeof import('./src/app/routes.ts');
  const contract = (await import(
    pathToFileURL(page('../../packages/contract/src/index.ts')).href
  )) as typeof import('../../packages/contract/src/index.ts');
  const callRoutes = contract.callRoutes();
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const files: string[] = [];
  const indexOf = (file: string) => {
    if (!file.startsWith('assets/')) throw new Error(`${file}: not under assets/`);
    if (!files.includes(file)) files.push(file);
    return files.indexOf(file);
  };
  type FirstCall = [path: string, sources: Record<string, string | number>];
  const routes: {
    pattern: string;
    rank: number;
    files: number[];
    texts: Record<string, number[]>;
    firstCall?: FirstCall;
  }[] = [];
  /** The chunk a loader of routes.ts imports. */
  const chunkOf = (load: () => Promise<unknown>, what: string, from?: string) => {
    const specifier = /import\(\s*['"]([^'"]+)['"]\s*\)/.exec(load.toString())?.[1];
    if (!specifier) throw new Error(`routes.ts: no import in the loader of ${what}`);
    // A feature's loader imports relative to its own routes.ts (featureRoutes stamps it).
    const module = resolve(dirname(from ? fileURLToPath(from) : routesFile), specifier);
    const chunk = chunks.find((c) => c.isDynamicEntry && c.facadeModuleId === module);
    if (!chunk) throw new Error(`routes.ts: no chunk for ${module} (${what})`);
    return chunk;
  };
  for (const route of ROUTES) {
    if (typeof route.view !== 'object' || !('load' in route.view)) continue;
    const scripts: string[] = [];
    const styles = new Set<string>();
    // A feature's texts (features/*/locales/<language>.json), loaded by its screens: per language.
    const texts: Record<string, number[]> = {};
    const visit = (c: OutputChunk) => {
      if (entryFiles.has(c.fileName) || scripts.includes(c.fileName)) return;
      scripts.push(c.fileName);
      for (const css of c.viteMetadata?.importedCss ?? []) styles.add(css);
      for (const name of c.imports) {
        const imported = bundle[name];
        if (imported?.type === 'chunk') visit(imported);
      }
      for (const name of c.dynamicImports) {
        const imported = bundle[name];
        if (imported?.type !== 'chunk') continue;
        const language = /[\\/]locales[\\/](\w+)\.json$/.exec(imported.facadeModuleId ?? '')?.[1];
        if (language)
          texts[language] = [...new Set([...(texts[language] ?? []), indexOf(imported.fileName)])];
      }
    };
    visit(chunkOf(route.view.load, route.path, route.view.from));
    // Login, register and reset are drawn in a shell of their own, a chunk loaded with them.
    if (route.chrome === 'pass') visit(chunkOf(loadPassShell, 'the pass shell'));
    const segments = route.path.split('/').filter(Boolean);
    const pattern = `^/${segments.map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`;
    let firstCall: FirstCall | undefined;
    if (route.firstCall) {
      const { name, params } = route.firstCall;
      const [method, path, domain] = callRoutes[name];
      if (method !== 'GET') throw new Error(`routes.ts: ${route.path}'s first call ${name} is not a GET`);
      const names = segments.filter((part) => part.startsWith(':')).map((part) => part.slice(1));
      const sources: Record<string, string | number> = {};
      for (const [, parameter = ''] of path.matchAll(/:([A-Za-z]+)/g)) {
        const source = params[parameter] ?? '';
        if (source.startsWith('?')) sources[parameter] = source.slice(1);
        else if (source.startsWith(':') && names.includes(source.slice(1)))
          sources[parameter] = names.indexOf(source.slice(1)) + 1;
        else throw new Error(`routes.ts: ${route.path}'s first call ${name}: no source for :${parameter}`);
      }
      firstCall = [contract.CUSTOMER_API_BASE + path, sources];
      // Its schemas (the contract's domain module), fetched with the screen's chunks.
      const schemas = page(`../../packages/contract/src/calls/${domain}.ts`);
      const chunk = chunks.find((c) => c.moduleIds.includes(schemas));
      if (!chunk) throw new Error(`routes.ts: no chunk for the ${domain} calls (${route.path})`);
      visit(chunk);
    }
    routes.push({
      pattern,
      rank: segments.filter((part) => !part.startsWith(':')).length,
      files: [...styles, ...scripts].map(indexOf),
      texts,
      ...(firstCall ? { firstCall } : {}),
    });
  }
  const table = [
    files.map((file) => file.slice('assets/'.length)),
    routes
      .sort((a, b) => b.rank - a.rank)
      .map((route) => [
        route.pattern,
        route.files,
        route.texts,
        ...(route.firstCall ? [route.firstCall] : []),
      ]),
    { languages: contract.LANGUAGE_TAGS, timeout: contract.REQUEST_TIMEOUT_MS },
  ];
  // An attribute's value in single quotes: nothing in it is a quote or an ampersand.
  const json = JSON.stringify(table);
  if (/['&]/.test(json)) throw new Error('route chunks: a quote or an ampersand in a file name or path');
  return json;
}

/**
 * The page's first paint is drawn before the app's script is evaluated, and the app's chunks are
 * evaluated one task each: the built index.html keeps, inert in `<template id="app">` before
 * public/boot.js, the entry's module preloads (low priority: they never hold up the first paint)
 * and one module script per chunk of the entry's static graph, in the order a single module script
 * would evaluate them (each chunk after what it imports, imports in order). boot.js puts the
 * preloads in the head at once when the app must draw the page, or once the first contentful paint
 * is on screen when that paint is the welcome board; then, after the first contentful paint, the
 * scripts one after another, each once the one before ran.
 */
function startAfterFirstPaint(): Plugin {
  const APP_TAGS =
    /\s*<script type="module" crossorigin src="[^"]+"><\/script>(?:\s*<link rel="modulepreload" crossorigin href="[^"]+">)*/;
  return {
    name: 'swx-start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html, context) {
        if (!context.filename.endsWith('index.html')) return html;
        const tags = APP_TAGS.exec(html)?.[0];
        const bundle = context.bundle as OutputBundle | undefined;
        if (!tags || !context.chunk || !bundle)
          throw new Error('index.html: no module script to start after the first paint');
        const order: string[] = [];
        const visit = (chunk: OutputChunk) => {
          if (order.includes(chunk.fileName)) return;
          order.push(chunk.fileName); // marks it; moved to its evaluation place below
          for (const name of chunk.imports) {
            const imported = bundle[name];
            if (imported?.type === 'chunk') visit(imported);
          }
          order.splice(order.indexOf(chunk.fileName), 1);
          order.push(chunk.fileName);
        };
        visit(context.chunk);
        const preloads = `<link rel="modulepreload" crossorigin href="/${context.chunk.fileName}">${tags
          .trim()
          .replace(/^<script[^>]*><\/script>\s*/, '')}`.replaceAll(
          '<link rel="modulepreload"',
          '<link rel="modulepreload" fetchpriority="low"',
        );
        const scripts = order
          .map((file) => `<script type="module" crossorigin src="/${file}"></script>`)
          .join('');
        const boot = '<script src="/boot.js"></script>';
        if (!html.includes(boot)) throw new Error('index.html: no boot.js to start the app');
        // Before boot.js, which reads it as it runs.
        const routes = await routeChunks(bundle, new Set(order));
        return html
          .replace(tags, '')
          .replace(
            boot,
            `<template id="app" data-routes='${routes}'>${preloads}${scripts}</template>\n    ${boot}`,
          );
      },
    },
  };
}

/**
 * `virtual:swx/call-routes`: every call's method, path and domain (the contract's `callRoutes()`,
 * computed here in Node), so the app sends a call at once and loads the call's schemas with its
 * domain's module instead of building every schema of the contract when it starts.
 */
export function callRoutesModule(): Plugin {
  const id = 'virtual:swx/call-routes';
  return {
    name: 'swx-call-routes',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    async load(source) {
      if (source !== `\0${id}`) return null;
      const contract = pathToFileURL(page('../../packages/contract/src/calls.ts')).href;
      const { callRoutes } = (await import(
        contract
      )) as typeof import('../../packages/contract/src/calls.ts');
      return `export const CALL_ROUTES = ${JSON.stringify(callRoutes())};`;
    },
  };
}

/**
 * The page titles every shell shows (document title, mobile bar, page heading) load with the app in
 * each language, but each feature keeps its own: `features/<f>/titles/<language>.json`, a flat map
 * of a route's title key to its text. Loading the app's `locales/<language>.json`, this merges every
 * feature's titles for that language into its `title` group (a key given twice fails the build),
 * so a new screen's title is written in its feature's folder only.
 */
export function featureTitles(): Plugin {
  const features = page('src/features');
  const appLocale = /[\\/]apps[\\/]web[\\/]src[\\/]locales[\\/](\w+)\.json$/;
  return {
    name: 'swx-feature-titles',
    enforce: 'pre',
    load(id) {
      const language = appLocale.exec(id)?.[1];
      if (!language) return null;
      const texts = JSON.parse(readFileSync(id, 'utf8')) as { title?: Record<string, string> };
      const title: Record<string, string> = { ...texts.title };
      for (const feature of readdirSync(features).sort()) {
        const file = join(features, feature, 'titles', `${language}.json`);
        let own: Record<string, string>;
        try {
          own = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || code === 'ENOTDIR') continue;
          throw error;
        }
        this.addWatchFile(file);
        for (const [key, text] of Object.entries(own)) {
          if (key in title) throw new Error(`${file}: the title ${key} is given twice`);
          title[key] = text;
        }
      }
      return JSON.stringify({ ...texts, title });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [dropCallSummaries(), callRoutesModule(), featureTitles(), react(), startAfterFirstPaint()],
  base: '/',
  build: {
    // `vite build --ssr src/prerender.tsx`: the app's server side (the build's and the server's
    // first screens), beside the app and never served: no public files, no manifest.
    ...(isSsrBuild ? { outDir: 'dist-server', copyPublicDir: false } : { manifest: true }),
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // The app, and the customer-service page (spec §7), a page of its own on the same tokens.
    rollupOptions: {
      input: { main: page('index.html'), service: page('service.html') },
      // Reading a property has no side effect in this code or its libraries, so a module-level
      // object built from others' properties (the contract's staff calls, which spread each
      // review kind's calls) is dropped when unused instead of shipping every staff schema.
      treeshake: { propertyReadSideEffects: false },
      // The contract's money helpers, its code catalogue and the products' plain facts in chunks of
      // their own: the first screens format prices and read answers' codes with them, the loan and
      // earn screens their states, and left to itself the bundler
      // puts them in the chunk of a domain's calls (the finance calls', the review calls' that
      // name their refusals), whose schemas would then be built as the app starts
      // (scripts/budget.mjs refuses that).
      output: {
        codeSplitting: {
          groups: [
            { name: 'money', test: /packages[\\/]contract[\\/]src[\\/]money\.ts$/ },
            { name: 'codes', test: /packages[\\/]contract[\\/]src[\\/]codes\.ts$/ },
            { name: 'facts', test: /packages[\\/]contract[\\/]src[\\/](loan|earn|support)Facts\.ts$/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/swx': 'http://localhost:8080',
      '/message': { target: 'ws://localhost:8080', ws: true },
    },
  },
}));
