import { createHash, timingSafeEqual } from 'node:crypto';
import { Code } from '@swx/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { sendCode } from './http.ts';
import type { RateLimiter } from './ratelimit.ts';

/**
 * Prometheus metrics of this process (prom-client), served at /metrics to a scraper holding
 * METRICS_TOKEN. One registry per process: the job runner and the ledger batcher count into it
 * wherever they run; what only the server knows (websocket clients, the feed, the database pool)
 * is read at each scrape from the sources `installMetrics` is given.
 */
export const registry = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'swx_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status class',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'swx_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status class',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const ledgerBatchSize = new Histogram({
  name: 'swx_ledger_batch_size',
  help: 'Operations written in one ledger batch (one transaction)',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
  registers: [registry],
});

export const ledgerBatchSeconds = new Histogram({
  name: 'swx_ledger_batch_seconds',
  help: 'Time to write one ledger batch: its transaction from begin to commit',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2.5],
  registers: [registry],
});

export const pgPoolWaitSeconds = new Histogram({
  name: 'swx_pg_pool_wait_seconds',
  help: 'Time a query or transaction waited for a PostgreSQL pool connection',
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [registry],
});

export const ledgerQueueDepth = new Gauge({
  name: 'swx_ledger_queue_depth',
  help: 'Ledger operations waiting for a batch',
  registers: [registry],
});

export const jobRuns = new Counter({
  name: 'swx_job_runs_total',
  help: 'Job runs this node claimed and ran, by job and outcome (done or failed)',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'swx_job_failures_total',
  help: 'Job runs that failed on this node, by job',
  labelNames: ['job'] as const,
  registers: [registry],
});

/** What the server's scrape reads: the websocket server, the quote feed and the database pool. */
export type MetricsSources = {
  websocketClients: () => number;
  /** The price source's name and when this node last heard a quote batch (ms; null: never yet). */
  feed: { source: string; lastBatchAt: () => number | null; since: number };
  /** PostgreSQL's pool; null on PGlite. */
  pool: (() => { total: number; idle: number; waiting: number }) | null;
};

let sources: MetricsSources | null = null;

new Gauge({
  name: 'swx_websocket_clients',
  help: 'Websocket clients connected to this node (quotes and support chat)',
  registers: [registry],
  collect() {
    if (sources) this.set(sources.websocketClients());
  },
});

new Gauge({
  name: 'swx_feed_staleness_seconds',
  help: 'Seconds since this node last received a quote batch, by price source',
  labelNames: ['source'] as const,
  registers: [registry],
  collect() {
    if (!sources) return;
    const { source, lastBatchAt, since } = sources.feed;
    this.set({ source }, (Date.now() - (lastBatchAt() ?? since)) / 1000);
  },
});

new Gauge({
  name: 'swx_pg_pool_connections',
  help: 'PostgreSQL pool connections by state: in_use, idle, and waiting (requests queued for one)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const use = sources?.pool?.();
    if (!use) return;
    this.set({ state: 'in_use' }, use.total - use.idle);
    this.set({ state: 'idle' }, use.idle);
    this.set({ state: 'waiting' }, use.waiting);
  },
});

let defaults = false;

/**
 * A request's route as a label: the pattern it matched (`/swx/customer/market/:id`), never the
 * raw URL, so the label's values are bounded by the routes; a built file is `static`, a path no
 * route took (the apps' pages, unknown paths) `unrouted`.
 */
export function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (!route) return 'unrouted';
  if (!route.startsWith('/swx/') && /\.[A-Za-z0-9]{1,8}$/.test(route)) return 'static';
  return route;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice(7) : '';
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * Counts every answer by route pattern and status class, and mounts /metrics. Without a token
 * (METRICS_TOKEN unset), with a wrong one, or past the per-address allowance, /metrics answers
 * exactly as an unknown API path does (404, the envelope, the security headers): nothing tells a
 * stranger it exists.
 */
export function installMetrics(
  server: FastifyInstance,
  options: {
    token: string | undefined;
    rateLimiter: RateLimiter;
    /** Requests a minute per client address (the API's allowance, API_RATE_LIMIT). */
    perMinute: number;
    sources: MetricsSources;
  },
): void {
  sources = options.sources;
  if (!defaults) {
    collectDefaultMetrics({ register: registry });
    defaults = true;
  }
  server.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: routeLabel(request),
      status: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
  const { token, rateLimiter, perMinute } = options;
  server.get('/metrics', async (request, reply) => {
    if (!token) return sendCode(reply, request, Code.NOT_FOUND);
    // Past the allowance even the right token gets 404: a guesser learns nothing, whatever its pace.
    const verdict = await rateLimiter.hit(`metrics:${request.ip}`, perMinute, 60_000);
    if (!bearerMatches(request, token) || !verdict.allowed) return sendCode(reply, request, Code.NOT_FOUND);
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
}
