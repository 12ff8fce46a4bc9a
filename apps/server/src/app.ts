import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
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
import type { Redis } from 'ioredis';
import { alertsRoutes } from './modules/alerts/alerts.routes.ts';
import { AlertsService } from './modules/alerts/alerts.service.ts';
import { AuditService } from './modules/audit/audit.service.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { ContentService } from './modules/content/content.service.ts';
import { marketBasketRate } from './modules/earn/earn.basket.ts';
import { earnProofReview } from './modules/earn/earn.review.ts';
import { earnRoutes } from './modules/earn/earn.routes.ts';
import { EarnService } from './modules/earn/earn.service.ts';
import { CustomerDirectory } from './modules/identity/identity.customers.ts';
import { identityRoutes } from './modules/identity/identity.routes.ts';
import { IdentityService } from './modules/identity/identity.service.ts';
import { sessionCacheOf } from './modules/identity/identity.session-cache.ts';
import { kycReview } from './modules/kyc/kyc.review.ts';
import { kycRoutes } from './modules/kyc/kyc.routes.ts';
import { KycService } from './modules/kyc/kyc.service.ts';
import { ledgerRoutes } from './modules/ledger/ledger.routes.ts';
import { LedgerService } from './modules/ledger/ledger.service.ts';
import { loanApplicationReview, loanProofReview } from './modules/loans/loans.review.ts';
import { loansRoutes } from './modules/loans/loans.routes.ts';
import { LoansService } from './modules/loans/loans.service.ts';
import { marketRoutes } from './modules/market/market.routes.ts';
import { MarketService } from './modules/market/market.service.ts';
import { QuoteFeed } from './modules/market/quote-feed.ts';
import { QuoteHub } from './modules/market/quote-hub.ts';
import { createPriceSource } from './modules/market/source.ts';
import { noticesRoutes } from './modules/notices/notices.routes.ts';
import { NoticesService } from './modules/notices/notices.service.ts';
import { operatorRoutes } from './modules/operator/operator.routes.ts';
import { OperatorService } from './modules/operator/operator.service.ts';
import { FourEyesSettingsService } from './modules/params/params.fourEyes.ts';
import { paramsRoutes } from './modules/params/params.routes.ts';
import { ParamsService } from './modules/params/params.service.ts';
import { type ReviewQueue, ReviewService } from './modules/review/review.service.ts';
import { smartRoutes } from './modules/smart/smart.routes.ts';
import { SmartService } from './modules/smart/smart.service.ts';
import { StaffAuditLog } from './modules/staff/staff.audit.ts';
import { StaffCustomers } from './modules/staff/staff.customers.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { StaffService } from './modules/staff/staff.service.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { swapRoutes } from './modules/swap/swap.routes.ts';
import { SwapService } from './modules/swap/swap.service.ts';
import { TriggerEngine } from './modules/trading/trading.engine.ts';
import { tradingRoutes } from './modules/trading/trading.routes.ts';
import { TradingService } from './modules/trading/trading.service.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { UploadsService } from './modules/uploads/uploads.service.ts';
import { depositReview, withdrawalReview } from './modules/wallet/wallet.review.ts';
import { walletRoutes } from './modules/wallet/wallet.routes.ts';
import { WalletService } from './modules/wallet/wallet.service.ts';
import type { EventBus } from './platform/bus.ts';
import { deriveBtcAddress, deriveEvmAddress, parseExtendedPublicKey } from './platform/chain/derive.ts';
import type { OpenedChain } from './platform/chain/open.ts';
import { type Clock, movableClock, systemClock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { Database } from './platform/db.ts';
import { installApiConventions, sendCode } from './platform/http.ts';
import type { KeyRing } from './platform/keys.ts';
import type { Logger } from './platform/logger.ts';
import type { Mailer } from './platform/mail.ts';
import { pendingMigrations } from './platform/migrate.ts';
import type { RateLimiter } from './platform/ratelimit.ts';
import { ScreenDrawer } from './platform/screens.ts';
import {
  handleClientError,
  installSecurityHeaders,
  securityHeaders,
  websocketOrigin,
} from './platform/security.ts';
import type { SmsSender } from './platform/sms.ts';
import type { FileStorage } from './platform/storage.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const WEB_DIST = join(ROOT, 'apps', 'web', 'dist');
export const ADMIN_DIST = join(ROOT, 'apps', 'admin', 'dist');
/** Brotli for what is compressed per answer: a fast level, not the build's best. */
const FAST_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
/** The web app's server side (its first screens), never served. */
const WEB_SERVER_BUILD = join(ROOT, 'apps', 'web', 'dist-server');

export type Platform = {
  config: Config;
  logger: Logger;
  db: Database;
  bus: EventBus;
  mailer: Mailer;
  sms: SmsSender;
  storage: FileStorage;
  rateLimiter: RateLimiter;
  /** The shared Redis connection when REDIS_URL is set (rate limits, feed leadership). */
  redis: Redis | null;
  /**
   * The EVM chain (platform/chain.ts, opened by platform/chain/open.ts): the server's; null with
   * CHAIN=off and in operator commands run outside the server.
   */
  chain: OpenedChain | null;
  /** The keys of every purpose, derived from the master (platform/keys.ts). */
  keys: KeyRing;
};

export type Services = {
  /** The clock of markets, trading and products (platform/clock.ts). */
  clock: Clock;
  audit: AuditService;
  ledger: LedgerService;
  identity: IdentityService;
  customers: CustomerDirectory;
  staff: StaffService;
  staffCustomers: StaffCustomers;
  staffAuditLog: StaffAuditLog;
  alerts: AlertsService;
  kyc: KycService;
  uploads: UploadsService;
  reviews: ReviewService;
  kycReview: ReviewQueue<ReturnType<typeof kycReview>['calls']>;
  wallet: WalletService;
  depositReview: ReviewQueue<ReturnType<typeof depositReview>['calls']>;
  withdrawalReview: ReviewQueue<ReturnType<typeof withdrawalReview>['calls']>;
  earn: EarnService;
  earnProofReview: ReviewQueue<ReturnType<typeof earnProofReview>['calls']>;
  loans: LoansService;
  loanApplicationReview: ReviewQueue<ReturnType<typeof loanApplicationReview>['calls']>;
  loanProofReview: ReviewQueue<ReturnType<typeof loanProofReview>['calls']>;
  notices: NoticesService;
  content: ContentService;
  operator: OperatorService;
  params: ParamsService;
  fourEyes: FourEyesSettingsService;
  market: MarketService;
  quotes: QuoteHub;
  feed: QuoteFeed;
  trading: TradingService;
  triggers: TriggerEngine;
  swap: SwapService;
  smart: SmartService;
};

export type App = { server: FastifyInstance; services: Services; state: { shuttingDown: boolean } };

export function createServices(platform: Platform): Services {
  // Markets, trading and the products live on this clock; sign-in, codes and locks keep the system's.
  const clock = platform.config.clock === 'movable' ? movableClock() : systemClock;
  const audit = new AuditService(platform.db);
  const ledger = new LedgerService(platform.db, audit, platform.logger, {
    maxQueued: platform.config.ledgerMaxQueued,
  });
  const market = new MarketService(
    platform.db,
    clock.now,
    createPriceSource(platform.config, platform.logger),
  );
  const notices = new NoticesService(platform.db);
  const trading = new TradingService({
    db: platform.db,
    ledger,
    market,
    bus: platform.bus,
    notices,
    logger: platform.logger,
    now: clock.now,
    leverageCaps: platform.config.leverageCaps,
    quoteKeys: platform.keys.purpose('quotes'),
  });
  const triggers = new TriggerEngine({
    trading,
    db: platform.db,
    bus: platform.bus,
    logger: platform.logger,
  });
  const feed = new QuoteFeed({
    market,
    bus: platform.bus,
    redis: platform.redis,
    nodeId: platform.config.nodeId,
    logger: platform.logger,
    now: clock.now,
  });
  // Sessions ended on another node are forgotten by this node's session cache too.
  sessionCacheOf(platform.db).connect(platform.bus);
  const customers = new CustomerDirectory(platform.db);
  const staff = new StaffService({
    db: platform.db,
    audit,
    rateLimiter: platform.rateLimiter,
    keys: platform.keys,
  });
  const uploads = new UploadsService({
    db: platform.db,
    storage: platform.storage,
    rateLimiter: platform.rateLimiter,
  });
  const kyc = new KycService({
    db: platform.db,
    uploads,
    audit,
    customers,
    rateLimiter: platform.rateLimiter,
  });
  // Staff review queues: one registration per kind (modules/review).
  const reviews = new ReviewService({
    db: platform.db,
    audit,
    notices,
    staff,
    customers,
    ledger,
  });
  // The node that leads the quote feed also runs the trigger engine, on the same ticks.
  feed.onLeaderTick((t) => triggers.tick(t));
  const identity = new IdentityService({
    db: platform.db,
    mailer: platform.mailer,
    sms: platform.sms,
    rateLimiter: platform.rateLimiter,
    ledger,
    notices,
    audit,
    keys: platform.keys,
    social: { providers: platform.config.socialProviders, publicUrl: platform.config.publicUrl },
    logger: platform.logger,
  });
  const params = new ParamsService(platform.db);
  const evmKey = parseExtendedPublicKey(platform.config.depositXpubs.evm);
  const bitcoinKey = parseExtendedPublicKey(platform.config.depositXpubs.btc);
  const wallet = new WalletService({
    db: platform.db,
    ledger,
    audit,
    notices,
    uploads,
    customers,
    identity,
    kyc,
    params,
    derive: {
      evm: (index) => deriveEvmAddress(evmKey, index),
      bitcoin: (index) => deriveBtcAddress(bitcoinKey, index),
    },
    chain: platform.chain?.chain ?? null,
    signer: platform.chain?.signer ?? null,
    quoteKeys: platform.keys.purpose('quotes'),
    logger: platform.logger,
  });
  const operator = new OperatorService({ db: platform.db, audit, production: platform.config.production });
  // The customer's pay-in address for a purchase by proof: their USDT deposit address.
  const payIn = async (userId: number) =>
    wallet.deposits.address('live', userId, 'USDT-EVM').catch(() => null);
  const earn = new EarnService({
    db: platform.db,
    ledger,
    audit,
    notices,
    kyc,
    uploads,
    payIn,
    basketRate: marketBasketRate(market),
    quoteKeys: platform.keys.purpose('quotes'),
    logger: platform.logger,
    now: clock.now,
  });
  // Loans: live book, paid from a lending pool; the credit score reads the loans' record.
  const loans = new LoansService({
    db: platform.db,
    ledger,
    audit,
    notices,
    kyc,
    uploads,
    storage: platform.storage,
    params,
    quoteKeys: platform.keys.purpose('quotes'),
    logger: platform.logger,
    mail: { mailer: platform.mailer, customers },
    platformAddress: platform.chain?.signer?.address ?? null,
    now: clock.now,
  });
  kyc.useLoanFacts((userId) => loans.creditFacts(userId));
  // Currency swap: quotes priced from the market, committed as one ledger entry.
  const swap = new SwapService({
    db: platform.db,
    ledger,
    market,
    audit,
    quoteKeys: platform.keys.purpose('quotes'),
    now: clock.now,
  });
  // Smart plans: live book, trading real positions from the customer's smart account.
  const smart = new SmartService({
    db: platform.db,
    ledger,
    trading,
    audit,
    notices,
    quoteKeys: platform.keys.purpose('quotes'),
    logger: platform.logger,
    now: clock.now,
  });
  return {
    clock,
    audit,
    ledger,
    identity,
    swap,
    smart,
    notices,
    content: new ContentService(platform.db, operator),
    operator,
    params,
    market,
    quotes: new QuoteHub(platform.bus, (code) => market.typeOf(code)),
    feed,
    trading,
    triggers,
    customers,
    staff,
    staffCustomers: new StaffCustomers({ db: platform.db, staff, customers, kyc, ledger, trading }),
    staffAuditLog: new StaffAuditLog({ audit, staff }),
    alerts: new AlertsService({
      db: platform.db,
      audit,
      staff,
      mailer: platform.mailer,
      adminUrl: platform.config.publicUrl
        ? `${platform.config.publicUrl.replace(/\/+$/, '')}/admin`
        : undefined,
      logger: platform.logger,
    }),
    fourEyes: new FourEyesSettingsService({ db: platform.db, audit, staff }),
    kyc,
    uploads,
    reviews,
    kycReview: reviews.register(kycReview(kyc, staff)),
    wallet,
    depositReview: reviews.register(depositReview(wallet.deposits, ledger, params)),
    withdrawalReview: reviews.register(withdrawalReview(wallet.withdrawals, ledger, kyc, params)),
    earn,
    earnProofReview: reviews.register(
      earnProofReview(
        earn,
        ledger,
        params,
        async (userId) => (await payIn(userId))?.address ?? null,
        clock.now,
      ),
    ),
    loans,
    loanApplicationReview: reviews.register(loanApplicationReview(loans, ledger, kyc, params)),
    loanProofReview: reviews.register(loanProofReview(loans, ledger, params)),
  };
}

export async function buildApp(platform: Platform, services = createServices(platform)): Promise<App> {
  const { config, logger } = platform;
  const state = { shuttingDown: false };
  const server = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
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

  installApiConventions(server, services.identity.resolveSession);
  installSecurityHeaders(server, { publicUrl: config.publicUrl });

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
        // The sandbox (no real money) or production, and where prices come from.
        sandbox: !platform.config.production,
        marketSource: services.market.source.name,
      };
    } catch {
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
  const openApi = buildOpenApi(API_VERSION);
  server.get('/swx/openapi.json', async () => openApi);

  contentRoutes(server, services.content);
  paramsRoutes(server, services.params, services.staff, services.fourEyes);
  identityRoutes(server, services.identity);
  ledgerRoutes(server, services.ledger, services.market);
  noticesRoutes(server, services.notices);
  marketRoutes(server, services.market, services.quotes);
  tradingRoutes(server, services.trading);
  staffRoutes(server, services.staff, services.staffCustomers, services.staffAuditLog);
  alertsRoutes(server, services.staff, services.alerts);
  kycRoutes(server, services.kyc, services.staff, services.kycReview);
  uploadsRoutes(server, services.uploads, services.staff);
  walletRoutes(server, services.wallet, services.staff, {
    deposits: services.depositReview,
    withdrawals: services.withdrawalReview,
  });
  earnRoutes(server, services.earn, services.staff, services.earnProofReview);
  swapRoutes(server, services.swap, services.staff);
  smartRoutes(server, services.smart, services.staff);
  loansRoutes(server, services.loans, services.staff, {
    applications: services.loanApplicationReview,
    proofs: services.loanProofReview,
  });
  operatorRoutes(server, services.operator, services.staff);
  statsRoutes(server, { identity: services.identity, market: services.market, trading: services.trading });

  await serveApps(server);
  return { server, services, state };
}

/** The built customer app at /, the back office at /admin, each with its index for client routes. */
async function serveApps(server: FastifyInstance): Promise<void> {
  const hasWeb = existsSync(join(WEB_DIST, 'index.html'));
  const hasAdmin = existsSync(join(ADMIN_DIST, 'index.html'));
  if (hasWeb) {
    await server.register(fastifyStatic, {
      root: WEB_DIST,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: cacheHeaders,
    });
  }
  if (hasAdmin) {
    await server.register(fastifyStatic, {
      root: ADMIN_DIST,
      prefix: '/admin/',
      decorateReply: !hasWeb,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: cacheHeaders,
    });
  }
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
