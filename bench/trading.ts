// Trading: order placement over HTTP on PostgreSQL at 100 concurrent clients, beside two bare
// Fastify handlers in the same run: one doing the same writes as an order in one transaction per
// order (the true baseline) and one doing a single INSERT (the floor); three runs each, alternating,
// with min, median and max, and the CPU each accepted request cost the handler's process and its
// PostgreSQL backends (Linux /proc: a figure the other load of a shared machine does not change
// the way it changes rates and latencies). And the trigger engine's time to
// process one tick that crosses 100,000 of 1,000,000 open stop levels.
// Usage: node bench/trading.ts [seconds per case, default 5] [tick|placement]   (PostgreSQL: TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/postgres; the bench creates and drops its own database)
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import type { Instrument } from '../apps/server/src/modules/market/feed.ts';
import { MarketService } from '../apps/server/src/modules/market/market.service.ts';
import { TriggerEngine } from '../apps/server/src/modules/positions/positions.engine.ts';
import type { PositionRow } from '../apps/server/src/modules/positions/positions.repository.ts';
import { PositionsService } from '../apps/server/src/modules/positions/positions.service.ts';
import { createMemoryBus } from '../apps/server/src/platform/bus.ts';
import { openPglite, openPostgres } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';

const SECONDS = Number(process.argv[2] ?? 5);
const RUNS = 3;
const CLIENTS = 100;
const ROOT = join(import.meta.dirname, '..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Figures = {
  perSecond: number;
  p50: number;
  p99: number;
  count: number;
  errors: number;
  /** CPU ms per accepted request: the handler's process, and its PostgreSQL backends. */
  cpu: { process: number; postgres: number } | null;
};
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

function post(port: number, path: string, body: unknown, headers: Record<string, string> = {}) {
  const data = JSON.stringify(body);
  return new Promise<{ code: number; data: unknown }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () =>
          resolve(JSON.parse(Buffer.concat(chunks).toString()) as { code: number; data: unknown }),
        );
      },
    );
    request.on('error', reject);
    request.end(data);
  });
}

/** The run of median rate. */
const medianRun = (runs: Figures[]) =>
  [...runs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(runs.length / 2)] as Figures;
const spread = (runs: Figures[]) => {
  const rates = runs.map((f) => f.perSecond);
  const mid = medianRun(runs);
  return `${Math.min(...rates)
    .toFixed(0)
    .padStart(6)} ${mid.perSecond.toFixed(0).padStart(6)} ${Math.max(...rates)
    .toFixed(0)
    .padStart(6)} /s  p99 ${mid.p99.toFixed(1).padStart(6)} ms  (${mid.errors} refused)`;
};

/** CPU ms a process has used (utime + stime of /proc/<pid>/stat, at 100 ticks a second). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Where a case's CPU is read: its process, and its PostgreSQL backends (by application_name). */
type CpuSource = { pid: number; backends: () => Promise<number[]> };

async function cpuSample(source: CpuSource): Promise<{ process: number; backends: Map<number, number> }> {
  const backends = new Map<number, number>();
  for (const pid of await source.backends()) {
    try {
      backends.set(pid, cpuMsOf(pid));
    } catch {
      // The backend ended meanwhile.
    }
  }
  return { process: cpuMsOf(source.pid), backends };
}

async function measure(op: (client: number) => Promise<boolean>, source?: CpuSource): Promise<Figures> {
  const canReadCpu = source !== undefined && existsSync(`/proc/${source.pid}/stat`);
  const before = canReadCpu ? await cpuSample(source) : null;
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      while (performance.now() < end) {
        const start = performance.now();
        if (!(await op(client))) errors += 1;
        latencies.push(performance.now() - start);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const after = canReadCpu && before ? await cpuSample(source) : null;
  const accepted = latencies.length - errors;
  let cpu: Figures['cpu'] = null;
  if (before && after && accepted > 0) {
    let postgres = 0;
    for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
    cpu = { process: (after.process - before.process) / accepted, postgres: postgres / accepted };
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    perSecond: (latencies.length - errors) / elapsed, // accepted requests only
    p50: at(0.5),
    p99: at(0.99),
    count: latencies.length,
    errors,
    cpu,
  };
}

/**
 * Open loop: requests sent at a fixed rate whatever the answers, spread over the clients in turn;
 * each latency runs from the request's scheduled time, so a stall is counted, not hidden.
 */
async function measureAtRate(
  op: (client: number) => Promise<boolean>,
  rate: number,
): Promise<{ p50: number; p99: number; count: number; errors: number }> {
  const interval = 1000 / rate;
  const total = Math.floor(rate * SECONDS);
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let errors = 0;
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const scheduled = t0 + i * interval;
    const wait = scheduled - performance.now();
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      op(i % CLIENTS).then(
        (ok) => {
          if (!ok) errors += 1;
          latencies.push(performance.now() - scheduled);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), count: latencies.length, errors };
}

function startProcess(args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = new Promise<number>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, port };
}

/** The floor: a bare Fastify handler that inserts one row per request into the same PostgreSQL. */
const BARE = `
import Fastify from 'fastify';
import pg from 'pg';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16 });
await pool.query('CREATE TABLE IF NOT EXISTS bench_bare_orders (id bigserial PRIMARY KEY, user_id bigint, body jsonb, created_at timestamptz DEFAULT now())');
const app = Fastify();
app.post('/bare', async (request) => {
  const { rows } = await pool.query('INSERT INTO bench_bare_orders (user_id, body) VALUES ($1, $2) RETURNING id', [1, request.body]);
  return { code: 200, data: { id: rows[0].id } };
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('bare listening ' + app.server.address().port);
`;

/**
 * The true baseline: a bare Fastify handler doing the writes of an order the conventional way, one
 * transaction per order: lock the customer's wallet and margin and the book's fees account (in id
 * order), check the wallet covers margin and fee, insert the entry and its three postings, update
 * the three balances, insert the position, and append the audit row (the chain's head locked, as
 * every appender must; the row of a ledger batch of one operation, as the platform writes one). Its SQL is written by hand here; only the audit row's hashing is the
 * platform's (AuditService), so the chain it leaves verifies. No session check, no quote check:
 * it is a floor for the writes. POST /prepare (after the platform's warm-up) loads the 100 bench
 * customers' accounts and a position the platform wrote, whose figures each order repeats.
 */
const SAME_WRITES = `
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
const { AuditService } = await import(process.env.AUDIT_MODULE);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16 });
const audit = new AuditService(undefined);
let customers = [];
let template;
let fees;
const app = Fastify();
app.post('/prepare', async () => {
  const { rows: users } = await pool.query("SELECT id FROM users WHERE user_name LIKE 'bench_trader_%' ORDER BY user_name");
  const { rows: accounts } = await pool.query("SELECT id, owner_id, kind FROM ledger_accounts WHERE book = 'demo' AND asset = 'USDT' AND (owner_id = ANY($1::bigint[]) AND kind IN ('wallet', 'margin') OR owner_id IS NULL AND kind = 'fees')", [users.map((u) => u.id)]);
  fees = accounts.find((a) => a.owner_id === null).id;
  const byOwner = (id, kind) => accounts.find((a) => a.owner_id === id && a.kind === kind).id;
  customers = users.map((u) => ({ userId: u.id, wallet: byOwner(u.id, 'wallet'), margin: byOwner(u.id, 'margin') }));
  template = (await pool.query('SELECT * FROM positions ORDER BY id LIMIT 1')).rows[0];
  return { code: 200, data: { customers: customers.length } };
});
app.post('/order', async (request) => {
  const { client, requestId } = request.body;
  const c = customers[client];
  const margin = BigInt(template.margin_minor);
  const fee = BigInt(template.fee_minor);
  const key = 'same-writes:' + c.userId + ':' + requestId;
  const client_ = await pool.connect();
  try {
    await client_.query('BEGIN');
    const { rows: locked } = await client_.query('SELECT id, balance, held FROM ledger_accounts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [[c.wallet, c.margin, fees]]);
    const wallet = locked.find((a) => a.id === c.wallet);
    if (BigInt(wallet.balance) - BigInt(wallet.held) < margin + fee) {
      await client_.query('ROLLBACK');
      return { code: 10011, data: null };
    }
    const hash = createHash('sha256').update(JSON.stringify(request.body)).digest('hex');
    const { rows: [entry] } = await client_.query("INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, reference, actor) VALUES ('demo', 'trade_margin', $1, $2, $3, $4) RETURNING id", [key, hash, 'order:' + requestId, 'user:' + c.userId]);
    const postings = [[c.wallet, -(margin + fee)], [c.margin, margin], [fees, fee]];
    await client_.query("INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount) VALUES ($1, $2, 'demo', 'USDT', $3), ($1, $4, 'demo', 'USDT', $5), ($1, $6, 'demo', 'USDT', $7)", [entry.id, ...postings.flatMap(([a, d]) => [a, d.toString()])]);
    for (const [account, delta] of [...postings].sort((a, b) => Number(a[0]) - Number(b[0])))
      await client_.query('UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1', [account, delta.toString()]);
    const t = template;
    const { rows: [position] } = await client_.query(
      'INSERT INTO positions (user_id, book, instrument_id, code, direction, centilots, lot_size, leverage, price_decimals, open_ticks, stop_loss_ticks, take_profit_ticks, liquidation_ticks, conversion_num, conversion_den, notional_minor, margin_minor, fee_minor, fee_ppm, open_tick, live_tick, expires_tick, language, request_id, open_entry_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25) RETURNING id',
      [c.userId, 'demo', t.instrument_id, t.code, t.direction, t.centilots, t.lot_size, t.leverage, t.price_decimals, t.open_ticks, t.stop_loss_ticks, t.take_profit_ticks, t.liquidation_ticks, t.conversion_num, t.conversion_den, t.notional_minor, t.margin_minor, t.fee_minor, t.fee_ppm, t.open_tick, t.live_tick, t.expires_tick, t.language, requestId, entry.id],
    );
    await audit.appendBatchInTx({ query: async (sql, params) => (await client_.query(sql, params)).rows }, [{
      actor: 'user:' + c.userId,
      action: 'ledger.trade_margin',
      subject: 'ledger_entry:' + entry.id,
      data: { book: 'demo', postings: postings.map(([account, amount]) => ({ account, asset: 'USDT', amount })), reference: 'order:' + requestId, reason: null },
    }]);
    await client_.query('COMMIT');
    return { code: 200, data: { id: position.id } };
  } catch (error) {
    await client_.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client_.release();
  }
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('same writes listening ' + app.server.address().port);
`;

async function placement(): Promise<void> {
  const dbName = `swx_bench_trading_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
  // Each case's connections carry its name, so the CPU of its PostgreSQL backends can be read.
  const urlOf = (name: string) => `${url}?application_name=swx-bench-${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'swx-bench-trading-'));
  const server = startProcess(
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
      join(ROOT, 'apps', 'server', 'src', 'main.ts'),
    ],
    {
      DATABASE_URL: urlOf('platform'),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      API_RATE_LIMIT: '100000000',
    },
    /Customer app\s+http:\/\/localhost:(\d+)\//,
  );
  const bare = startProcess(
    ['--input-type=module', '-e', BARE],
    { DATABASE_URL: urlOf('floor') },
    /bare listening (\d+)/,
  );
  const same = startProcess(
    ['--input-type=module', '-e', SAME_WRITES],
    {
      DATABASE_URL: urlOf('same'),
      AUDIT_MODULE: pathToFileURL(join(ROOT, 'apps', 'server', 'src', 'modules', 'audit', 'audit.service.ts'))
        .href,
    },
    /same writes listening (\d+)/,
  );
  try {
    const [serverPort, barePort, samePort] = await Promise.all([server.port, bare.port, same.port]);
    // 100 customers with sessions, made directly in the database (registration is not measured).
    const db = await openPostgres(url);
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
    // A coin whose 0.01 lot needs a few USDT of margin, so that the demo balance of 100 customers
    // lasts through every run (orders refused for want of balance would flatter the figures).
    const [coin] = await db.query<{ id: number }>(`SELECT id FROM instruments WHERE code = 'DOGEUSDT'`);
    const base = {
      marketId: Number(coin?.id),
      direction: 'long',
      lots: '0.01',
      leverage: 2,
      autoCloseAfter: null,
    };
    // A quote is signed for its customer and commits once, so each order takes a quote of its own:
    // every client keeps a few fresh ones (at most 1.5 s old, well within their 3 s lifetime), as
    // a ticket keeps its quote fresh while the customer looks at it; stops 20 % away. An order
    // whose client has none left asks for one first, and that preview counts in its latency.
    const POOL = 8;
    type Held = { quoteId: string; stopLoss: string; takeProfit: string; at: number };
    const pools: Held[][] = tokens.map(() => []);
    let stops = { stopLoss: '', takeProfit: '' };
    const previewFor = async (client: number): Promise<Held> => {
      const q = (
        await post(
          serverPort,
          '/swx/customer/order/previewOptions',
          { ...base, ...stops },
          { authorization: tokens[client] as string },
        )
      ).data as { quoteId: string };
      return { quoteId: q.quoteId, ...stops, at: performance.now() };
    };
    const refresh = async () => {
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
      const fresh = performance.now() - 1500;
      await Promise.all(
        pools.map(async (pool, client) => {
          // In place: orders take from this same list while the new quotes are asked for.
          for (const q of pool.filter((held) => held.at < fresh)) pool.splice(pool.indexOf(q), 1);
          const added = await Promise.all(
            Array.from({ length: POOL - pool.length }, () => previewFor(client)),
          );
          pool.push(...added);
        }),
      );
    };
    await refresh();
    // Renewed only while orders are measured (the floor does not commit them): the floor runs alone.
    let renewing = true;
    const timer = setInterval(() => {
      if (renewing) void refresh();
    }, 500);
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
      renewing = true;
      await refresh();
      return measure(order, sourceOf('platform', server.child.pid));
    };
    const floorRun = () => {
      renewing = false;
      return measure(floor, sourceOf('floor', bare.child.pid));
    };
    // Why the platform refused orders, by code, over every run.
    const refusedBy = new Map<number, number>();
    const order = async (client: number) => {
      const { at: _, ...quote } = pools[client]?.shift() ?? (await previewFor(client));
      const answer = await post(
        serverPort,
        '/swx/customer/order/buyOptions',
        { ...base, ...quote, requestId: randomUUID() },
        { authorization: tokens[client] as string },
      );
      if (answer.code !== 200) refusedBy.set(answer.code, (refusedBy.get(answer.code) ?? 0) + 1);
      return answer.code === 200;
    };
    const floor = (client: number) =>
      post(barePort, '/bare', { ...base, ...stops, requestId: randomUUID(), client }).then(
        (a) => a.code === 200,
      );
    const sameWrites = (client: number) =>
      post(samePort, '/order', { client, requestId: randomUUID() }).then((a) => a.code === 200);
    const sameRun = () => {
      renewing = false;
      return measure(sameWrites, sourceOf('same', same.child.pid));
    };
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
    // The latency of an order when the server is not saturated: half the platform's median rate,
    // offered at a fixed pace to the platform and to the floor (the same clients and quotes).
    const rate = Math.max(50, Math.round(medianRun(runs.platform).perSecond / 2 / 10) * 10);
    renewing = true;
    await refresh();
    const platformAtRate = await measureAtRate(order, rate);
    renewing = false;
    const floorAtRate = await measureAtRate(floor, rate);
    clearInterval(timer);
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
    const ratio = (a: Figures[], b: Figures[]) =>
      (medianRun(a).perSecond / medianRun(b).perSecond).toFixed(2);
    console.log(
      `  the platform: ${ratio(runs.platform, runs.same)}× the same-writes handler (target ≥ 2×, p99 < 100 ms), ${ratio(runs.platform, runs.floor)}× the one-INSERT floor (medians)`,
    );
    const open = (f: { p50: number; p99: number; count: number; errors: number }) =>
      `p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms (${f.count} sent, ${f.errors} refused)`;
    console.log(
      `  at a fixed ${rate} orders/s (open loop, ${SECONDS} s; latency from each order's scheduled time):`,
    );
    console.log(`  openPosition (the platform)                          ${open(platformAtRate)}`);
    console.log(`  bare Fastify, one INSERT (the floor)               ${open(floorAtRate)}`);
    console.log(
      `  the platform's refusals by code: ${[...refusedBy].map(([code, n]) => `${code} ×${n}`).join(', ') || 'none'}`,
    );
    const cpu = (runs: Figures[]) => {
      const c = medianRun(runs).cpu;
      return c
        ? `${c.process.toFixed(3)} ms in its process + ${c.postgres.toFixed(3)} ms in PostgreSQL`
        : 'n/a';
    };
    console.log(
      "  CPU per accepted order, median run (the platform's includes the quotes its clients renew):",
    );
    console.log(`  openPosition (the platform)                          ${cpu(runs.platform)}`);
    console.log(`  bare Fastify, the same writes, one tx per order    ${cpu(runs.same)}`);
    console.log(`  bare Fastify, one INSERT (the floor)               ${cpu(runs.floor)}`);
    console.log(
      `  positions written: ${count?.n}; audit rows: ${chain?.n} for ${chain?.events} events (a ledger batch is one row)`,
    );
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

/** 1,000,000 open longs on one instrument with stops spread below the price; a tick crosses 100,000. */
async function tick(): Promise<void> {
  const db = await openPglite(undefined);
  await migrate(db);
  const market = new MarketService(db);
  await market.load();
  const btc = market.instrument('BTCUSDT') as Instrument;
  let bid = 10_000_000n;
  const trading = new PositionsService({
    db,
    ledger: new LedgerService(db, new AuditService(db)),
    market,
    bus: createMemoryBus(),
    quote: () => ({ mid: bid, bid, ask: bid + 400n }),
  });
  const engine = new TriggerEngine({ trading, db, bus: createMemoryBus() });
  // 1,000,000 stay open for the measured tick after warm-up ticks close the first 2,000.
  const WARM_TICKS = 400;
  const WARM_EACH = 5;
  const N = 1_000_000 + WARM_TICKS * WARM_EACH;
  const base = {
    userId: 1,
    book: 'demo',
    instrumentId: btc.id,
    code: 'BTCUSDT',
    direction: 'long',
    centilots: 1n,
    lotSize: 1n,
    leverage: 2,
    priceDecimals: 2,
    openTicks: 10_000_400n,
    takeProfitTicks: 20_000_000n,
    liquidationTicks: 5_000_000n,
    conversionNum: 1n,
    conversionDen: 1n,
    notionalMinor: 1_000_000_000n,
    marginMinor: 500_000_000n,
    feeMinor: 1_000_000n,
    feePpm: 1000,
    openTick: 0,
    liveTick: 0,
    expiresTick: null,
    language: 'en',
    requestId: 'x',
    openEntryId: 1,
    openedAt: '',
    status: 'open',
    closeReason: null,
    closeTicks: null,
    closeTick: null,
    profitMinor: null,
    absorbedMinor: 0n,
    closeEntryId: null,
    closedAt: null,
    planId: null,
  } satisfies Omit<PositionRow, 'id' | 'stopLossTicks'>;
  const loadStart = performance.now();
  // Stop losses at distinct levels one cent apart from 99,999.99 down: the first 2,000 fire in the
  // warm-up ticks, the next 100,000 (10 % of the 1,000,000 then open) at the measured tick.
  engine.bulkLoad(
    (function* () {
      for (let i = 0; i < N; i++) yield { ...base, id: i + 1, stopLossTicks: 9_999_999n - BigInt(i) };
    })(),
  );
  const loadMs = performance.now() - loadStart;
  const memory = process.memoryUsage().heapUsed / 1024 / 1024;
  // A quiet tick first (nothing crosses); then small crossings, as a running server's ticks are
  // (the code path is compiled by then); then the crash that crosses 100,000 stops at once.
  let t0 = performance.now();
  const none = engine.detect(1_000);
  const quietMs = performance.now() - t0;
  // Warm-up: small crossings tick after tick, as a running server's ticks are (its code is hot).
  let warm = 0;
  for (let i = 1; i <= WARM_TICKS; i++) {
    bid = 10_000_000n - BigInt(i * WARM_EACH);
    warm += engine.detect(1_000 + i).length;
  }
  const open = engine.openCount;
  bid = 10_000_000n - BigInt(WARM_TICKS * WARM_EACH + 100_000); // the next 100,000 stops fire
  t0 = performance.now();
  const fired = engine.detect(1_100);
  const crossMs = performance.now() - t0;
  t0 = performance.now();
  const after = engine.detect(1_101);
  const nextMs = performance.now() - t0;
  console.log(
    `\nTrigger engine, ${N.toLocaleString('en')} open positions (${(N * 3).toLocaleString('en')} levels: stop loss, take profit, stop-out):`,
  );
  console.log(`  index built in ${loadMs.toFixed(0)} ms; heap ${memory.toFixed(0)} MB`);
  console.log(`  quiet tick (nothing crosses): ${quietMs.toFixed(3)} ms, ${none.length} closing`);
  console.log(`  warm-up ticks (as a running server has had) closed ${warm.toLocaleString('en')} positions`);
  console.log(
    `  tick crossing ${fired.length.toLocaleString('en')} of ${open.toLocaleString('en')} open positions' stop levels: ${crossMs.toFixed(1)} ms (target < 10 ms)`,
  );
  console.log(
    `  next tick: ${nextMs.toFixed(3)} ms, ${after.length} closing; ${engine.openCount.toLocaleString('en')} still open`,
  );
  await db.close();
}

const only = process.argv[3];
if (only !== 'placement') await tick();
if (only !== 'tick') await placement();
process.exit(0);
