import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger.ts';
import { DEV_BALANCE_ETH, DEV_CHAIN_ID, DEV_DERIVATION_PATH, DEV_MNEMONIC } from './accounts.ts';

/**
 * anvil (Foundry's development node), from the npm registry: the package @foundry-rs/anvil ships
 * each platform's binary in an optional dependency (@foundry-rs/anvil-linux-amd64, …), resolved
 * here directly (its own postinstall is not needed). Nothing is downloaded at run time.
 */
const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

export function anvilBinary(): string {
  const name = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!name)
    throw new Error(
      `anvil has no build for ${process.platform}-${process.arch}: start a development chain yourself ` +
        '(CHAIN_DEV_RPC_URL) or run without one (CHAIN=off)',
    );
  const require = createRequire(import.meta.url);
  let folder: string;
  try {
    folder = dirname(require.resolve(`${name}/package.json`));
  } catch {
    throw new Error(`${name} is not installed (an optional dependency of @foundry-rs/anvil): run npm ci`);
  }
  return join(folder, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export type AnvilOptions = {
  /** 0: a block per transaction and when asked (anvil_mine); else interval mining. */
  blockSeconds: number;
  /** The state file: loaded at start when it exists, written when anvil stops. */
  statePath?: string;
  logger?: Logger;
};

export type Anvil = { url: string; port: number; pid: number; stop(): Promise<void> };

/**
 * A POSIX shell between us and anvil ties anvil's life to ours: the shell starts anvil and reads
 * its standard input, a pipe from this process; when this process ends, however it ends (SIGKILL
 * included), the pipe closes, the read returns, and anvil is told to stop (SIGTERM: it writes its
 * state and exits). `stop()` closes the pipe the same way. No orphan node outlives a server.
 */
const GUARD = [
  'exec 3<&0',
  '"$0" "$@" </dev/null &',
  'child=$!',
  'echo "anvil-pid $child" >&2',
  '(read -r _ <&3; kill -TERM "$child" 2>/dev/null) &',
  'reader=$!',
  'wait "$child"',
  'status=$?',
  'kill "$reader" 2>/dev/null',
  // Reaped before the shell exits, so no process of the chain is left once stop() returns.
  'wait "$reader" 2>/dev/null',
  'exit $status',
].join('\n');

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/** The command line of the development node: a random port, the development chain and accounts. */
function anvilArgs(options: AnvilOptions): string[] {
  return [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--chain-id',
    String(DEV_CHAIN_ID),
    '--mnemonic',
    DEV_MNEMONIC,
    '--derivation-path',
    DEV_DERIVATION_PATH,
    '--balance',
    String(DEV_BALANCE_ETH),
    ...(options.blockSeconds > 0 ? ['--block-time', String(options.blockSeconds)] : []),
    ...(options.statePath ? ['--state', options.statePath] : []),
  ];
}

/** A started anvil as this process follows it: anvil's own pid (behind the guard shell), its last output, its exit. */
type Child = {
  process: ChildProcessWithoutNullStreams;
  exit: Promise<number | null>;
  pid: number;
  output: string;
  exited: boolean;
};

function spawnAnvil(args: string[]): Child {
  const binary = anvilBinary();
  const child: ChildProcessWithoutNullStreams =
    process.platform === 'win32'
      ? spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', GUARD, binary, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let exited: (code: number | null) => void = () => {};
  const followed: Child = {
    process: child,
    exit: new Promise<number | null>((done) => {
      exited = done;
    }),
    pid: process.platform === 'win32' ? (child.pid ?? 0) : 0,
    output: '',
    exited: false,
  };
  child.once('exit', (code) => {
    followed.exited = true;
    exited(code);
  });
  child.stdin.on('error', () => {});
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    const pid = /anvil-pid (\d+)/.exec(chunk);
    if (pid) followed.pid = Number(pid[1]);
    followed.output = (followed.output + chunk).slice(-4000);
  });
  child.stdout.setEncoding('utf8');
  return followed;
}

/** The port anvil says it listens on; a start that fails or times out stops what was started. */
async function listeningPort(child: Child): Promise<number> {
  return new Promise<number>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`anvil did not start in ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const onData = (chunk: string) => {
      child.output = (child.output + chunk).slice(-4000);
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(child.output);
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    };
    child.process.stdout.on('data', onData);
    void child.exit.then((code) => {
      clearTimeout(timer);
      fail(new Error(`anvil exited (${code}) before it listened:\n${child.output}`));
    });
    child.process.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
  }).catch(async (error: unknown) => {
    if (!child.exited) {
      child.process.stdin.end();
      await Promise.race([child.exit, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS))]);
      if (!child.exited) kill(child.process.pid, child.pid);
    }
    throw error;
  });
}

/** Stops anvil (it writes its state); killed when it does not stop in time. */
async function stopAnvil(child: Child, logger: Logger | undefined): Promise<void> {
  if (child.exited) return;
  child.process.stdin.end();
  if (process.platform === 'win32') child.process.kill('SIGTERM');
  const stopped = await Promise.race([
    child.exit.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), STOP_TIMEOUT_MS)),
  ]);
  if (!stopped) {
    logger?.warn('anvil did not stop in time: killed (its state since the last start is lost)');
    kill(child.process.pid, child.pid);
    await child.exit;
  }
}

export async function startAnvil(options: AnvilOptions): Promise<Anvil> {
  const child = spawnAnvil(anvilArgs(options));
  const port = await listeningPort(child);
  // From here its output (a few lines per block) is read and dropped; only its end is logged.
  child.process.stdout.removeAllListeners('data');
  child.process.stdout.on('data', (chunk: string) => {
    child.output = (child.output + chunk).slice(-4000);
  });
  let stopping = false;
  void child.exit.then((code) => {
    if (!stopping)
      options.logger?.error(
        { code, output: child.output.slice(-1000) },
        'the embedded chain (anvil) stopped',
      );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    async stop() {
      stopping = true;
      await stopAnvil(child, options.logger);
    },
  };
}

function kill(...pids: (number | undefined)[]): void {
  for (const pid of pids)
    if (pid)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
}
