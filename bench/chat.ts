// The customer-service chat under load on one node: N open conversations (default 1,000), each
// with its customer's socket joined, one agent's inbox socket; messages sent at a fixed rate both
// ways (customers → agent, agent → customers, round-robin over the conversations), each carrying
// its send time. Delivery latency is read where the frame arrives. The same clients, frames and
// rate then run against a bare `ws` relay (bench/chat-harness.mjs, no database, no checks) in the
// same run, and against the same relay committing each message to PostgreSQL before it sends it
// (the durable peer: what keeping every line costs at least); the p99s are printed side by side.
// The real server runs as its own process on PostgreSQL (the memory bus: one node), as do the
// harnesses.
// Usage: node bench/chat.ts [conversations, default 1000] [messages per second, default 100] [seconds, default 20]
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startServer } from '../tests/support/server.ts';
import { createStaffByCli, enrolStaffByApi } from '../tests/support/staff.ts';
import { benchDatabase } from './earn-day.ts';

const N = Number(process.argv[2] ?? 1000);
const RATE = Number(process.argv[3] ?? 100);
const SECONDS = Number(process.argv[4] ?? 20);

type Target = { url: string; agentToken: string; customers: { visitor: string; conversationId: number }[] };

/** Not timed: N visitors, each with an open conversation assigned to the agent (written as the module writes them). */
async function seed(
  db: Awaited<ReturnType<typeof benchDatabase>>['db'],
  agentId: number,
): Promise<Target['customers']> {
  const tokens = Array.from({ length: N }, () => randomBytes(32).toString('base64url'));
  const hashes = tokens.map((t) => createHash('sha256').update(t).digest('hex'));
  const visitors = await db.query<{ id: string; token_hash: string }>(
    `INSERT INTO support_visitors (email, token_hash, created_at)
     SELECT 'visitor' || g || '@bench.test', h, now() FROM unnest($1::text[]) WITH ORDINALITY AS x(h, g)
     RETURNING id, token_hash`,
    [hashes],
  );
  const idOf = new Map(visitors.map((v) => [v.token_hash, v.id]));
  await db.query('INSERT INTO support_agents (staff_id, max_open, online_until) VALUES ($1, 50, now())', [
    agentId,
  ]);
  const conversations = await db.query<{ id: string; visitor_id: string }>(
    `INSERT INTO support_conversations (visitor_id, email, language, state, agent_id, waiting_since, created_at, updated_at)
     SELECT v, 'v@bench.test', 'en', 'open', $2, now(), now(), now() FROM unnest($1::bigint[]) AS x(v)
     RETURNING id, visitor_id`,
    [hashes.map((h) => idOf.get(h)), agentId],
  );
  const conversationOf = new Map(conversations.map((c) => [c.visitor_id, Number(c.id)]));
  return tokens.map((visitor, i) => ({
    visitor,
    conversationId: conversationOf.get(idOf.get(hashes[i] as string) as string) as number,
  }));
}

type Measured = { latencies: number[]; sent: number; lost: number };

function open(url: string, hello: object, onFrame: (text: string) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.on('message', (data) => onFrame(String(data)));
    socket.on('open', () => {
      socket.send(JSON.stringify(hello));
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** The load: clients connected, then RATE messages a second for SECONDS, half each way. */
async function run(target: Target): Promise<Measured> {
  const latencies: number[] = [];
  const onFrame = (text: string) => {
    const marker = /"body":"bench:(\d+)/.exec(text);
    if (marker && text.includes('"t":"message"')) latencies.push(Date.now() - Number(marker[1]));
  };
  const agent = await open(target.url, { t: 'hello', as: 'agent', token: target.agentToken }, (text) => {
    if (text.includes('"author":"customer"')) onFrame(text);
  });
  const customers: WebSocket[] = [];
  for (let i = 0; i < target.customers.length; i += 100) {
    const group = target.customers.slice(i, i + 100).map(async (c) => {
      const socket = await open(target.url, { t: 'hello', as: 'customer', visitor: c.visitor }, (text) => {
        if (text.includes('"author":"agent"')) onFrame(text);
      });
      await new Promise((r) => setTimeout(r, 20));
      socket.send(JSON.stringify({ t: 'join', conversationId: c.conversationId }));
      return socket;
    });
    customers.push(...(await Promise.all(group)));
  }
  await new Promise((r) => setTimeout(r, 1000));
  let sent = 0;
  const total = RATE * SECONDS;
  await new Promise<void>((done) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE));
      for (; sent < due; sent += 1) {
        const i = sent % target.customers.length;
        const frame = JSON.stringify({
          t: 'send',
          conversationId: target.customers[i]?.conversationId,
          clientId: `b${sent}`,
          body: `bench:${Date.now()} message ${sent}`,
        });
        (sent % 2 === 0 ? customers[i] : agent)?.send(frame);
      }
      if (sent >= total) {
        clearInterval(timer);
        done();
      }
    }, 5);
  });
  await new Promise((r) => setTimeout(r, 3000));
  for (const socket of [agent, ...customers]) socket.close();
  return { latencies, sent, lost: sent - latencies.length };
}

function figures(m: Measured) {
  const sorted = [...m.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    sent: m.sent,
    delivered: sorted.length,
    lost: m.lost,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

async function harness(databaseUrl?: string): Promise<{ url: string; stop: () => void }> {
  const args = [join(import.meta.dirname, 'chat-harness.mjs'), ...(databaseUrl ? [databaseUrl] : [])];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const found = /port (\d+)/.exec(chunk.toString());
      if (found) resolve(Number(found[1]));
    });
  });
  return { url: `ws://127.0.0.1:${port}`, stop: () => child.kill() };
}

const database = await benchDatabase('chat');
const server = await startServer({ DATABASE_URL: database.url, FEED: 'off', LOG_LEVEL: 'warn' });
try {
  const password = createStaffByCli(server.dataDir, 'agent@bench.test', 'support', {
    DATABASE_URL: database.url,
  });
  const agent = await enrolStaffByApi(server.baseUrl, 'agent@bench.test', password);
  const customers = await seed(database.db, agent.staff.id);
  const chat = figures(
    await run({
      url: `${server.baseUrl.replace('http', 'ws')}/support/ws`,
      agentToken: agent.token,
      customers,
    }),
  );
  const bare = await harness();
  const relay = figures(await run({ url: bare.url, agentToken: 'bare', customers }));
  bare.stop();
  const durable = await harness(database.url);
  const committed = figures(await run({ url: durable.url, agentToken: 'bare', customers }));
  durable.stop();
  console.log(`chat bench: ${N} open conversations, ${RATE} messages/s for ${SECONDS} s, half each way`);
  console.log('                      sent  delivered  lost   p50 ms   p99 ms   max ms');
  for (const [name, f] of [
    ['/support/ws (server)', chat],
    ['bare ws relay', relay],
    ['relay + commit', committed],
  ] as const)
    console.log(
      `${name.padEnd(21)}${String(f.sent).padStart(5)}${String(f.delivered).padStart(11)}${String(f.lost).padStart(6)}${String(f.p50).padStart(9)}${String(f.p99).padStart(9)}${String(f.max).padStart(9)}`,
    );
  console.log(`p99 ratio (server / bare): ${(chat.p99 / relay.p99).toFixed(2)}× (aim: within 1.5×)`);
  console.log(`p99 ratio (server / relay + commit): ${(chat.p99 / committed.p99).toFixed(2)}×`);
} finally {
  await server.stop();
  await database.drop();
}
