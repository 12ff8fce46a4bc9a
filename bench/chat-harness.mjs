// The bare `ws` harness of bench/chat.ts: the chat's shape with nothing behind it. Customers say
// hello and join a conversation; the one agent says hello. A customer's `send` goes to the agent,
// the agent's `send` to that conversation's customer, as the same JSON frames, in memory: no
// database, no checks. With a database URL, each message is first written to a table of its own
// (one INSERT, committed) and sent once committed: the least a relay that keeps what was said must
// do, the durable peer. Usage: node bench/chat-harness.mjs [database url] ; prints "port <n>",
// runs until killed.
import pg from 'pg';
import { WebSocketServer } from 'ws';

const databaseUrl = process.argv[2];
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 4 }) : null;
await pool?.query(
  'CREATE TABLE IF NOT EXISTS bench_relay_lines (id bigserial PRIMARY KEY, conversation_id bigint NOT NULL, body text NOT NULL)',
);

const server = new WebSocketServer({
  port: 0,
  host: '127.0.0.1',
  perMessageDeflate: false,
  maxPayload: 4096,
});
const rooms = new Map();
let agent = null;
let nextId = 1;

server.on('connection', (socket) => {
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.t === 'hello') {
      if (frame.as === 'agent') agent = socket;
      socket.send(JSON.stringify({ t: 'ready', as: frame.as, agentsOnline: true }));
    } else if (frame.t === 'join') rooms.set(frame.conversationId, socket);
    else if (frame.t === 'send') {
      const author = socket === agent ? 'agent' : 'customer';
      const forward = (id) => {
        const message = { id, conversationId: frame.conversationId, author, body: frame.body };
        const out = JSON.stringify({ t: 'message', message, clientId: frame.clientId });
        const target = author === 'agent' ? rooms.get(frame.conversationId) : agent;
        if (target?.readyState === 1) target.send(out);
      };
      if (!pool) forward(nextId++);
      else
        pool
          .query('INSERT INTO bench_relay_lines (conversation_id, body) VALUES ($1, $2) RETURNING id', [
            frame.conversationId,
            frame.body,
          ])
          .then((r) => forward(Number(r.rows[0].id)));
    }
  });
});
server.on('listening', () => process.stdout.write(`port ${server.address().port}\n`));
