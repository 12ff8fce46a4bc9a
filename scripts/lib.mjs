// Helpers shared by the task scripts (start, test, build, dev). They run on Node 24.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { isRtl, LANGUAGE_TAGS, LANGUAGES } from '../packages/contract/src/languages.ts';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a command to completion with inherited output; returns its exit code. */
export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

export function must(cmd, args, options = {}) {
  const code = run(cmd, args, options);
  if (code !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} exited with ${code}`);
    process.exit(code);
  }
}

export function startProcess(cmd, args, options = {}) {
  return spawn(cmd, args, { cwd: root, stdio: 'inherit', ...options });
}

/** Builds both front ends with Vite (production). */
export function buildApps() {
  const vite = bin('vite').replace(/\.bin\/vite$/, 'vite/bin/vite.js');
  for (const app of ['web', 'admin']) {
    must(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: join(root, 'apps', app) });
    if (app === 'web') {
      // The app's server side (src/prerender.tsx): the build draws the first screens with it, and
      // the server the screens whose data a URL names.
      must(process.execPath, [vite, 'build', '--ssr', 'src/prerender.tsx', '--logLevel', 'warn'], {
        cwd: join(root, 'apps', app),
      });
      offlinePage(join(root, 'apps', app, 'dist'));
      localizeShell(join(root, 'apps', app, 'dist'));
      must(process.execPath, [
        join(root, 'scripts', 'prerender.mjs'),
        join(root, 'apps', app, 'dist'),
        join(root, 'apps', app, 'dist-server'),
      ]);
      serviceWorker(join(root, 'apps', app, 'dist'));
    }
    precompress(join(root, 'apps', app, 'dist'));
  }
}

/**
 * Writes the web app's page in every language: `index.<language>.html` (English stays
 * `index.html`) with `lang`, `dir` and each `<!--t:key-->…<!--/t-->` of the first-paint shell
 * from the app's locale files; the server sends the one of the reader's language (its cookie).
 */
export function localizeShell(dist) {
  const page = readFileSync(join(dist, 'index.html'), 'utf8');
  for (const language of LANGUAGES) {
    const texts = JSON.parse(
      readFileSync(join(root, 'apps', 'web', 'src', 'locales', `${language}.json`), 'utf8'),
    );
    const localized = page
      .replace(
        /<html lang="[^"]*" dir="[^"]*">/,
        `<html lang="${LANGUAGE_TAGS[language]}" dir="${isRtl(language) ? 'rtl' : 'ltr'}">`,
      )
      .replace(/<!--t:([\w.]+)-->.*?<!--\/t-->/g, (_, key) => {
        const text = key.split('.').reduce((node, part) => node?.[part], texts);
        if (typeof text !== 'string')
          throw new Error(`${language}.json has no text ${key} for the page's shell`);
        return htmlText(text);
      });
    writeFileSync(join(dist, language === 'en' ? 'index.html' : `index.${language}.html`), localized);
  }
}

/**
 * Writes offline.html, the page the service worker shows without a network: the first-paint shell
 * with the offline message in every language (apps/web/src/offline/locales), offline.js showing
 * the reader's; no app script.
 */
export function offlinePage(dist) {
  const page = readFileSync(join(dist, 'index.html'), 'utf8');
  const messages = LANGUAGES.map((language) => {
    const text = JSON.parse(
      readFileSync(join(root, 'apps', 'web', 'src', 'offline', 'locales', `${language}.json`), 'utf8'),
    );
    const attributes = `data-language="${language}" lang="${LANGUAGE_TAGS[language]}" dir="${isRtl(language) ? 'rtl' : 'ltr'}"${language === 'en' ? '' : ' hidden'}`;
    return `<div ${attributes}><h1>${htmlText(text.title)}</h1><p>${htmlText(text.text)}</p></div>`;
  }).join('');
  const offline = page
    .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
    .replace(/\s*<script src="\/boot\.js"><\/script>/, '')
    .replace(/\s*<template id="app">[\s\S]*?<\/template>/, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace('</head>', '  <script src="/offline.js" defer></script>\n  </head>')
    .replace(/<main class="boot-main">.*?<\/main>/, `<main class="boot-main">${messages}</main>`);
  writeFileSync(join(dist, 'offline.html'), offline);
}

/** Writes the shell's files and a version from their names (hashed) into the built sw.js. */
export function serviceWorker(dist) {
  const page = readFileSync(join(dist, 'offline.html'), 'utf8');
  const styles = [...page.matchAll(/href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]);
  const shell = [
    '/offline.html',
    '/offline.js',
    ...styles,
    '/favicon.svg',
    '/icon.svg',
    '/icon-192.png',
    '/icon-512.png',
    '/manifest.webmanifest',
  ];
  const version = createHash('sha256').update(page).update(shell.join()).digest('hex').slice(0, 16);
  const file = join(dist, 'sw.js');
  const source = readFileSync(file, 'utf8');
  const built = source
    .replace('const SHELL = [];', `const SHELL = ${JSON.stringify(shell)};`)
    .replace("const VERSION = 'dev';", `const VERSION = '${version}';`);
  if (built === source) throw new Error('sw.js: no SHELL and VERSION to fill in');
  writeFileSync(file, built);
}

const htmlText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Text files the server sends compressed; smaller ones gain nothing worth a second file. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.webmanifest', '.xml']);
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best) and `<file>.gz` (gzip -9) beside every text asset of a built
 * app (Vite has emptied dist first), once at build time; the server picks one by the request's Accept-Encoding (@fastify/static's
 * preCompressed), so nothing is compressed per request.
 */
export function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  }
}
