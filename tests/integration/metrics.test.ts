import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { type RunningServer, startServer } from '../support/server.ts';

const TOKEN = 'metrics-token-of-this-test-0123456789';

/** The families /metrics promises operators (platform/metrics.ts) and the process's defaults. */
const FAMILIES = [
  'swx_http_requests_total',
  'swx_http_request_duration_seconds',
  'swx_ledger_batch_size',
  'swx_ledger_queue_depth',
  'swx_job_runs_total',
  'swx_job_failures_total',
  'swx_websocket_clients',
  'swx_feed_staleness_seconds',
  'swx_pg_pool_connections',
  'swx_pg_pool_wait_seconds',
  'process_cpu_seconds_total',
  'nodejs_eventloop_lag_seconds',
];

const scrape = (server: RunningServer, token?: string) =>
  fetch(`${server.baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** A sample's value in an exposition, or 0 when the line is not there yet. */
function sample(text: string, line: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

/** What an unknown API path answers: 404, the envelope, the security headers. */
async function expectUnknownPath(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ code: 10028 });
  expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
}

describe('/metrics with METRICS_TOKEN, on PostgreSQL', () => {
  let database: TestDatabase;
  let server: RunningServer;
  beforeAll(async () => {
    database = await openTestDatabase({ kind: 'postgres', migrated: false });
    // At info, the framework logs each request: its id is read back from the output.
    server = await startServer({ DATABASE_URL: database.url ?? '', METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await database?.close();
  });

  it('answers a request without the token, or with a wrong one, as an unknown path', async () => {
    await expectUnknownPath(await scrape(server));
    await expectUnknownPath(await scrape(server, `${TOKEN}x`));
    await expectUnknownPath(await scrape(server, 'short'));
    const basic = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: TOKEN } });
    await expectUnknownPath(basic);
  });

  it('serves the Prometheus exposition to the token, with every family named', async () => {
    const response = await scrape(server, TOKEN);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    for (const family of FAMILIES) expect(text, family).toContain(`# TYPE ${family} `);
    expect(text).toMatch(/^swx_pg_pool_connections\{state="in_use"\} \d+$/m);
    // Every query and transaction of the node (its migrations at least) waited for a connection.
    expect(sample(text, 'swx_pg_pool_wait_seconds_count')).toBeGreaterThan(0);
    expect(text).toMatch(/^swx_feed_staleness_seconds\{source="simulated"\} [\d.e+-]+$/m);
    expect(text).toMatch(/^swx_websocket_clients \d+$/m);
  });

  it("counts a request under its route's pattern and status class, never the raw URL", async () => {
    const route = 'swx_http_requests_total{method="GET",route="/logos/:file",status="2xx"}';
    const before = sample(await (await scrape(server, TOKEN)).text(), route);
    for (const file of ['BTCUSDT.svg', 'ETHUSDT.svg'])
      expect((await fetch(`${server.baseUrl}/logos/${file}`)).status).toBe(200);
    const after = await (await scrape(server, TOKEN)).text();
    expect(sample(after, route)).toBe(before + 2);
    expect(after).not.toContain('BTCUSDT.svg');
    expect(after).toMatch(
      /^swx_http_request_duration_seconds_count\{method="GET",route="\/logos\/:file",status="2xx"\} \d+$/m,
    );
    expect(after).toMatch(/^swx_http_requests_total\{method="GET",route="\/metrics",status="4xx"\} \d+$/m);
  });

  it('echoes a safe x-request-id, logs it as the request id, and replaces anything else with its own', async () => {
    const echoed = await fetch(`${server.baseUrl}/healthz`, { headers: { 'x-request-id': 'lb-7f3a.9:2' } });
    expect(echoed.headers.get('x-request-id')).toBe('lb-7f3a.9:2');
    await expect.poll(() => server.output()).toContain('"reqId":"lb-7f3a.9:2"');
    for (const bad of ['has space', 'x'.repeat(129), '<script>', 'a,b', '']) {
      const own = await fetch(`${server.baseUrl}/healthz`, { headers: { 'x-request-id': bad } });
      expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const none = await fetch(`${server.baseUrl}/healthz`);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ FEED: 'off' });
  }, 240_000);
  afterAll(() => server?.stop());

  it('is an unknown path, whatever the request carries', async () => {
    await expectUnknownPath(await scrape(server));
    await expectUnknownPath(await scrape(server, TOKEN));
  });
});

describe('/metrics past the per-address allowance', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ FEED: 'off', METRICS_TOKEN: TOKEN, API_RATE_LIMIT: '3' });
  }, 240_000);
  afterAll(() => server?.stop());

  it('answers even the right token as an unknown path once the minute’s allowance is spent', async () => {
    await expectUnknownPath(await scrape(server, 'a-wrong-guess-of-the-token'));
    expect((await scrape(server, TOKEN)).status).toBe(200);
    expect((await scrape(server, TOKEN)).status).toBe(200);
    await expectUnknownPath(await scrape(server, TOKEN));
  });
});
