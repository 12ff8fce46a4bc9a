// Trading: order placement over HTTP on PostgreSQL at 100 concurrent clients, beside two bare
// Fastify handlers in the same run: one doing the same writes as an order in one transaction per
// order (the true baseline) and one doing a single INSERT (the floor); three runs each, alternating,
// with min, median and max, and the CPU each accepted request cost the handler's process and its
// PostgreSQL backends (Linux /proc: a figure the other load of a shared machine does not change
// the way it changes rates and latencies). And the trigger engine's time to
// process one tick that crosses 100,000 of 1,000,000 open stop levels.
// Usage: node bench/trading.ts [seconds per case, default 5] [tick|placement] [--rate=N] [--repeat=N]   (PostgreSQL:
// TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres; the bench creates and drops its own
// database). The open loop runs at the stated rate (--rate, default 500 orders/s: the target is p99 under
// 100 ms there; --repeat=N intervals of it one after another, each with its own p99) and at half
// the platform's median closed-loop rate, each beside the floor at that rate,
// with what the platform's own /metrics say of each interval (handler time, ledger batches and their
// commit time, garbage collections, event-loop delay). BENCH_TRACE=<file> appends each open-loop
// request's scheduled time and latency (ms) to the file, to see when a tail happens.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { type Database, openPostgres } from '../apps/server/src/platform/db.ts';
import { inside, pgActivity, pgBetween, scrape } from './server-inside.ts';
import {
  type AtRate,
  CLIENTS,
  type CpuSource,
  type Figures,
  measure,
  measureAtRate,
  medianRun,
  post,
  quantile,
  spread,
} from './trading-load.ts';
import { type Servers, startServers } from './trading-servers.ts';
import { tick } from './trading-tick.ts';

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const SECONDS = Number(positional[0] ?? 5);
/** The stated offered rate of the open loop (orders a second). */
const STATED_RATE = Number(process.argv.find((a) => a.startsWith('--rate='))?.slice('--rate='.length) ?? 500);
if (!Number.isFinite(STATED_RATE) || STATED_RATE <= 0)
  throw new Error('--rate takes orders a second, e.g. --rate=500');
/** Open-loop intervals at the stated rate, one after another (--repeat, default 1): the tail of each. */
const REPEAT = Number(process.argv.find((a) => a.startsWith('--repeat='))?.slice('--repeat='.length) ?? 1);
if (!Number.isInteger(REPEAT) || REPEAT < 1)
  throw new Error('--repeat takes a count of intervals, e.g. --repeat=10');
const RUNS = 3;
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const ORDER_ROUTE = '/swx/customer/order/buyOptions';

/** Order placement: the platform and the two bare handlers on a database of their own. */
async function placement(): Promise<void> {
  const dbName = `swx_bench_trading_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'swx-bench-trading-'));
  const servers = startServers(url, dataDir);
  const { server, bare, same } = servers;
  try {
    const [serverPort, barePort, samePort] = await Promise.all([server.port, bare.port, same.port]);
    const db = await openPostgres(url);
    const tokens = await benchCustomers(db);
    const base = await orderBase(db);
    const quotes = await keepQuotes(serverPort, tokens, base);
    const ports = { server: serverPort, bare: barePort, same: samePort };
    const cases = placementCases({ db, dbName, servers, ports, tokens, quotes, base });
    const measured = await measurePlacement(cases, quotes, {
      server: serverPort,
      same: samePort,
      metricsToken: servers.metricsToken,
      db,
    });
    quotes.stop();
    await reportPlacement(db, measured, cases.refusedBy);
    await db.close();
  } finally {
    server.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
    same.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

/** 100 customers with sessions, made directly in the database (registration is not measured). */
async function benchCustomers(db: Database): Promise<string[]> {
  const ledger = new LedgerService(db, new AuditService(db));
  const tokens: string[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO users (user_name, password_hash) VALUES ($1, '$argon2id$bench') RETURNING id`,
      [`bench_trader_${i}`],
    );
    const userId = Number(row?.id);
    await ledger.openCustomerBooks(userId);
    const token = randomBytes(32).toString('base64url');
    await db.query(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
      [randomBytes(12).toString('hex'), userId, createHash('sha256').update(token).digest('hex')],
    );
    tokens.push(token);
  }
  return tokens;
}

/**
 * An order but its quote and stops: a coin whose 0.01 lot needs a few USDT of margin, so that the
 * demo balance of 100 customers lasts through every run (orders refused for want of balance would
 * flatter the figures).
 */
async function orderBase(db: Database) {
  const [coin] = await db.query<{ id: number }>(`SELECT id FROM instruments WHERE code = 'DOGEUSDT'`);
  return {
    marketId: Number(coin?.id),
    direction: 'long',
    lots: '0.01',
    leverage: 2,
    autoCloseAfter: null,
  };
}
type OrderBase = Awaited<ReturnType<typeof orderBase>>;

/** A quote held for an order, with the stops it was asked with, and when it was. */
type Held = { quoteId: string; stopLoss: string; takeProfit: string; at: number };

/**
 * A quote is signed for its customer and commits once, so each order takes a quote of its own, as
 * a customer's ticket asks for one before the order: every client keeps a few fresh ones (at most
 * 1.5 s old, well within their 3 s lifetime; stops 20 % away), and each quote it takes is replaced
 * at once by a preview of its own, so quotes are asked for at the pace orders are sent, spread as
 * they are. (Renewing every client's quotes together every 500 ms sent bursts of hundreds of
 * previews at once, and the orders queued behind each burst made the open loop's tail: a latency
 * peak every 500 ms in its trace.) An order whose client holds no fresh quote asks for one first,
 * and that preview counts in its latency.
 */
async function keepQuotes(serverPort: number, tokens: string[], base: OrderBase) {
  const POOL = 4;
  const FRESH_MS = 1500;
  const pools: Held[][] = tokens.map(() => []);
  let stops = { stopLoss: '', takeProfit: '' };
  let renewing = true;
  const previewFor = async (client: number): Promise<Held> => {
    // The stops asked with (they may move while the preview is answered).
    const asked = stops;
    const q = (
      await post(
        serverPort,
        '/swx/customer/order/previewOptions',
        { ...base, ...asked },
        { authorization: tokens[client] as string },
      )
    ).data as { quoteId: string };
    return { quoteId: q.quoteId, ...asked, at: performance.now() };
  };
  const readStops = async () => {
    const p = (
      await post(serverPort, '/swx/customer/order/previewOptions', {
        ...base,
        stopLoss: '1.00',
        takeProfit: '1.00',
      })
    ).data as { bid: string };
    const bid = Number(p.bid);
    const decimals = p.bid.split('.')[1]?.length ?? 0;
    stops = { stopLoss: (bid * 0.8).toFixed(decimals), takeProfit: (bid * 1.2).toFixed(decimals) };
  };
  /** Every client's pool filled with fresh quotes (before a measured run, not during it). */
  const refresh = async () => {
    await readStops();
    const fresh = performance.now() - FRESH_MS;
    await Promise.all(
      pools.map(async (pool, client) => {
        for (const q of pool.filter((held) => held.at < fresh)) pool.splice(pool.indexOf(q), 1);
        pool.push(
          ...(await Promise.all(Array.from({ length: POOL - pool.length }, () => previewFor(client)))),
        );
      }),
    );
  };
  await refresh();
  // The stops follow the price (one preview every 500 ms); the quotes are renewed only while
  // orders are measured (the floor does not commit them).
  const timer = setInterval(() => void readStops(), 500);
  return {
    /** The client's next fresh quote (a preview asked for now when it holds none), replaced at once. */
    take: async (client: number) => {
      const pool = pools[client] ?? [];
      const fresh = performance.now() - FRESH_MS;
      while (pool.length > 0 && (pool[0]?.at ?? 0) < fresh) pool.shift();
      const held = pool.shift();
      if (renewing) void previewFor(client).then((q) => pool.push(q));
      return held ?? (await previewFor(client));
    },
    stops: () => stops,
    refresh,
    renew: (on: boolean) => {
      renewing = on;
    },
    stop: () => clearInterval(timer),
  };
}
type Quotes = Awaited<ReturnType<typeof keepQuotes>>;

/**
 * The three cases: the platform's order, the same-writes handler's and the floor's request, and
 * the closed-loop run of each (with the CPU of its process and its PostgreSQL backends).
 */
function placementCases(bench: {
  db: Database;
  dbName: string;
  servers: Servers;
  ports: { server: number; bare: number; same: number };
  tokens: string[];
  quotes: Quotes;
  base: OrderBase;
}) {
  const { db, dbName, servers, ports, tokens, quotes, base } = bench;
  const sourceOf = (name: string, pid: number | undefined): CpuSource | undefined =>
    pid === undefined
      ? undefined
      : {
          pid,
          backends: async () =>
            (
              await db.query<{ pid: number }>(
                'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
                [dbName, `swx-bench-${name}`],
              )
            ).map((r) => r.pid),
        };
  const platformRun = async () => {
    quotes.renew(true);
    await quotes.refresh();
    return measure(order, SECONDS, sourceOf('platform', servers.server.child.pid));
  };
  const floorRun = () => {
    quotes.renew(false);
    return measure(floor, SECONDS, sourceOf('floor', servers.bare.child.pid));
  };
  // Why the platform refused orders, by code and what its data said, over every run.
  const refusedBy = new Map<string, number>();
  const order = async (client: number) => {
    const { at: _, ...quote } = await quotes.take(client);
    const answer = await post(
      ports.server,
      ORDER_ROUTE,
      { ...base, ...quote, requestId: randomUUID() },
      { authorization: tokens[client] as string },
    );
    if (answer.code !== 200) {
      const why = `${answer.code} ${JSON.stringify(answer.data ?? null).slice(0, 120)}`;
      refusedBy.set(why, (refusedBy.get(why) ?? 0) + 1);
    }
    return answer.code === 200;
  };
  const floor = (client: number) =>
    post(ports.bare, '/bare', { ...base, ...quotes.stops(), requestId: randomUUID(), client }).then(
      (a) => a.code === 200,
    );
  const sameWrites = (client: number) =>
    post(ports.same, '/order', { client, requestId: randomUUID() }).then((a) => a.code === 200);
  const sameRun = () => {
    quotes.renew(false);
    return measure(sameWrites, SECONDS, sourceOf('same', servers.same.child.pid));
  };
  return { order, floor, platformRun, floorRun, sameRun, refusedBy };
}
type Cases = ReturnType<typeof placementCases>;

/** What the measured phase found: each case's runs, the load after each run, and the open-loop latencies. */
type Measured = {
  runs: { platform: Figures[]; same: Figures[]; floor: Figures[] };
  loads: number[];
  /** The open loop at each offered rate: the stated one, then half the platform's median rate. */
  atRates: { rate: number; why: string; platform: AtRate; server: string; postgres: string; floor: AtRate }[];
};

/**
 * Warms the three cases, measures each RUNS times alternating, then the latency of the platform and
 * of the floor at a fixed rate.
 */
async function measurePlacement(
  cases: Cases,
  quotes: Quotes,
  {
    server: serverPort,
    same: samePort,
    metricsToken,
    db,
  }: { server: number; same: number; metricsToken: string; db: Database },
): Promise<Measured> {
  const { order, floor, platformRun, floorRun, sameRun } = cases;
  // Warm all three (the platform first: the same-writes handler repeats a position it wrote),
  // then measure each RUNS times, alternating.
  await platformRun();
  await post(samePort, '/prepare', {});
  await floorRun();
  await sameRun();
  const runs = { platform: [] as Figures[], same: [] as Figures[], floor: [] as Figures[] };
  const loads: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    runs.platform.push(await platformRun());
    runs.same.push(await sameRun());
    runs.floor.push(await floorRun());
    loads.push(loadavg()[0] ?? 0);
  }
  // The latency of an order at a fixed offered pace (open loop), to the platform and to the floor
  // (the same clients and quotes): at the stated rate, and at half the platform's median rate.
  const half = Math.max(50, Math.round(medianRun(runs.platform).perSecond / 2 / 10) * 10);
  const atRates: Measured['atRates'] = [];
  const stated = Array.from({ length: REPEAT }, (_, i) =>
    REPEAT === 1 ? 'the stated rate' : `the stated rate, interval ${i + 1} of ${REPEAT}`,
  );
  for (const [rate, why] of [
    ...stated.map((why) => [STATED_RATE, why] as const),
    [half, "half the platform's median rate"] as const,
  ]) {
    quotes.renew(true);
    await quotes.refresh();
    const before = await scrape(serverPort, metricsToken);
    const pgBefore = await pgActivity(db);
    const platform = await measureAtRate(order, rate, SECONDS);
    const server = inside(before, await scrape(serverPort, metricsToken), ORDER_ROUTE);
    // The statistics collector lags; read after it has flushed what the interval did.
    await new Promise((r) => setTimeout(r, 600));
    const postgres = pgBetween(pgBefore, await pgActivity(db));
    quotes.renew(false);
    atRates.push({ rate, why, platform, server, postgres, floor: await measureAtRate(floor, rate, SECONDS) });
  }
  return { runs, loads, atRates };
}

/** Prints the figures of the placement cases, and what the platform wrote. */
async function reportPlacement(
  db: Database,
  measured: Measured,
  refusedBy: Map<string, number>,
): Promise<void> {
  const { runs, loads, atRates } = measured;
  const [count] = await db.query<{ n: string }>('SELECT count(*) AS n FROM positions');
  const [chain] = await db.query<{ n: string; events: string }>(
    'SELECT count(*) AS n, (SELECT seq FROM audit_head) AS events FROM audit_log',
  );
  console.log(
    `\nOrder placement, PostgreSQL, ${CLIENTS} concurrent clients, ${RUNS} runs of ${SECONDS} s each (load after each run: ${loads.map((l) => l.toFixed(2)).join(', ')}):`,
  );
  console.log('  accepted orders per second: min median max; p99 of the median run');
  console.log(`  openPosition (the platform)                          ${spread(runs.platform)}`);
  console.log(`  bare Fastify, the same writes, one tx per order    ${spread(runs.same)}`);
  console.log(`  bare Fastify, one INSERT (the floor)               ${spread(runs.floor)}`);
  const ratio = (a: Figures[], b: Figures[]) => (medianRun(a).perSecond / medianRun(b).perSecond).toFixed(2);
  console.log(
    `  the platform: ${ratio(runs.platform, runs.same)}× the same-writes handler (target ≥ 2×, p99 < 100 ms), ${ratio(runs.platform, runs.floor)}× the one-INSERT floor (medians)`,
  );
  const open = (f: AtRate) =>
    `p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms (${f.count} sent, ${f.errors} refused)`;
  for (const at of atRates) {
    console.log(
      `  at a fixed ${at.rate} orders/s, ${at.why} (open loop, ${SECONDS} s; latency from each order's scheduled time${at.rate === STATED_RATE ? '; target p99 < 100 ms' : ''}):`,
    );
    console.log(`  openPosition (the platform)                          ${open(at.platform)}`);
    console.log(`    inside the platform meanwhile: ${at.server}`);
    console.log(`    PostgreSQL meanwhile: ${at.postgres}`);
    console.log(`  bare Fastify, one INSERT (the floor)               ${open(at.floor)}`);
  }
  if (REPEAT > 1) {
    // The first REPEAT intervals are those at the stated rate (measurePlacement's order).
    const tails = atRates
      .slice(0, REPEAT)
      .map((at) => at.platform.p99)
      .sort((a, b) => a - b);
    const mid = tails[Math.floor(tails.length / 2)] ?? 0;
    console.log(
      `  p99 at ${STATED_RATE} orders/s over ${tails.length} intervals of ${SECONDS} s: min ${tails[0]?.toFixed(1)} / median ${mid.toFixed(1)} / max ${tails.at(-1)?.toFixed(1)} ms; ${tails.filter((t) => t >= 100).length} of ${tails.length} at or over 100 ms (${tails.map((t) => t.toFixed(1)).join(', ')})`,
    );
    // Every order of those intervals together: the p99 of the whole run at the stated rate.
    const all = atRates
      .slice(0, REPEAT)
      .flatMap((at) => at.platform.latencies)
      .sort((a, b) => a - b);
    const whole = (q: number) => quantile(all, q).toFixed(1);
    const slow = all.filter((t) => t >= 100).length;
    console.log(
      `  the whole run at ${STATED_RATE} orders/s (${all.length} orders over ${tails.length * SECONDS} s): p50 ${whole(0.5)} ms, p99 ${whole(0.99)} ms, p99.9 ${whole(0.999)} ms; ${slow} orders (${((100 * slow) / Math.max(1, all.length)).toFixed(2)} %) at or over 100 ms`,
    );
  }
  console.log(
    `  the platform's refusals by code and data: ${[...refusedBy].map(([why, n]) => `${why} ×${n}`).join('; ') || 'none'}`,
  );
  const cpu = (runs: Figures[]) => {
    const c = medianRun(runs).cpu;
    return c
      ? `${c.process.toFixed(3)} ms in its process + ${c.postgres.toFixed(3)} ms in PostgreSQL`
      : 'n/a';
  };
  console.log("  CPU per accepted order, median run (the platform's includes the quotes its clients renew):");
  console.log(`  openPosition (the platform)                          ${cpu(runs.platform)}`);
  console.log(`  bare Fastify, the same writes, one tx per order    ${cpu(runs.same)}`);
  console.log(`  bare Fastify, one INSERT (the floor)               ${cpu(runs.floor)}`);
  console.log(
    `  positions written: ${count?.n}; audit rows: ${chain?.n} for ${chain?.events} events (a ledger batch is one row)`,
  );
}

const only = positional[1];
if (only !== 'placement') await tick();
if (only !== 'tick') await placement();
process.exit(0);
