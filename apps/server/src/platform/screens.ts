import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Language } from '@swx/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';

type Layout = 'mobile' | 'desktop';
/** At most this many pages drawn or waiting at once (a draw takes a few ms). */
const MAX_WAITING = 8;
type DrawnCall = { url: string; headers: Record<string, string>; status: number; body: string };

/** What the web app's server build (apps/web/src/prerender.tsx, built to dist-server) gives the server. */
type ScreenBuild = {
  drawsWithData(url: string): boolean;
  drawScreen(
    url: string,
    language: Language,
    layout: Layout,
    answer: (url: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>,
  ): Promise<{ html: string; call: DrawnCall } | null>;
  firstScreenPage(
    page: string,
    screen: { path: string; language: Language; layout: Layout; html: string; call?: DrawnCall },
  ): string;
};

/**
 * The screens the server draws with their data, per request (the instrument page: its figures are
 * in the page, not after the app has loaded and asked for them). The web app's own components
 * draw them, from its server build; without that build (the app not built), nothing is drawn.
 */
export class ScreenDrawer {
  private readonly pages = new Map<Language, string>();
  /** Pages being drawn or waiting to be. */
  private waiting = 0;

  private readonly build: ScreenBuild;
  private readonly webDist: string;

  private constructor(build: ScreenBuild, webDist: string) {
    this.build = build;
    this.webDist = webDist;
  }

  /** The drawer of the built web app at `webDist`, with its server build at `serverBuild`; null without them. */
  static async open(webDist: string, serverBuild: string): Promise<ScreenDrawer | null> {
    const entry = join(serverBuild, 'prerender.js');
    if (!existsSync(entry) || !existsSync(join(webDist, 'index.html'))) return null;
    // The build imports React, which picks its build by NODE_ENV when first loaded: the server is a
    // production process, so React's production build unless the environment names another (the
    // development build drew the instrument page in 16-17 ms against 12-13, with its checks on).
    process.env.NODE_ENV ??= 'production';
    const build = (await import(pathToFileURL(entry).href)) as ScreenBuild;
    return new ScreenDrawer(build, webDist);
  }

  /**
   * The page of `request`'s URL with its screen drawn with its data, in the reader's language and
   * layout, as a signed-out visitor on the demo book sees it (boot.js shows it to no one else).
   * The screen's call is answered in process as the visitor's own request (its address: the rate
   * limit is the visitor's, as if the browser had sent it). `null` when the URL names no such
   * screen, or the call failed: the plain page then.
   */
  async page(
    server: FastifyInstance,
    request: FastifyRequest,
    language: Language,
    layout: Layout,
  ): Promise<string | null> {
    if (!this.build.drawsWithData(request.url)) return null;
    // Screens are drawn one at a time; past a few waiting, the plain page (the app asks itself)
    // rather than a queue that grows with the load.
    if (this.waiting >= MAX_WAITING) return null;
    this.waiting += 1;
    try {
      const drawn = await this.build.drawScreen(request.url, language, layout, async (url, headers) => {
        const answer = await server.inject({ method: 'GET', url, headers, remoteAddress: request.ip });
        return { status: answer.statusCode, body: answer.body };
      });
      if (!drawn) return null;
      const path = request.url.split('?')[0] ?? '/';
      return this.build.firstScreenPage(this.languagePage(language), { path, language, layout, ...drawn });
    } catch (error) {
      request.log.error({ err: error }, 'the screen could not be drawn; the plain page is sent');
      return null;
    } finally {
      this.waiting -= 1;
    }
  }

  private languagePage(language: Language): string {
    let page = this.pages.get(language);
    if (page === undefined) {
      page = readFileSync(
        join(this.webDist, language === 'en' ? 'index.html' : `index.${language}.html`),
        'utf8',
      );
      this.pages.set(language, page);
    }
    return page;
  }
}
