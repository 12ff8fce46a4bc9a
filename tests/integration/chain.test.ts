import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../apps/server/src/platform/chain/accounts.ts';
import { DEV_DEPOSIT_XPUB_EVM, deriveEvmAddress } from '../../apps/server/src/platform/chain/derive.ts';
import { rpcClient } from '../../apps/server/src/platform/chain/rpc.ts';
import { OWN_XPUBS } from '../../apps/server/src/test/production.ts';
import { anvilProcesses, startTestChain, type TestChain } from '../support/chain.ts';
import { ROOT, type RunningServer, runCli, startServer } from '../support/server.ts';

const SLOW = 180_000;
const address = deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 11);
const hashOf = (stdout: string) =>
  /Transaction: (0x[0-9a-f]{64})/.exec(stdout)?.[1] as `0x${string}` | undefined;

/** npm run chain:send -- --to <address> --asset <asset> --amount <amount>, on a server's data folder. */
const chainSend = (dataDir: string, asset: string, amount: string) =>
  runCli(dataDir, 'chain:send', '--to', address, '--asset', asset, '--amount', amount);

describe('npm run chain:send against a server on a shared development chain', { timeout: SLOW }, () => {
  let chain: TestChain;
  let server: RunningServer;
  beforeAll(async () => {
    chain = await startTestChain();
    server = await startServer({ ...chain.env, FEED: 'off', JOBS: 'off' });
  }, SLOW);
  afterAll(async () => {
    await server?.stop();
    await chain?.close();
  });

  it('sends from the faucet through the running server; the test sees it on the chain', async () => {
    expect(server.output()).toContain(`Chain         development ${chain.url}`);
    const run = chainSend(server.dataDir, 'USDT', '150.25');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Sent 150.25 USDT to ${address} on the development chain`);
    const hash = hashOf(run.stdout);
    expect((await chain.chain.receipt(hash ?? '0x'))?.status).toBe('success');
    const receipt = await chain.chain.receipt(hash ?? '0x');
    const transfers = await chain.chain.transfers(receipt?.blockNumber ?? 0n, receipt?.blockNumber ?? 0n);
    expect(transfers.map((t) => [t.asset, t.from, t.to, t.amount])).toEqual([
      ['USDT', DEV_ACCOUNTS.faucet.address, address, 150_250_000n],
    ]);
    // The test drives the same chain: its own deposit and blocks are the server's too.
    // anvil answers a send when the transaction is in its pool; its block may come a moment later.
    await chain.dev.send({ to: address, asset: 'ETH', amount: 5n });
    await expect.poll(() => chain.chain.balanceOf(address, 'ETH'), { timeout: 30_000 }).toBe(5n);
  });

  it('refuses nonsense with the usage line (commands.test.ts has the cases)', () => {
    const run = chainSend(server.dataDir, 'USDT', '1.0000001');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: npm run chain:send -- --to <0x address>');
  });
});

describe('the embedded chain of a server', { timeout: SLOW }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ CHAIN: 'embedded', CHAIN_BLOCK_SECONDS: '0', FEED: 'off', JOBS: 'off' });
  }, SLOW);
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('npm run chain:send sends a test deposit on it and prints the transaction', async () => {
    const url = /Chain {9}embedded (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1];
    expect(url).toBeDefined();
    const run = chainSend(server.dataDir, 'ETH', '0.2');
    expect(run.status).toBe(0);
    const hash = hashOf(run.stdout);
    const receipt = await rpcClient(url ?? '').getTransactionReceipt({ hash: hash ?? '0x' });
    expect(receipt.status).toBe('success');
    expect(await rpcClient(url ?? '').getBalance({ address })).toBe(200_000_000_000_000_000n);
  });

  it('its anvil ends with the server, even when the server is killed', async () => {
    expect(anvilProcesses(server.dataDir).length).toBeGreaterThan(0);
    await server.stop('SIGKILL');
    await expect.poll(() => anvilProcesses(server.dataDir), { timeout: 30_000 }).toEqual([]);
  });

  it('with no server running, the command says the embedded chain runs inside the server', () => {
    const run = chainSend(server.dataDir, 'USDT', '1');
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('the embedded chain runs inside the server');
  });
});

describe('chain:send on a real chain', () => {
  it('is refused: real money is never sent by an operator command', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'apps', 'server', 'src', 'cli.ts'),
        'chain:send',
        '--to',
        address,
        '--asset',
        'USDT',
        '--amount',
        '150',
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: '/nonexistent/never-opened',
          EVM_RPC_URL: 'https://rpc.example.org',
          EVM_TOKEN_USDT: '0xdac17f958d2ee523a2206206994597c13d831ec7',
          MARKET_SOURCE: 'binance',
          ...OWN_XPUBS,
        },
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Refused: the chain is a real one (EVM_RPC_URL)');
  });
});
