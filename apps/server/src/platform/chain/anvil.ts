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

export async function startAnvil(options: AnvilOptions): Promise<Anvil> {
  const args = [
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
  const binary = anvilBinary();
  const child: ChildProcessWithoutNullStreams =
    process.platform === 'win32'
      ? spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', GUARD, binary, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let anvilPid = process.platform === 'win32' ? (child.pid ?? 0) : 0;
  let output = '';
  let exited = false;
  const exit = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      exited = true;
      done(code);
    }),
  );
  child.stdin.on('error', () => {});
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    const pid = /anvil-pid (\d+)/.exec(chunk);
    if (pid) anvilPid = Number(pid[1]);
    output = (output + chunk).slice(-4000);
  });
  child.stdout.setEncoding('utf8');
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`anvil did not start in ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const onData = (chunk: string) => {
      output = (output + chunk).slice(-4000);
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    void exit.then((code) => {
      clearTimeout(timer);
      fail(new Error(`anvil exited (${code}) before it listened:\n${output}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
  }).catch(async (error: unknown) => {
    if (!exited) {
      child.stdin.end();
      await Promise.race([exit, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS))]);
      if (!exited) kill(child.pid, anvilPid);
    }
    throw error;
  });
  // From here its output (a few lines per block) is read and dropped; only its end is logged.
  child.stdout.removeAllListeners('data');
  child.stdout.on('data', (chunk: string) => {
    output = (output + chunk).slice(-4000);
  });
  let stopping = false;
  void exit.then((code) => {
    if (!stopping)
      options.logger?.error({ code, output: output.slice(-1000) }, 'the embedded chain (anvil) stopped');
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: anvilPid,
    async stop() {
      stopping = true;
      if (exited) return;
      child.stdin.end();
      if (process.platform === 'win32') child.kill('SIGTERM');
      const stopped = await Promise.race([
        exit.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), STOP_TIMEOUT_MS)),
      ]);
      if (!stopped) {
        options.logger?.warn('anvil did not stop in time: killed (its state since the last start is lost)');
        kill(child.pid, anvilPid);
        await exit;
      }
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
