// `npm run cluster [-- --nodes N]`: on one machine, N application nodes (default 3) behind nginx
// (Debian's package, installed with apt-get when absent), on the local PostgreSQL (a database of
// its own, `swx_cluster`, kept between runs) and Redis, with one development chain they share.
// Each node is the server as `npm start` runs it, on a loopback port of its own, with its own
// NODE_ID and DATA_DIR and the run's MASTER_KEY; nginx is a child of this process (its config,
// pid and logs in data/cluster/nginx), not the system service. Ctrl-C or SIGTERM stops it all.
// scripts/chaos.mjs starts the same shape through startCluster().
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startAnvil } from '../apps/server/src/platform/chain/anvil.ts';
import { connectDevelopment } from '../apps/server/src/platform/chain/connect.ts';
import { buildApps, root } from './lib.mjs';

const ADMIN_URL = process.env.CLUSTER_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Debian's nginx, installed when absent (non-interactive; needs root). */
export function ensureNginx() {
  if (spawnSync('nginx', ['-v']).status === 0) return;
  console.log('[cluster] installing nginx (apt-get install nginx-light)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const r = spawnSync('apt-get', ['install', '-y', '-q', 'nginx-light'], { stdio: 'inherit', env });
  if (r.status !== 0) throw new Error('apt-get install nginx-light failed (run as root, or install nginx)');
}

/**
 * nginx in front of the nodes: round robin over their loopback ports, HTTP/1.1 to them, websocket
 * upgrades passed through (a client's socket lives on one node; quotes reach every node through
 * Redis, so no sticky sessions), the client's address in X-Forwarded-For, the caller's
 * X-Request-Id kept (else nginx's own). A request goes to the next node only when its node refused
 * the connection (`error`, before any byte of the request was sent: safe for a POST that moves
 * money); never on a timeout or an answer, which could repeat a write. No upstream keep-alive: a
 * node that stops closes its listener, and nginx's next connection to it is refused, so retried.
 */
export function nginxConfig({ port, nodePorts, dir }) {
  const servers = nodePorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n');
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 2m;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  map $http_x_request_id $swx_request_id { default $http_x_request_id; '' $request_id; }
  upstream swx {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    proxy_http_version 1.1;
    proxy_set_header Host $host;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header X-Request-Id $swx_request_id;
    proxy_next_upstream error;
    proxy_next_upstream_tries 3;
    proxy_connect_timeout 2s;
    proxy_send_timeout 60s;
    location / {
      proxy_pass http://swx;
      proxy_read_timeout 60s;
    }
    # The quote websocket: open for as long as the client stays.
    location = /message {
      proxy_pass http://swx;
      proxy_read_timeout 1h;
    }
  }
}
`;
}

/** Starts nginx in the foreground as a child, its files in `dir`; `upstream(ports)` rewrites and reloads. */
export async function startNginx({ port, nodePorts, dir }) {
  ensureNginx();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, nginxConfig({ port, nodePorts, dir }));
  const child = spawn('nginx', ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: 'inherit' });
  await untilAnswers(`http://127.0.0.1:${port}/healthz`, 20_000, true);
  return {
    child,
    /** Points nginx at these node ports (a graceful reload) and waits for the new workers. */
    async upstream(ports) {
      writeFileSync(file, nginxConfig({ port, nodePorts: ports, dir }));
      child.kill('SIGHUP');
      await new Promise((r) => setTimeout(r, 700));
    },
    stop: () => stopChild(child, 'SIGQUIT'),
  };
}

/** Waits until `url` answers (200, or any answer with `any`). */
export async function untilAnswers(url, timeoutMs, any = false) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok || any) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function stopChild(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

/** Creates the database when missing; returns its URL. */
export async function ensureDatabase(name) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (rows.length === 0) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
}

export async function dropDatabase(name) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

/** One development chain for every node (anvil, a block every `blockSeconds`, the test USDT deployed). */
export async function startChain(blockSeconds) {
  const anvil = await startAnvil({ blockSeconds });
  const opened = await connectDevelopment(
    { rpcUrl: anvil.url, tokenUsdt: undefined, blockSeconds },
    'development',
    anvil.stop,
  );
  return {
    env: {
      CHAIN_DEV_RPC_URL: anvil.url,
      CHAIN_DEV_TOKEN_USDT: opened.chain.tokens.USDT,
      CHAIN_BLOCK_SECONDS: String(blockSeconds),
    },
    stop: anvil.stop,
  };
}

/** The run's master key: kept in `dir` (mode 0600) so a kept database opens with it again. */
function masterKey(dir) {
  const file = join(dir, 'master.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  chmodSync(file, 0o600);
  return readFileSync(file, 'utf8').trim();
}

/**
 * The cluster: the database `database` (created when missing), a chain, N nodes on ports
 * port+1…port+N and nginx on `port`. `env` is added to every node's. Returns handles to kill,
 * restart and stop its parts.
 */
export async function startCluster({ nodes = 3, port = 8080, database = 'swx_cluster', dir, env = {} }) {
  if (!existsSync(join(root, 'apps', 'web', 'dist', 'index.html'))) buildApps();
  mkdirSync(dir, { recursive: true });
  const databaseUrl = await ensureDatabase(database);
  const chain = await startChain(Number(env.CHAIN_BLOCK_SECONDS ?? 2));
  const metricsToken = randomBytes(24).toString('hex');
  const shared = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    MASTER_KEY: masterKey(dir),
    METRICS_TOKEN: metricsToken,
    TRUST_PROXY: 'true',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...chain.env,
    ...env,
  };
  const list = Array.from({ length: nodes }, (_, i) => ({
    id: `node-${i + 1}`,
    port: port + 1 + i,
    dataDir: join(dir, `node-${i + 1}`),
    child: null,
  }));
  const startNode = async (node) => {
    mkdirSync(node.dataDir, { recursive: true });
    const log = join(dir, `${node.id}.log`);
    const out = openSync(log, 'a');
    node.child = spawn(process.execPath, [join(root, 'apps', 'server', 'src', 'main.ts')], {
      cwd: root,
      env: { ...shared, NODE_ID: node.id, DATA_DIR: node.dataDir, PORT: String(node.port) },
      stdio: ['ignore', out, out],
    });
    await untilAnswers(`http://127.0.0.1:${node.port}/readyz`, 120_000);
  };
  // The first node migrates the database alone; the others then start together.
  await startNode(list[0]);
  await Promise.all(list.slice(1).map(startNode));
  const nginx = await startNginx({ port, nodePorts: list.map((n) => n.port), dir: join(dir, 'nginx') });
  let stopped = false;
  return {
    url: `http://127.0.0.1:${port}`,
    databaseUrl,
    metricsToken,
    nodes: list,
    nginx,
    startNode,
    /** Signals a node and waits for its process to end. */
    stopNode: (node, signal = 'SIGTERM') => (node.child ? stopChild(node.child, signal) : Promise.resolve()),
    async stop() {
      if (stopped) return;
      stopped = true;
      await nginx.stop();
      await Promise.all(list.map((n) => (n.child ? stopChild(n.child) : undefined)));
      await chain.stop();
    },
  };
}

const nodesArg = () => {
  const i = process.argv.indexOf('--nodes');
  return i > 0 ? Number(process.argv[i + 1]) : 3;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const nodes = nodesArg();
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error('--nodes takes a whole number, 1 or more');
  const port = Number(process.env.PORT ?? 8080);
  const cluster = await startCluster({ nodes, port, dir: join(root, 'data', 'cluster') });
  console.log(
    [
      '',
      `  SWX cluster: ${nodes} node(s) behind nginx, PostgreSQL database swx_cluster, Redis, one development chain`,
      `  Customer app  ${cluster.url}/`,
      `  Back office   ${cluster.url}/admin/`,
      `  Nodes         ${cluster.nodes.map((n) => `${n.id} 127.0.0.1:${n.port}`).join(', ')} (logs in data/cluster/<node>.log)`,
      `  Metrics       curl -H 'Authorization: Bearer ${cluster.metricsToken}' http://127.0.0.1:${cluster.nodes[0].port}/metrics`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
