// Draws each route's first screen into the built web app at build time (scripts/lib.mjs runs it
// after localizeShell): for every path of apps/web/src/prerender.tsx's FIRST_SCREEN_PATHS, every
// language and both layouts, the app's own components render the screen a signed-out visitor first
// sees (no data yet) through the app's server build (apps/web/dist-server, `vite build --ssr`), and
// the page of that language (index.<language>.html) is written with it in #root and the screen's
// stylesheets in the head: dist/first/<mobile|desktop>/<language>/<path>.html, listed in
// dist/first/pages.json (path: its file). The server sends it for that path (apps/server/src/app.ts,
// webPage), so the screen is on screen before the app's script runs; boot.js keeps it hidden when
// the visitor is signed in or reads another language or layout, and the app's first commit replaces
// it with the same elements.
// Usage: node scripts/prerender.mjs <dist> <server build>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LANGUAGES } from '../packages/contract/src/languages.ts';

process.env.NODE_ENV = 'production';
const [dist, serverBuild] = process.argv.slice(2);
if (!dist || !serverBuild) throw new Error('usage: node scripts/prerender.mjs <dist> <server build>');

/** The file a path's first screen is written to, under first/<layout>/<language>/. */
const firstScreenFile = (path) => `${path === '/' ? 'index' : path.slice(1).replaceAll('/', '.')}.html`;

const { renderFirstScreen, firstScreenPage, FIRST_SCREEN_PATHS } = await import(
  pathToFileURL(join(serverBuild, 'prerender.js')).href
);
for (const language of LANGUAGES) {
  const page = readFileSync(join(dist, language === 'en' ? 'index.html' : `index.${language}.html`), 'utf8');
  for (const layout of ['mobile', 'desktop']) {
    const folder = join(dist, 'first', layout, language);
    mkdirSync(folder, { recursive: true });
    for (const path of FIRST_SCREEN_PATHS) {
      const html = await renderFirstScreen(path, language, layout);
      writeFileSync(
        join(folder, firstScreenFile(path)),
        firstScreenPage(page, { path, language, layout, html }),
      );
    }
  }
}
// Each path's file, for the server.
const pages = Object.fromEntries(FIRST_SCREEN_PATHS.map((path) => [path, firstScreenFile(path)]));
writeFileSync(join(dist, 'first', 'pages.json'), JSON.stringify(pages));
