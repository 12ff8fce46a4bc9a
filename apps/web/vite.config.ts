import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
 * The page's first paint is drawn before the app's script is fetched or evaluated: the built
 * index.html keeps the entry's module script and module preloads inert in `<template id="app">`,
 * and public/boot.js puts them in the head once the first frame is on screen.
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
        if (!tags) throw new Error('index.html: no module script to start after the first paint');
        return html
          .replace(tags, '')
          .replace('</head>', `  <template id="app">${tags.trim()}</template>\n  </head>`);
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
