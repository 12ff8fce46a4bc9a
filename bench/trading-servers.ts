// The three servers of bench/trading.ts, each a process of its own on the bench's database: the
// platform, and two bare Fastify handlers to compare it with (the same writes as an order, and the
// one-INSERT floor).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');

type Started = { child: ChildProcess; port: Promise<number> };

/**
 * A Node process of the bench, and the port it says (in its output, matched by `ready`) it listens
 * on. With BENCH_SERVER_LOG=<path>, its whole output is kept in <path>.<name> (with
 * NODE_OPTIONS=--import=<a module printing perf_hooks' gc entries>, each process's collections:
 * Node refuses --trace-gc in NODE_OPTIONS).
 */
function startProcess(name: string, args: string[], env: Record<string, string>, ready: RegExp): Started {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = process.env.BENCH_SERVER_LOG;
  const port = new Promise<number>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      if (keep) appendFileSync(`${keep}.${name}`, chunk);
      if (output.length > 100_000) return;
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

export type Servers = { server: Started; bare: Started; same: Started; metricsToken: string };

/** Starts the platform (its data folder `dataDir`) and the two bare handlers on the database at `url`. */
export function startServers(url: string, dataDir: string): Servers {
  // Each case's connections carry its name, so the CPU of its PostgreSQL backends can be read.
  const urlOf = (name: string) => `${url}?application_name=swx-bench-${name}`;
  // The bench reads the platform's own figures (/metrics) around its open loop.
  const metricsToken = randomBytes(24).toString('base64url');
  const server = startProcess(
    'platform',
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
      // Node options for the platform's process only (e.g. V8's heap sizes), space-separated.
      ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []),
      join(ROOT, 'apps', 'server', 'src', 'main.ts'),
    ],
    {
      DATABASE_URL: urlOf('platform'),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      API_RATE_LIMIT: '100000000',
      METRICS_TOKEN: metricsToken,
    },
    /Customer app\s+http:\/\/localhost:(\d+)\//,
  );
  const bare = startProcess(
    'floor',
    ['--input-type=module', '-e', BARE],
    { DATABASE_URL: urlOf('floor') },
    /bare listening (\d+)/,
  );
  const same = startProcess(
    'same',
    ['--input-type=module', '-e', SAME_WRITES],
    {
      DATABASE_URL: urlOf('same'),
      AUDIT_MODULE: pathToFileURL(join(ROOT, 'apps', 'server', 'src', 'modules', 'audit', 'audit.service.ts'))
        .href,
    },
    /same writes listening (\d+)/,
  );
  return { server, bare, same, metricsToken };
}
