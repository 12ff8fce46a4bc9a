// What a platform server says of itself over an interval (its /metrics, read before and after):
// the time its handlers took for one route, its ledger batches (how many, how big, how long), its
// garbage collections and its event loop's delay. A bench prints it beside a latency it measured
// from outside, so a tail can be placed: in the handler, in the ledger's commits, in a pause of
// the process, or outside it (the network, the client).
import { request } from 'node:http';
import type { Queryable } from '../apps/server/src/platform/db.ts';

type Sample = Map<string, number>;

/** Reads /metrics (Prometheus text) into `name{labels}` → value. */
export function scrape(port: number, token: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/metrics', headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`/metrics answered ${res.statusCode}`));
          const sample: Sample = new Map();
          for (const line of text.split('\n')) {
            if (line === '' || line.startsWith('#')) continue;
            const cut = line.lastIndexOf(' ');
            sample.set(line.slice(0, cut), Number(line.slice(cut + 1)));
          }
          resolve(sample);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const delta = (before: Sample, after: Sample, key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);

/** The upper bound of the bucket holding quantile q of a histogram's observations in the interval. */
function quantileBound(before: Sample, after: Sample, name: string, labels: string, q: number): string {
  const pairs = labels === '' ? [] : labels.split(',');
  const buckets = [...after.keys()]
    .filter((k) => k.startsWith(`${name}_bucket{`) && pairs.every((pair) => k.includes(pair)))
    .map((k) => ({ le: /le="([^"]+)"/.exec(k)?.[1] ?? '', n: delta(before, after, k) }));
  const total = buckets.find((b) => b.le === '+Inf')?.n ?? 0;
  if (total === 0) return 'n/a';
  const hit = buckets.find((b) => b.n >= q * total);
  return hit?.le === '+Inf' ? 'over the last bucket' : `≤ ${Number(hit?.le) * 1000} ms`;
}

/** One line of what the server's own figures say of the interval between two samples. */
export function inside(before: Sample, after: Sample, route: string): string {
  const handler = `method="POST",route="${route}",status="2xx"`;
  const h = 'swx_http_request_duration_seconds';
  const batches = delta(before, after, 'swx_ledger_batch_seconds_count');
  const operations = delta(before, after, 'swx_ledger_batch_size_sum');
  const gc = (kind: string) => {
    const n = delta(before, after, `nodejs_gc_duration_seconds_count{kind="${kind}"}`);
    const ms = delta(before, after, `nodejs_gc_duration_seconds_sum{kind="${kind}"}`) * 1000;
    return `${kind} ${n} (${ms.toFixed(0)} ms)`;
  };
  const lag = (key: string) => `${((after.get(key) ?? 0) * 1000).toFixed(1)} ms`;
  // The jobs this node ran in the interval (a minutely job's timer fires a minute after the start).
  const jobs = [...after.keys()]
    .filter((k) => k.startsWith('swx_job_runs_total{') && delta(before, after, k) > 0)
    .map((k) => `${/job="([^"]+)"/.exec(k)?.[1] ?? k} ${delta(before, after, k)}`);
  return [
    `handler p50 ${quantileBound(before, after, h, handler, 0.5)}, p99 ${quantileBound(before, after, h, handler, 0.99)}`,
    `ledger batches ${batches} (mean ${(operations / Math.max(1, batches)).toFixed(1)} operations; commit p50 ${quantileBound(before, after, 'swx_ledger_batch_seconds', '', 0.5)}, p99 ${quantileBound(before, after, 'swx_ledger_batch_seconds', '', 0.99)})`,
    `pool wait p50 ${quantileBound(before, after, 'swx_pg_pool_wait_seconds', '', 0.5)}, p99 ${quantileBound(before, after, 'swx_pg_pool_wait_seconds', '', 0.99)}, max ${quantileBound(before, after, 'swx_pg_pool_wait_seconds', '', 1)}`,
    `GC ${gc('minor')}, ${gc('major')}, ${gc('incremental')}`,
    `event loop delay p99 ${lag('nodejs_eventloop_lag_p99_seconds')}, max ${lag('nodejs_eventloop_lag_max_seconds')}`,
    `jobs run ${jobs.length > 0 ? jobs.join(', ') : 'none'}`,
  ].join('; ');
}

/** PostgreSQL's own counters a stall may come from: checkpoints, autovacuum and autoanalyze, WAL. */
export type PgActivity = {
  checkpoints: number;
  checkpointWriteMs: number;
  checkpointSyncMs: number;
  autovacuums: number;
  autoanalyzes: number;
  walBytes: bigint;
};

export async function pgActivity(db: Queryable): Promise<PgActivity> {
  const [row] = await db.query<{
    checkpoints: string;
    write_ms: string;
    sync_ms: string;
    vacuums: string;
    analyzes: string;
    wal: string;
  }>(
    `SELECT b.checkpoints_timed + b.checkpoints_req AS checkpoints, b.checkpoint_write_time AS write_ms,
       b.checkpoint_sync_time AS sync_ms,
       (SELECT coalesce(sum(autovacuum_count), 0) FROM pg_stat_all_tables) AS vacuums,
       (SELECT coalesce(sum(autoanalyze_count), 0) FROM pg_stat_all_tables) AS analyzes,
       pg_current_wal_lsn() - '0/0'::pg_lsn AS wal
     FROM pg_stat_bgwriter b`,
  );
  return {
    checkpoints: Number(row?.checkpoints),
    checkpointWriteMs: Number(row?.write_ms),
    checkpointSyncMs: Number(row?.sync_ms),
    autovacuums: Number(row?.vacuums),
    autoanalyzes: Number(row?.analyzes),
    walBytes: BigInt(String(row?.wal ?? '0').split('.')[0] ?? '0'),
  };
}

/** What PostgreSQL did between two readings (the stats lag by up to half a second). */
export function pgBetween(a: PgActivity, b: PgActivity): string {
  return `checkpoints ${b.checkpoints - a.checkpoints} (write ${(b.checkpointWriteMs - a.checkpointWriteMs).toFixed(0)} ms, sync ${(b.checkpointSyncMs - a.checkpointSyncMs).toFixed(0)} ms), autovacuums ${b.autovacuums - a.autovacuums}, autoanalyzes ${b.autoanalyzes - a.autoanalyzes}, WAL ${(Number(b.walBytes - a.walBytes) / 1048576).toFixed(1)} MB`;
}
