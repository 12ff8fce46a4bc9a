import { fileURLToPath } from 'node:url';
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
      handler(html, context) {
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
        return html
          .replace(tags, '')
          .replace(boot, `<template id="app">${preloads}${scripts}</template>\n    ${boot}`);
      },
    },
  };
}

export default defineConfig({
  plugins: [dropCallSummaries(), react(), startAfterFirstPaint()],
  base: '/',
  build: {
    manifest: true,
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
    },
  },
  server: {
    proxy: {
      '/swx': 'http://localhost:8080',
      '/message': { target: 'ws://localhost:8080', ws: true },
    },
  },
});
