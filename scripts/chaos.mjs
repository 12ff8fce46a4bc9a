// `npm run chaos`: the cluster of scripts/cluster.mjs (3 nodes behind nginx, on a database of its
// own that it drops at the end) under a load of orders (each a preview, then an order with its own
// request id) and websocket clients, while it: SIGKILLs a node and restarts it, ten times;
// restarts PostgreSQL once; stops and starts Redis; stops a node with SIGTERM under load. Then it
// checks every acknowledged order is in the database, the ledger reconciles and the audit chain
// verifies, and every websocket client is receiving quotes again; and measures orders a second
// through nginx with 1, 2 and 3 nodes beside one node without nginx, and the /metrics scrape.
// It restarts the machine's PostgreSQL and Redis (`service …`): not for a machine others use.
// PostgreSQL and Redis are started again whatever happens.
import { execFile, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { openPostgres } from '../apps/server/src/platform/db.ts';
import { dropDatabase, startCluster, untilAnswers } from './cluster.mjs';
import { root } from './lib.mjs';

const CUSTOMERS = 40;
const SOCKETS = 30;
/** A request with no answer after this long counts as hung. */
const HANG_MS = 20_000;
const PORT = Number(process.env.CHAOS_PORT ?? 18180);
const database = `swx_chaos_${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'swx-chaos-'));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** `service <name> <action>`, without blocking the load of this same process meanwhile. */
const service = (name, action) => promisify(execFile)('service', [name, action]);

/** Customers with a session each, straight in the database (signing up is not what is tested). */
async function customers(db) {
  const ledger = new LedgerService(db, new AuditService(db));
  const made = [];
  for (let n = 0; n < CUSTOMERS; n++) {
    const [user] = await db.query(
      `INSERT INTO users (user_name, password_hash) VALUES ($1, '$argon2id$chaos') RETURNING id`,
      [`chaos_${n}@example.com`],
    );
    await ledger.openCustomerBooks(Number(user.id));
    const token = randomBytes(32).toString('base64url');
    const digest = createHash('sha256').update(token).digest('hex');
    await db.query(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
      [randomUUID().replaceAll('-', '').slice(0, 24), user.id, digest],
    );
    made.push({ userId: Number(user.id), token });
  }
  return made;
}

/** One call: the envelope's code, or `http <status>` / `net` / `hung`, and how long it took. */
async function call(base, path, body, token, requestId) {
  const started = performance.now();
  let code;
  let data = null;
  try {
    const r = await fetch(`${base}/swx/customer/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: token } : {}),
        ...(requestId ? { 'x-request-id': requestId } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HANG_MS),
    });
    const text = await r.text();
    try {
      const answer = JSON.parse(text);
      code = answer.code;
      data = answer.data;
    } catch {
      code = `http ${r.status}`;
    }
  } catch (error) {
    code = error.name === 'TimeoutError' ? 'hung' : 'net';
  }
  return { code, data, ms: performance.now() - started };
}

/** A failure that says nothing about the order (it may not have reached a node): sent again, same id. */
const TRANSIENT = new Set(['net', 'http 502', 'http 503', 'http 504', 10031]);

/**
 * The load: each customer in a loop previews a small DOGE long and orders it with a new request id
 * (sent again with the same id and quote after a transient failure, up to 3 times). Every order is
 * recorded under the phase it started in.
 */
function startLoad(base, people, marketId) {
  const orders = [];
  const state = { phase: 'steady', running: true, stops: null };
  const refreshStops = async () => {
    const p = await call(base, 'order/previewOptions', {
      marketId,
      direction: 'long',
      lots: '0.01',
      leverage: 2,
      stopLoss: '1.00',
      takeProfit: '1.00',
    });
    if (p.code !== 200) return;
    const decimals = p.data.bid.split('.')[1]?.length ?? 0;
    const bid = Number(p.data.bid);
    state.stops = { stopLoss: (bid * 0.8).toFixed(decimals), takeProfit: (bid * 1.2).toFixed(decimals) };
  };
  const client = async (person) => {
    while (state.running) {
      if (!state.stops) {
        await refreshStops();
        await sleep(200);
        continue;
      }
      const ticket = { marketId, direction: 'long', lots: '0.01', leverage: 2, ...state.stops };
      const preview = await call(base, 'order/previewOptions', ticket, person.token);
      if (preview.code !== 200) {
        await sleep(100);
        continue;
      }
      const order = { phase: state.phase, requestId: randomUUID(), userId: person.userId, codes: [], ms: 0 };
      orders.push(order);
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await call(
          base,
          'order/buyOptions',
          { ...ticket, quoteId: preview.data.quoteId, requestId: order.requestId },
          person.token,
          order.requestId,
        );
        order.codes.push(answer.code);
        order.ms = Math.max(order.ms, answer.ms);
        if (!TRANSIENT.has(answer.code)) break;
        await sleep(300);
      }
    }
  };
  const stopsTimer = setInterval(() => void refreshStops(), 5000);
  const done = Promise.all(people.map(client));
  return {
    orders,
    state,
    async stop() {
      state.running = false;
      clearInterval(stopsTimer);
      await done;
    },
  };
}

/** Websocket clients through nginx that reconnect and send their subscription again when cut. */
function startSockets(base) {
  const url = `${base.replace(/^http/, 'ws')}/message`;
  const clients = Array.from({ length: SOCKETS }, () => ({ opens: 0, lastQuoteAt: 0, socket: null }));
  let running = true;
  const open = (c) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    c.socket = socket;
    socket.on('open', () => {
      c.opens += 1;
      socket.send(JSON.stringify({ codes: ['DOGEUSDT', 'BTCUSDT'] }));
    });
    socket.on('message', () => {
      c.lastQuoteAt = Date.now();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (running) setTimeout(() => open(c), 250);
    });
  };
  for (const c of clients) open(c);
  return {
    clients,
    stop() {
      running = false;
      for (const c of clients) c.socket?.terminate();
    },
  };
}

/** Waits until an order through nginx is accepted again; the ms it took. */
async function untilOrdersFlow(load, from) {
  const start = performance.now();
  while (performance.now() - start < 60_000) {
    if (load.orders.some((o, i) => i >= from && o.codes.at(-1) === 200)) return performance.now() - start;
    await sleep(100);
  }
  return Number.NaN;
}

async function faults(cluster, load, sockets) {
  const resumed = {};
  const phase = async (name, work) => {
    load.state.phase = name;
    const t0 = performance.now();
    await work();
    await sleep(2000);
    resumed[name] = (performance.now() - t0) / 1000;
  };
  await phase('steady (no fault)', () => sleep(5000));
  await phase('node SIGKILL + restart ×10', async () => {
    for (let i = 0; i < 10; i++) {
      const node = cluster.nodes[i % cluster.nodes.length];
      await cluster.stopNode(node, 'SIGKILL');
      await sleep(500);
      await cluster.startNode(node);
    }
  });
  await phase('PostgreSQL restart', async () => {
    const t0 = performance.now();
    try {
      await service('postgresql', 'restart');
    } finally {
      ensureUp();
    }
    resumed.pgRestartMs = performance.now() - t0;
    resumed.postgres = await untilOrdersFlow(load, load.orders.length);
  });
  await phase('Redis stop, 10 s, start', async () => {
    try {
      redisStart = redisArgs();
      await promisify(execFile)('redis-cli', ['shutdown', 'nosave']).catch(() => undefined);
      if (spawnSync('redis-cli', ['ping']).status === 0) throw new Error('Redis did not stop');
      await sleep(10_000);
      resumed.redisQuotes = sockets.clients.filter((c) => c.lastQuoteAt > Date.now() - 2500).length;
    } finally {
      ensureUp();
    }
  });
  await phase('node SIGTERM (drain) + restart', async () => {
    const node = cluster.nodes[1];
    await cluster.stopNode(node, 'SIGTERM');
    await cluster.startNode(node);
  });
  return resumed;
}

/**
 * How the machine's Redis runs (read before it is stopped), to start it again the same way: a
 * daemon with the same address, port, folder and persistence, whoever started it first.
 */
function redisArgs() {
  const get = (name) =>
    (spawnSync('redis-cli', ['config', 'get', name], { encoding: 'utf8' }).stdout.split('\n')[1] ?? '').split(
      ' ',
    )[0];
  return ['bind', 'port', 'dir', 'save', 'appendonly'].flatMap((name) => [`--${name}`, get(name)]);
}
let redisStart = ['--bind', '127.0.0.1', '--port', '6379', '--save', ''];

/** PostgreSQL and Redis running, whatever happened. */
function ensureUp() {
  if (spawnSync('pg_isready', ['-h', '127.0.0.1', '-q']).status !== 0)
    spawnSync('service', ['postgresql', 'start'], { stdio: 'inherit' });
  if (spawnSync('redis-cli', ['ping']).status !== 0) {
    spawnSync('redis-server', [...redisStart, '--daemonize', 'yes'], { stdio: 'inherit', cwd: '/' });
    for (let i = 0; i < 50 && spawnSync('redis-cli', ['ping']).status !== 0; i++) spawnSync('sleep', ['0.1']);
  }
}

/** CPU ms a process and its children have used (utime + stime, 100 ticks a second; Linux /proc). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(' ')
      .filter(Boolean);
    return (
      (Number(fields[11]) + Number(fields[12])) * 10 + children.reduce((n, c) => n + cpuMs(Number(c)), 0)
    );
  } catch {
    return 0;
  }
}

/**
 * Orders a second for `seconds` against `base`, and the CPU ms each accepted order cost the nodes,
 * nginx, the run's PostgreSQL backends and this load generator.
 */
async function rate(base, people, marketId, seconds, cluster, db) {
  const backends = async () =>
    (await db.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])).map((r) => r.pid);
  const sample = async () => ({
    nodes: cluster.nodes.reduce((n, node) => n + cpuMs(node.child.pid), 0),
    nginx: cpuMs(cluster.nginx.child.pid),
    postgres: (await backends()).reduce((n, pid) => n + cpuMs(pid), 0),
    load: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  const load = startLoad(base, people, marketId);
  await sleep(1000);
  const from = load.orders.length;
  const before = await sample();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const after = await sample();
  const measured = load.orders.slice(from).filter((o) => o.codes.at(-1) === 200).length;
  const elapsed = (performance.now() - t0) / 1000;
  await load.stop();
  const per = (part) => ((after[part] - before[part]) / measured).toFixed(2);
  return {
    perSecond: measured / elapsed,
    cpu: `CPU ms an order: nodes ${per('nodes')}, nginx ${per('nginx')}, PostgreSQL ${per('postgres')}, load ${per('load')}`,
  };
}

async function scrapeTimes(cluster) {
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    const r = await fetch(`http://127.0.0.1:${cluster.nodes[0].port}/metrics`, {
      headers: { authorization: `Bearer ${cluster.metricsToken}` },
    });
    await r.text();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[10], max: times[19] };
}

function cli(command, databaseUrl) {
  const r = spawnSync(process.execPath, [join(root, 'apps', 'server', 'src', 'cli.ts'), command], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', CHAIN: 'off' },
    encoding: 'utf8',
  });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`.trim().split('\n').slice(-2).join(' / ') };
}

/** The count of each code in `codes`, as `code×n`. */
const tally = (codes) => {
  const counts = new Map();
  for (const c of codes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([c, n]) => `${c}×${n}`).join(' ');
};

function table(rows, inDb, seconds) {
  const phases = [...new Set(rows.map((o) => o.phase))];
  console.log(
    '\nfault                            s  orders  acknowledged  lost  retried  max ms  answers seen (every attempt)',
  );
  for (const phase of phases) {
    const of = rows.filter((o) => o.phase === phase);
    const ack = of.filter((o) => o.codes.at(-1) === 200);
    const lost = ack.filter((o) => !inDb.has(o.requestId)).length;
    const retried = of.filter((o) => o.codes.length > 1).length;
    const maxMs = Math.round(Math.max(0, ...of.map((o) => o.ms)));
    console.log(
      `${phase.padEnd(30)} ${String(Math.round(seconds[phase] ?? 0)).padStart(3)} ${String(of.length).padStart(7)}  ${String(ack.length).padStart(12)}  ${String(lost).padStart(4)}  ${String(retried).padStart(7)}  ${String(maxMs).padStart(6)}  ${tally(of.flatMap((o) => o.codes))}`,
    );
  }
}

/**
 * Prints the table and what was checked after the faults: every acknowledged order in the database,
 * reconciliation, the audit chain, the websocket clients, the scrape. Whether all held.
 */
async function verify(cluster, db, load, resumed) {
  const { wsBack, reconnects } = resumed;
  await untilAnswers(`${cluster.url}/readyz`, 30_000);
  const acked = new Set(load.orders.filter((o) => o.codes.at(-1) === 200).map((o) => o.requestId));
  const written = await db.query(
    `SELECT p.request_id FROM positions p JOIN users u ON u.id = p.user_id WHERE u.user_name LIKE 'chaos_%'`,
  );
  const inDb = new Set(written.map((r) => r.request_id));
  const lost = [...acked].filter((id) => !inDb.has(id)).length;
  table(load.orders, inDb, resumed);
  console.log(`total: ${load.orders.length} orders, ${acked.size} acknowledged, ${lost} lost`);
  const unacked = [...inDb].filter((id) => !acked.has(id)).length;
  console.log(
    `written without an acknowledgement (the answer was cut; a retry with the same id finds it): ${unacked}`,
  );
  console.log(
    `PostgreSQL restart: the restart took ${Math.round(resumed.pgRestartMs)} ms; the first order started after it was acknowledged within ${Math.round(resumed.postgres)} ms`,
  );
  console.log(
    `websocket clients: ${wsBack}/${SOCKETS} receiving quotes after the faults (${reconnects} reconnections, each sending its subscription again); ${resumed.redisQuotes}/${SOCKETS} receiving them with Redis stopped`,
  );
  const reconciled = cli('reconcile', cluster.databaseUrl);
  const verified = cli('audit:verify', cluster.databaseUrl);
  console.log(`reconcile: ${reconciled.ok ? 'ok' : 'FAILED'} (${reconciled.output})`);
  console.log(`audit:verify: ${verified.ok ? 'ok' : 'FAILED'} (${verified.output})`);

  const scrape = await scrapeTimes(cluster);
  console.log(
    `/metrics scrape: median ${scrape.median.toFixed(1)} ms, max ${scrape.max.toFixed(1)} ms (20 scrapes)`,
  );

  return lost === 0 && reconciled.ok && verified.ok && wsBack === SOCKETS;
}

/** Orders a second direct to one node, then through nginx to 1, 2 and 3 nodes. */
async function rates(cluster, db, people, marketId) {
  const SECONDS = Number(process.env.CHAOS_RATE_SECONDS ?? 10);
  const figures = [];
  const measure = async (name, base) =>
    figures.push([name, await rate(base, people, marketId, SECONDS, cluster, db)]);
  const direct = `http://127.0.0.1:${cluster.nodes[0].port}`;
  await cluster.nginx.upstream([cluster.nodes[0].port]);
  await measure('1 node, no nginx', direct);
  await measure('1 node through nginx', cluster.url);
  await cluster.nginx.upstream(cluster.nodes.slice(0, 2).map((n) => n.port));
  await measure('2 nodes through nginx', cluster.url);
  await cluster.nginx.upstream(cluster.nodes.map((n) => n.port));
  await measure('3 nodes through nginx', cluster.url);
  console.log(
    `\norders a second (${CUSTOMERS} clients, each order a preview then the order, ${SECONDS} s each; ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}):`,
  );
  for (const [name, f] of figures)
    console.log(`  ${name.padEnd(22)} ${f.perSecond.toFixed(0).padStart(5)} /s   ${f.cpu}`);
}

async function main() {
  ensureUp();
  const started = performance.now();
  const cluster = await startCluster({
    nodes: 3,
    port: PORT,
    database,
    dir,
    env: { API_RATE_LIMIT: '100000000', CHAIN_BLOCK_SECONDS: '0' },
  });
  const db = await openPostgres(cluster.databaseUrl);
  try {
    const people = await customers(db);
    const [coin] = await db.query(`SELECT id FROM instruments WHERE code = 'DOGEUSDT'`);
    const marketId = Number(coin.id);
    console.log(`[chaos] cluster up in ${Math.round(performance.now() - started)} ms at ${cluster.url}`);
    const sockets = startSockets(cluster.url);
    const load = startLoad(cluster.url, people, marketId);
    const resumed = await faults(cluster, load, sockets);
    load.state.phase = 'after the faults';
    await sleep(4000);
    resumed['after the faults'] = 4;
    await load.stop();
    const quietSince = Date.now() - 3000;
    const wsBack = sockets.clients.filter((c) => c.lastQuoteAt > quietSince).length;
    const reconnects = sockets.clients.reduce((n, c) => n + c.opens - 1, 0);
    sockets.stop();

    const ok = await verify(cluster, db, load, { ...resumed, wsBack, reconnects });
    await rates(cluster, db, people, marketId);
    process.exitCode = ok ? 0 : 1;
  } catch (error) {
    process.exitCode = 1;
    throw error;
  } finally {
    ensureUp();
    await db.close().catch(() => undefined);
    await cluster.stop();
    await dropDatabase(database).catch(() => undefined);
    if (process.exitCode) console.log(`[chaos] logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
    console.log(`[chaos] done in ${Math.round((performance.now() - started) / 1000)} s`);
  }
}

await main();
