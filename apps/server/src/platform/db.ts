import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { acquireDataLock, type LockRole } from './datalock.ts';

/**
 * One database interface over PGlite (the embedded default) and PostgreSQL. Both speak the same
 * SQL dialect and run the same migrations. 64-bit integers and numerics come back as strings, so
 * repositories turn money into `bigint` without passing through a float.
 */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs several statements (no parameters), as a migration file does. */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** PostgreSQL's pool: connections open, idle, and requests waiting for one (metrics). */
  poolUse?: () => { total: number; idle: number; waiting: number };
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const INT8 = 20;
const NUMERIC = 1700;

/**
 * PostgreSQL with a URL; else PGlite in DATA_DIR/pglite, which one process at a time may open: the
 * data folder's lock (datalock.ts) is taken first and released on close, and a folder another live
 * process holds is refused with DataDirBusyError.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  role?: LockRole;
  /** PostgreSQL: told how long each query or transaction waited for a pool connection (seconds). */
  onPoolWait?: (seconds: number) => void;
}): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, options.onPoolWait ? { onPoolWait: options.onPoolWait } : {});
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireDataLock(options.dataDir, options.role ?? 'server');
  let db: Database;
  try {
    db = await openPglite(join(options.dataDir, 'pglite'));
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    ...db,
    async close() {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
  };
}

/** `loadDataDir`: a dump (`dumpDataDir`) the database starts from, instead of an empty one. */
export async function openPglite(
  directory: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<Database> {
  if (directory) mkdirSync(directory, { recursive: true });
  const asText = (value: string) => value;
  const db = await PGlite.create(directory ?? 'memory://', {
    parsers: { [INT8]: asText, [NUMERIC]: asText },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    async close() {
      await db.close();
    },
  };
}

/** How long a request waits for a PostgreSQL connection before it is answered 10031. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** PostgreSQL's codes of a server that is down, restarting or gone (classes 08 and 57P). */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3])/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/**
 * Whether an error says the database cannot be reached (refused, restarting, a connection cut or
 * refused with FATAL, or no connection within CONNECT_TIMEOUT_MS), rather than that a query was wrong: the request is then
 * answered 10031 (try again), and the pool reconnects by itself once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code)))
    return true;
  // FATAL ends the session: the server refused or dropped this connection (e.g. not accepting connections).
  if ((error as { severity?: unknown }).severity === 'FATAL') return true;
  return /^(Connection terminated|timeout exceeded when trying to connect)/.test(error.message);
}

export async function openPostgres(
  url: string,
  options: {
    onPoolWait?: (seconds: number) => void;
    /**
     * How long a query or transaction waits for a connection (CONNECT_TIMEOUT_MS by default, after
     * which a request is answered 10031). The database tests give theirs longer: fifty transactions
     * at once on a loaded two-core machine queue longer than a customer should wait, and what they
     * check is the outcome of the race, not the wait.
     */
    connectTimeoutMs?: number;
  } = {},
): Promise<Database> {
  const asText = (value: string) => value;
  const pool = new pg.Pool({
    connectionString: url,
    max: 16,
    // An idle connection is kept five minutes (pg's default is 10 s): after a quiet spell a burst
    // of orders otherwise waits for new connections and their cold backends (bench:trading, 500
    // orders/s after 10 s without orders: p99 180 ms with 10 s, 84 ms kept).
    idleTimeoutMillis: 300_000,
    // Idle connections alone never keep a process alive (a command that ends without closing exits).
    allowExitOnIdle: true,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8 || oid === NUMERIC
          ? asText
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  await pool.query('SELECT 1');
  const onConnection = connectionOf(pool, options.onPoolWait);
  const wrap = (client: pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  return {
    kind: 'postgres',
    query: (sql, params) => onConnection((client) => wrap(client).query(sql, params)),
    exec: (sql) => onConnection((client) => wrap(client).exec(sql)),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    transaction: (work) =>
      onConnection(async (client) => {
        try {
          await client.query('BEGIN');
          const result = await work(wrap(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
    async close() {
      await pool.end();
    },
  };
}

/**
 * Work on one connection of the pool, its wait for it told to `onPoolWait`. A connection lost
 * during the work fails the query in progress; its client's own 'error' event must not end the
 * process (the pool listens only to idle clients). Such a client is then discarded, not returned
 * to the pool.
 */
function connectionOf(pool: pg.Pool, onPoolWait: ((seconds: number) => void) | undefined) {
  return async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const asked = performance.now();
    const client = await pool.connect();
    onPoolWait?.((performance.now() - asked) / 1000);
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
    };
    client.on('error', onError);
    try {
      return await work(client);
    } catch (error) {
      if (isDatabaseUnavailable(error)) lost ??= error as Error;
      throw error;
    } finally {
      client.off('error', onError);
      client.release(lost);
    }
  };
}
