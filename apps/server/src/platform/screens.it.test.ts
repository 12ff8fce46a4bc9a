import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const WEB_DIST = join(ROOT, 'apps', 'web', 'dist');
const WEB_SERVER_BUILD = join(ROOT, 'apps', 'web', 'dist-server');

/**
 * Which React build the server draws screens with, in a process of its own (vitest names its own
 * NODE_ENV): the drawer opens the built web app, then the test asks React whether it is the
 * development build (only that one has `act`). Needs the built apps (the integration stage runs
 * after the build).
 */
function reactBuildOfADrawer(nodeEnv: string | undefined): string {
  const script = `
    const { ScreenDrawer } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'screens.ts')).href)});
    const drawer = await ScreenDrawer.open(${JSON.stringify(WEB_DIST)}, ${JSON.stringify(WEB_SERVER_BUILD)});
    if (!drawer) throw new Error('the web app is not built');
    const { createRequire } = await import('node:module');
    const react = createRequire(${JSON.stringify(join(WEB_SERVER_BUILD, 'prerender.js'))})('react');
    console.log(typeof react.act === 'function' ? 'development' : 'production');
  `;
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_ENV;
  if (nodeEnv) env.NODE_ENV = nodeEnv;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env })
    .toString()
    .trim();
}

describe('the screens the server draws', () => {
  it("use React's production build when the environment names none", () => {
    expect(reactBuildOfADrawer(undefined)).toBe('production');
  });

  it('use the build the environment names', () => {
    expect(reactBuildOfADrawer('development')).toBe('development');
  });
});
