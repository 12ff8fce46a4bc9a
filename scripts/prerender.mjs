// Draws each route's first screen into the built web app at build time (scripts/lib.mjs runs it
// after localizeShell): for every path of apps/web/src/prerender.tsx's FIRST_SCREEN_PATHS, every
// language and both layouts, the app's own components render the screen a signed-out visitor first
// sees (no data yet) through Vite's SSR module loader, and the page of that language
// (index.<language>.html) is written with it in #root and the screen's stylesheets in the head:
// dist/first/<mobile|desktop>/<language>/<path>.html, listed in dist/first/pages.json (path: its
// file). The server sends it for that path (apps/server/src/app.ts, webPage), so the screen is on
// screen before the app's script runs; boot.js keeps it hidden when the visitor is signed in or
// reads another language or layout, and the app's first commit replaces it with the same elements.
// Usage: node scripts/prerender.mjs <dist>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'vite';
import { LANGUAGES } from '../packages/contract/src/languages.ts';
import { root } from './lib.mjs';

process.env.NODE_ENV = 'production';
const dist = process.argv[2];
if (!dist) throw new Error('usage: node scripts/prerender.mjs <dist>');
const web = join(root, 'apps', 'web');

/** The file a path's first screen is written to, under first/<layout>/<language>/. */
const firstScreenFile = (path) => `${path === '/' ? 'index' : path.slice(1).replaceAll('/', '.')}.html`;

const vite = await createServer({
  root: web,
  configFile: join(web, 'vite.config.ts'),
  mode: 'production',
  logLevel: 'warn',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
});
try {
  const { renderFirstScreen, FIRST_SCREEN_PATHS } = await vite.ssrLoadModule('/src/prerender.tsx');
  const template = readFileSync(join(dist, 'index.html'), 'utf8');
  // The route table the build wrote for boot.js: each lazy screen's chunks and stylesheets.
  const [files, routes] = JSON.parse(/data-routes='([^']*)'/.exec(template)?.[1] ?? 'null');
  for (const language of LANGUAGES) {
    const page = readFileSync(
      join(dist, language === 'en' ? 'index.html' : `index.${language}.html`),
      'utf8',
    );
    for (const layout of ['mobile', 'desktop']) {
      const folder = join(dist, 'first', layout, language);
      mkdirSync(folder, { recursive: true });
      for (const path of FIRST_SCREEN_PATHS) {
        const html = await renderFirstScreen(path, language, layout === 'desktop');
        // The security policy (platform/security.ts) allows no inline script or style attribute.
        if (/<script|\sstyle="/.test(html))
          throw new Error(`${path} (${language}): an inline script or style`);
        const route = routes.find(([pattern]) => new RegExp(pattern).test(path));
        const styles = (route?.[1] ?? [])
          .map((index) => files[index])
          .filter((file) => file.endsWith('.css'))
          .map((file) => `<link rel="stylesheet" crossorigin href="/assets/${file}">`)
          .join('');
        const drawn = page
          .replace(
            /<html lang="([^"]*)" dir="([^"]*)">/,
            `<html lang="$1" dir="$2" data-first-screen="${language} ${layout}">`,
          )
          .replace('</head>', `${styles}</head>`)
          // Inert until the app's first commit (boot.ts endBoot): nothing typed into it is lost.
          .replace('<div id="root"></div>', `<div id="root" inert>${html}</div>`);
        if (!drawn.includes(`data-first-screen="${language} ${layout}"`) || !drawn.includes(html))
          throw new Error(`index.${language}.html: no <html lang dir> or empty #root to draw ${path} in`);
        writeFileSync(join(folder, firstScreenFile(path)), drawn);
      }
    }
  }
  // Each path's file, for the server.
  const pages = Object.fromEntries(FIRST_SCREEN_PATHS.map((path) => [path, firstScreenFile(path)]));
  writeFileSync(join(dist, 'first', 'pages.json'), JSON.stringify(pages));
} finally {
  await vite.close();
}
