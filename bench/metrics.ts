// The scrape time of /metrics (platform/metrics.ts) on a running server, beside its peer in the
// same run: /readyz, the probe a load balancer polls (one small database query). The server runs
// as its own process (PGlite, the simulated feed on); first it answers a spread of requests (API
// calls, logos, probes, unknown paths) so the exposition holds the series a live node holds; then
// ROUNDS rounds, each one scrape and one /readyz, one after the other over keep-alive. Prints
// median and p99 milliseconds of each and the exposition's size.
// Usage: node bench/metrics.ts [rounds, default 500]
import { randomBytes } from 'node:crypto';
import { startServer } from '../tests/support/server.ts';

const ROUNDS = Number(process.argv[2] ?? 500);
const TOKEN = randomBytes(24).toString('hex');

const server = await startServer({ METRICS_TOKEN: TOKEN });
const url = (path: string) => `${server.baseUrl}${path}`;

async function timed(path: string, headers: Record<string, string> = {}): Promise<[number, number]> {
  const start = performance.now();
  const response = await fetch(url(path), { headers });
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return [performance.now() - start, body.byteLength];
}

const figures = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms`;
};

try {
  // Not timed: the series a node that has served a while holds.
  const warm = [
    '/healthz',
    '/readyz',
    '/logos/BTCUSDT.svg',
    '/logos/ETHUSDT.svg',
    '/swx/customer/index/listMarketByType?type=2',
    '/swx/customer/index/getMarketInfo/1',
    '/swx/customer/nothing-here',
    '/swx/openapi.json',
  ];
  for (let i = 0; i < 20; i++) for (const path of warm) await fetch(url(path)).then((r) => r.arrayBuffer());
  const auth = { authorization: `Bearer ${TOKEN}` };
  for (let i = 0; i < 20; i++) await timed('/metrics', auth);
  const scrapes: number[] = [];
  const probes: number[] = [];
  let size = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const [ms, bytes] = await timed('/metrics', auth);
    scrapes.push(ms);
    size = bytes;
    probes.push((await timed('/readyz'))[0]);
  }
  console.log(`${ROUNDS} rounds on one node (PGlite, simulated feed), over keep-alive:`);
  console.log(`  /metrics  ${figures(scrapes)} (${(size / 1024).toFixed(1)} KiB exposition)`);
  console.log(`  /readyz   ${figures(probes)} (peer)`);
} finally {
  await server.stop();
}
