// Broadcast harnesses for bench/quotes.mjs, one per process: a bare `ws` server or a socket.io
// server, each relaying the same Redis channel the platform listens on, so all three harnesses
// receive identical batches at the same moment. Usage: node bench/quotes-harness.mjs ws|socketio <port> <redisUrl>
import { createServer } from 'node:http';
import { Redis } from 'ioredis';

const [kind, portText, redisUrl] = process.argv.slice(2);
const port = Number(portText);
const redis = new Redis(redisUrl);
await redis.subscribe('swx:market.quotes');

if (kind === 'ws') {
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({ port, perMessageDeflate: false });
  redis.on('message', (_channel, payload) => {
    // The batch is parsed and serialized once, as the platform does, then written to every socket.
    const text = JSON.stringify(JSON.parse(payload));
    for (const socket of wss.clients) if (socket.readyState === 1) socket.send(text);
  });
} else if (kind === 'socketio') {
  const { Server } = await import('socket.io');
  const http = createServer();
  const io = new Server(http, { perMessageDeflate: false, transports: ['websocket'], serveClient: false });
  redis.on('message', (_channel, payload) => io.emit('message', JSON.parse(payload)));
  http.listen(port);
} else {
  throw new Error(`unknown harness ${kind}`);
}
process.stdout.write('ready\n');
