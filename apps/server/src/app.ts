import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import {
  API_VERSION,
  buildOpenApi,
  Code,
  isDesktopUserAgent,
  isLanguage,
  type Language,
  languageFromAcceptLanguage,
  messageFor,
} from '@swx/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { QUOTES_TOPIC } from './modules/market/quote-hub.ts';
import { MODULES, type Services } from './modules.ts';
import { movableClock, systemClock } from './platform/clock.ts';
import { installApiConventions, sendCode } from './platform/http.ts';
import { installMetrics } from './platform/metrics.ts';
import { pendingMigrations } from './platform/migrate.ts';
import { createModuleServices, type Platform } from './platform/module.ts';
import { installRequestIds, requestIdOf } from './platform/requestid.ts';
import { ScreenDrawer } from './platform/screens.ts';
import {
  handleClientError,
  installSecurityHeaders,
  securityHeaders,
  websocketOrigin,
} from './platform/security.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const WEB_DIST = join(ROOT, 'apps', 'web', 'dist');
export const ADMIN_DIST = join(ROOT, 'apps', 'admin', 'dist');
/** Brotli for what is compressed per answer: a fast level, not the build's best. */
const FAST_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
/** The web app's server side (its first screens), never served. */
const WEB_SERVER_BUILD = join(ROOT, 'apps', 'web', 'dist-server');

export type { Platform, Services };

export type App = { server: FastifyInstance; services: Services; state: { shuttingDown: boolean } };

/** Every module's services, built in the order of the module list (src/modules.ts). */
export function createServices(platform: Platform): Services {
  // Markets, trading and the products live on this clock; sign-in, codes and locks keep the system's.
  const clock = platform.config.clock === 'movable' ? movableClock() : systemClock;
  return createModuleServices(MODULES, platform, { clock });
}

export async function buildApp(platform: Platform, services = createServices(platform)): Promise<App> {
  const { config } = platform;
  const state = { shuttingDown: false };
  const server = createServer(platform);

  installApiConventions(server, services.identity.resolveSession);
  installSecurityHeaders(server, { publicUrl: config.publicUrl });
  installRequestIds(server);
  observe(server, platform, services);

  server.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/swx/')) return;
    const verdict = await platform.rateLimiter.hit(`api:${request.ip}`, config.apiRateLimit, 60_000);
    if (!verdict.allowed) {
      reply.header('retry-after', Math.ceil(verdict.retryAfterMs / 1000));
      return sendCode(reply, request, Code.TOO_MANY_REQUESTS);
    }
  });

  // Answers above 1 KB are compressed by the request's Accept-Encoding (API JSON at a fast brotli
  // level); built assets are compressed at build time and sent as they are (preCompressed below).
  await server.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: FAST_BROTLI,
  });
  await server.register(fastifyWebsocket, { options: { perMessageDeflate: false, maxPayload: 4096 } });

  mountProbes(server, platform, services, state);
  const openApi = buildOpenApi(API_VERSION);
  server.get('/swx/openapi.json', async () => openApi);

  for (const module of MODULES) module.routes?.(server, services, platform);

  await serveApps(server);
  return { server, services, state };
}

/** The HTTP server, its limits, and the framework's own refusals answered like any call. */
function createServer(platform: Platform): FastifyInstance {
  const { config, logger } = platform;
  return Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A safe x-request-id from a load balancer or another node, else a new one (platform/requestid.ts).
    genReqId: requestIdOf,
    requestTimeout: 90_000,
    // The framework's own refusals answer like any call: the envelope and the security headers.
    clientErrorHandler: handleClientError,
    frameworkErrors: (error, request, fastifyReply) => {
      const reply = fastifyReply as FastifyReply;
      reply.headers(securityHeaders(websocketOrigin(request, config.publicUrl), true));
      const language = languageFromAcceptLanguage(request.headers['accept-language']);
      return reply.status(400).send({
        code: Code.INVALID_INPUT,
        msg: messageFor(Code.INVALID_INPUT, language),
        data: { reason: error.code },
      });
    },
  });
}

/**
 * /metrics and the request counters (platform/metrics.ts); the scrape reads the websocket server,
 * the quote batches this node hears on the bus, and PostgreSQL's pool.
 */
function observe(server: FastifyInstance, platform: Platform, services: Services): void {
  let lastBatchAt: number | null = null;
  platform.bus.subscribe(QUOTES_TOPIC, () => {
    lastBatchAt = Date.now();
  });
  installMetrics(server, {
    token: platform.config.metricsToken,
    rateLimiter: platform.rateLimiter,
    perMinute: platform.config.apiRateLimit,
    sources: {
      // Registered below with the websocket plugin; until then there is none.
      websocketClients: () => (server.websocketServer ? server.websocketServer.clients.size : 0),
      feed: { source: services.market.source.name, lastBatchAt: () => lastBatchAt, since: Date.now() },
      pool: platform.db.poolUse ?? null,
    },
  });
}

/** Liveness (`/healthz`) and readiness (`/readyz`: not while shutting down, nor with migrations pending). */
function mountProbes(
  server: FastifyInstance,
  platform: Platform,
  services: Services,
  state: App['state'],
): void {
  server.get('/healthz', async () => ({ status: 'ok' }));
  server.get('/readyz', async (_request, reply) => {
    if (state.shuttingDown) return reply.status(503).send({ status: 'shutting down' });
    try {
      const pending = await pendingMigrations(platform.db);
      if (pending.length > 0) return reply.status(503).send({ status: 'migrations pending', pending });
      return {
        status: 'ready',
        database: platform.db.kind,
        bus: platform.bus.kind,
        mail: platform.mailer.kind,
        sms: platform.sms.kind,
        files: platform.storage.kind,
        // The sandbox (no real money) or production, and where prices come from.
        sandbox: !platform.config.production,
        marketSource: services.market.source.name,
      };
    } catch {
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
}

/**
 * A built app's files: a route per file, not a wildcard (which would take the API's malformed
 * paths too), but none for the compressed copies (preCompressed finds them beside their file) or
 * what the handler sends itself (`ignore`): about 700 routes, not 8,000, at each start.
 */
function builtFiles(root: string, prefix: string, ignore: string[] = []): FastifyStaticOptions {
  return {
    root,
    prefix,
    wildcard: false,
    globIgnore: [...ignore, '**/*.br', '**/*.gz'],
    index: false,
    preCompressed: true,
    setHeaders: cacheHeaders,
  };
}

/** The built customer app at /, the back office at /admin, each with its index for client routes. */
async function serveApps(server: FastifyInstance): Promise<void> {
  const hasWeb = existsSync(join(WEB_DIST, 'index.html'));
  const hasAdmin = existsSync(join(ADMIN_DIST, 'index.html'));
  if (hasWeb) await server.register(fastifyStatic, builtFiles(WEB_DIST, '/', ['first/**']));
  if (hasAdmin)
    await server.register(fastifyStatic, { ...builtFiles(ADMIN_DIST, '/admin/'), decorateReply: !hasWeb });
  const firstScreens = hasWeb ? readFirstScreens() : new Map<string, string>();
  // Loaded beside the server's start, not before it: the first page that needs it waits for it.
  const drawer = hasWeb
    ? ScreenDrawer.open(WEB_DIST, WEB_SERVER_BUILD).catch((error: unknown) => {
        server.log.error(
          { err: error },
          'the web app server build did not load; no screen is drawn with data',
        );
        return null;
      })
    : Promise.resolve(null);
  server.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/swx/') || request.method !== 'GET' || /\.[a-z0-9]{1,8}$/i.test(path)) {
      return sendCode(reply, request, Code.NOT_FOUND);
    }
    const admin = path === '/admin' || path.startsWith('/admin/');
    if (admin ? !hasAdmin : !hasWeb) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The app is not built yet: run `npm start`, which builds it.');
    }
    reply.header('cache-control', 'no-cache');
    if (admin) return reply.sendFile('index.html', ADMIN_DIST);
    // The page's first paint is in the reader's language (the app keeps it in the swx_lang
    // cookie) and, where the build drew the path's first screen, in the reader's layout.
    reply.header('vary', 'accept-encoding, cookie, user-agent');
    // A screen whose data the URL names (the instrument page) is drawn with that data.
    const language = pageLanguage(request.headers.cookie);
    const layout = isDesktopUserAgent(request.headers['user-agent'] ?? '') ? 'desktop' : 'mobile';
    const drawn = request.url.includes('?')
      ? await (await drawer)?.page(server, request, language, layout)
      : null;
    if (drawn) {
      // Not a route, so the compression hook is not on it: compressed here, by Accept-Encoding.
      const encoding = pageEncoding(request.headers['accept-encoding']);
      reply.type('text/html; charset=utf-8');
      if (!encoding) return reply.send(drawn);
      return reply.header('content-encoding', encoding).send(await compressPage(drawn, encoding));
    }
    return reply.sendFile(webPage(firstScreens, request.url, language, layout), WEB_DIST);
  });
}

/**
 * The first screens the build drew (scripts/prerender.mjs): each path's file under
 * first/<layout>/<language>/; none when the app was built without them.
 */
function readFirstScreens(): Map<string, string> {
  const file = join(WEB_DIST, 'first', 'pages.json');
  if (!existsSync(file)) return new Map();
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
}

/**
 * The built page for a request's URL in the reader's language and layout (by user agent, as the
 * app decides it): the path's first screen when the build drew one; else index.<language>.html,
 * the app's plain first paint. A URL with a query gets the plain paint: the build drew each screen
 * without one, and what a query names (an instrument, a product) is the screen's data, which the
 * server draws itself where it can (platform/screens.ts).
 */
function webPage(
  firstScreens: ReadonlyMap<string, string>,
  url: string,
  language: Language,
  layout: 'mobile' | 'desktop',
): string {
  const [path = '/', query] = url.split('?');
  const screen =
    query === undefined ? firstScreens.get(path.length > 1 ? path.replace(/\/+$/, '') : path) : undefined;
  if (screen) return `first/${layout}/${language}/${screen}`;
  return language === 'en' ? 'index.html' : `index.${language}.html`;
}

/** The encoding of a page drawn per request: brotli, else gzip, when the request accepts it (q > 0). */
function pageEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (accept ?? '')
      .split(',')
      .map((part) => part.trim().split(/\s*;\s*/))
      .filter(([, q]) => !q || !/^q=0(?:\.0*)?$/.test(q))
      .map(([name]) => name?.toLowerCase()),
  );
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** At the API's brotli level (fast); the built pages are compressed at build time, harder. */
function compressPage(page: string, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return encoding === 'br' ? brotli(page, FAST_BROTLI) : gzip(page);
}

/** The page's language: the one the swx_lang cookie names (the app sets it), else English. */
function pageLanguage(cookie: string | undefined): Language {
  const named = /(?:^|;\s*)swx_lang=([a-z]{2})(?:;|$)/.exec(cookie ?? '')?.[1];
  return named && isLanguage(named) ? named : 'en';
}

function cacheHeaders(reply: FastifyReply, path: string): void {
  // Hashed assets never change; everything else is revalidated.
  reply.header(
    'cache-control',
    /[/\\]assets[/\\]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
}
