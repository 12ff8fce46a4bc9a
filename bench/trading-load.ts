// The load of bench/trading.ts: HTTP clients that post orders in a closed loop (each client sends its
// next request when the last is answered) or in an open loop at a fixed rate, and the figures of a
// run: accepted requests a second, latencies, and the CPU each accepted request cost the handler's
// process and its PostgreSQL backends (Linux /proc).
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';

/** The concurrent clients of every case. */
export const CLIENTS = 100;

export type Figures = {
  perSecond: number;
  p50: number;
  p99: number;
  count: number;
  errors: number;
  /** CPU ms per accepted request: the handler's process, and its PostgreSQL backends. */
  cpu: { process: number; postgres: number } | null;
};
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

export function post(port: number, path: string, body: unknown, headers: Record<string, string> = {}) {
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
export const medianRun = (runs: Figures[]) =>
  [...runs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(runs.length / 2)] as Figures;
export const spread = (runs: Figures[]) => {
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
export type CpuSource = { pid: number; backends: () => Promise<number[]> };

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

/** Closed loop: CLIENTS clients for `seconds`, each sending its next request once answered. */
export async function measure(
  op: (client: number) => Promise<boolean>,
  seconds: number,
  source?: CpuSource,
): Promise<Figures> {
  const canReadCpu = source !== undefined && existsSync(`/proc/${source.pid}/stat`);
  const before = canReadCpu ? await cpuSample(source) : null;
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
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
  const at = (q: number) => quantile(latencies, q);
  return {
    perSecond: (latencies.length - errors) / elapsed, // accepted requests only
    p50: at(0.5),
    p99: at(0.99),
    count: latencies.length,
    errors,
    cpu,
  };
}

/** The value at quantile `q` (0.99: p99) of latencies in increasing order; 0 when there are none. */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The figures of an open-loop run, with its latencies in increasing order (ms). */
export type AtRate = {
  p50: number;
  p99: number;
  count: number;
  errors: number;
  latencies: readonly number[];
};

/**
 * Open loop: requests sent at a fixed rate whatever the answers, spread over the clients in turn;
 * each latency runs from the request's scheduled time, so a stall is counted, not hidden.
 */
export async function measureAtRate(
  op: (client: number) => Promise<boolean>,
  rate: number,
  seconds: number,
): Promise<AtRate> {
  const interval = 1000 / rate;
  const total = Math.floor(rate * seconds);
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const trace: string[] = [];
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
          if (process.env.BENCH_TRACE)
            trace.push(`${(scheduled - t0).toFixed(1)} ${(performance.now() - scheduled).toFixed(1)}`);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  if (process.env.BENCH_TRACE)
    (await import('node:fs')).appendFileSync(
      process.env.BENCH_TRACE,
      `# rate ${rate} t0 ${t0.toFixed(1)} (performance.now() of the bench process)\n${trace.join('\n')}\n`,
    );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => quantile(latencies, q);
  return { p50: at(0.5), p99: at(0.99), count: latencies.length, errors, latencies };
}
