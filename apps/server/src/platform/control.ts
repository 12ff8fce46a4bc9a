import { chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join, relative } from 'node:path';
import type { Logger } from './logger.ts';

/**
 * The operator control channel of a server that holds its data folder: a Unix domain socket
 * DATA_DIR/control.sock, mode 0600 (only the machine account that runs the server can connect).
 * An operator command (cli.ts) that finds a live server sends `{command, args, database}` as one
 * JSON line; the server parses and runs it in its own process, against its own database, and
 * streams back JSON lines `{stream: 'out' | 'err', text}` and finally `{exit}`. A command meant
 * for another database than the server's (`database`, see databaseIdentity) is answered
 * `{elsewhere: <the server's database>}`.
 */
export const CONTROL_SOCKET = 'control.sock';

/** What a command writes to; each call is one line of output. */
export type OperatorIo = { out(text: string): void; err(text: string): void };
export type ControlHandler = (command: string, args: string[], io: OperatorIo) => Promise<number>;

/**
 * Which database a configuration names, without its credentials: `host:port/name` of DATABASE_URL,
 * or `embedded` (the data folder's PGlite).
 */
export function databaseIdentity(databaseUrl: string | undefined): string {
  if (!databaseUrl) return 'embedded';
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

const MAX_REQUEST_BYTES = 64 * 1024;

/** Unix socket paths are limited to about 100 bytes: use the shorter of absolute and relative. */
function socketPath(dataDir: string): string {
  const absolute = join(dataDir, CONTROL_SOCKET);
  const fromHere = relative(process.cwd(), absolute);
  return fromHere.length < absolute.length ? fromHere : absolute;
}

function send(socket: Socket, message: object): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}

/**
 * Serves the control channel. Call only while holding the data folder's lock: a socket file left
 * by a process that died is removed first.
 */
export async function serveControl(
  dataDir: string,
  /** The server's own database (databaseIdentity). */
  database: string,
  handler: ControlHandler,
  logger: Logger,
): Promise<Server> {
  const path = socketPath(dataDir);
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const server = createServer((socket) => serveConnection(socket, database, handler, logger));
  // The socket file is created with the umask's mode: none for group and others from the start.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(path, () => {
        server.off('error', fail);
        done();
      });
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  server.unref();
  return server;
}

/** The command a connection sent in its first line: a name and string arguments (anything else: none). */
function parseRequest(line: string): { command: string; args: string[]; database: string } {
  let request: { command?: unknown; args?: unknown; database?: unknown };
  try {
    request = JSON.parse(line) as typeof request;
  } catch {
    request = {};
  }
  const command = typeof request.command === 'string' ? request.command : '';
  const args =
    Array.isArray(request.args) && request.args.every((a) => typeof a === 'string')
      ? (request.args as string[])
      : [];
  // A command of an older CLI names no database: it was meant for the folder's own.
  const database = typeof request.database === 'string' ? request.database : 'embedded';
  return { command, args, database };
}

/** One operator connection: its first line is the command, run once, its output streamed back. */
function serveConnection(socket: Socket, database: string, handler: ControlHandler, logger: Logger): void {
  let buffered = '';
  let started = false;
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  // A connection that never sends its command is dropped (it would hold up a graceful stop).
  socket.setTimeout(10_000, () => {
    if (!started) socket.destroy();
  });
  socket.on('data', (chunk: string) => {
    if (started) return;
    buffered += chunk;
    const end = buffered.indexOf('\n');
    if (end < 0) {
      if (buffered.length > MAX_REQUEST_BYTES) socket.destroy();
      return;
    }
    started = true;
    const request = parseRequest(buffered.slice(0, end));
    if (request.database !== database) {
      send(socket, { elsewhere: database });
      socket.end();
      return;
    }
    const { command, args } = request;
    const io: OperatorIo = {
      out: (text) => send(socket, { stream: 'out', text }),
      err: (text) => send(socket, { stream: 'err', text }),
    };
    logger.info({ command }, 'operator command');
    void handler(command, args, io)
      .catch((error: unknown) => {
        logger.error({ err: error, command }, 'operator command failed');
        io.err(`The command failed in the server: ${error instanceof Error ? error.message : String(error)}`);
        return 1;
      })
      .then((exit) => {
        send(socket, { exit });
        socket.end();
      });
  });
}

export async function closeControl(server: Server, dataDir: string): Promise<void> {
  await new Promise<void>((done) => server.close(() => done()));
  try {
    unlinkSync(socketPath(dataDir));
  } catch {
    // Already gone.
  }
}

/**
 * Sends a command to the server serving DATA_DIR's control socket. Resolves with its exit code,
 * or null when no server answers there (no socket, or a socket file its dead owner left), or
 * `{elsewhere}` naming the server's database when it runs on another than `database` (databaseIdentity).
 */
export function sendControl(
  dataDir: string,
  database: string,
  command: string,
  args: string[],
  io: OperatorIo,
): Promise<number | null | { elsewhere: string }> {
  return new Promise((done) => {
    const socket = connect(socketPath(dataDir));
    let connected = false;
    let exit: number | null = null;
    let elsewhere: string | null = null;
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ command, args, database })}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf('\n');
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        end = buffered.indexOf('\n');
        const message = JSON.parse(line) as {
          stream?: 'out' | 'err';
          text?: string;
          exit?: number;
          elsewhere?: string;
        };
        if (typeof message.elsewhere === 'string') elsewhere = message.elsewhere;
        else if (typeof message.exit === 'number') exit = message.exit;
        else if (message.stream === 'err') io.err(message.text ?? '');
        else io.out(message.text ?? '');
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected) done(null);
      else {
        io.err(`The connection to the server broke: ${error.message}`);
        done(1);
      }
    });
    socket.on('close', () => {
      if (!connected) return;
      if (elsewhere !== null) {
        done({ elsewhere });
        return;
      }
      if (exit === null) io.err('The server closed the connection before the command finished.');
      done(exit ?? 1);
    });
  });
}
