// N websocket clients in one process, for bench/quotes.mjs. Each batch carries a marker quote
// whose code is "T<epoch ms>", so a client measures tick-to-client latency on arrival.
// Usage: node bench/quotes-clients.mjs <n> <url> ws|socketio ; prints "ready", then on "report"
// (stdin) prints JSON figures and exits.
import { createInterface } from 'node:readline';

const [nText, url, kind] = process.argv.slice(2);
const n = Number(nText);
const latencies = [];
let deliveries = 0;
let startedAt = 0;
let stoppedAt = 0;
const sockets = [];

function onBatch(batch) {
  if (stoppedAt) return;
  deliveries += 1;
  const marker = batch[0]?.code;
  if (marker?.startsWith('T')) latencies.push(Date.now() - Number(marker.slice(1)));
}

/** Raw frames: read only the marker at the head of the text, as a real client would read one field. */
function onFrame(data) {
  if (stoppedAt) return;
  deliveries += 1;
  const marker = /"code":"T(\d+)"/.exec(data.toString('utf8', 0, 48));
  if (marker) latencies.push(Date.now() - Number(marker[1]));
}

async function openWs(i) {
  const { default: WebSocket } = await import('ws');
  return new Promise((resolve, reject) => {
    // The client is the measuring instrument: it reads one field, so it skips UTF-8 validation of
    // the whole frame (both ws targets alike) and its own cost delays the clients after it less.
    const socket = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
    socket.on('message', onFrame);
    socket.on('open', () => resolve(socket));
    socket.on('error', (e) => reject(new Error(`client ${i}: ${e.message}`)));
  });
}

async function openIo(i) {
  const { io } = await import('socket.io-client');
  return new Promise((resolve, reject) => {
    const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
    socket.on('message', onBatch);
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', (e) => reject(new Error(`client ${i}: ${e.message}`)));
  });
}

for (let i = 0; i < n; i += 250) {
  const group = [];
  for (let j = i; j < Math.min(n, i + 250); j++) group.push(kind === 'socketio' ? openIo(j) : openWs(j));
  sockets.push(...(await Promise.all(group)));
}
process.stdout.write('ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'start') {
    deliveries = 0;
    latencies.length = 0;
    startedAt = performance.now();
  }
  if (line === 'stop') stoppedAt = performance.now();
  if (line === 'report') {
    const seconds = ((stoppedAt || performance.now()) - startedAt) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? null;
    process.stdout.write(
      `${JSON.stringify({ deliveries, perSecond: deliveries / seconds, p50: at(0.5), p99: at(0.99), samples: latencies.length })}\n`,
    );
    for (const s of sockets) (s.close ?? s.disconnect).call(s);
    process.exit(0);
  }
});
