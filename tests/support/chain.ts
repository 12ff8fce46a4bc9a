import { readdirSync, readFileSync } from 'node:fs';
import { startAnvil } from '../../apps/server/src/platform/chain/anvil.ts';
import { connectDevelopment } from '../../apps/server/src/platform/chain/connect.ts';
import type { OpenedChain } from '../../apps/server/src/platform/chain/open.ts';

export type TestChain = OpenedChain & {
  /** The node's JSON-RPC address. */
  url: string;
  /** What a server needs to use this chain: pass it to startServer (spread it into its env). */
  env: { CHAIN_DEV_RPC_URL: string; CHAIN_DEV_TOKEN_USDT: string; CHAIN_BLOCK_SECONDS: string };
  /** Drives the chain from the test: send from the faucet, mine, snapshot and revert. */
  dev: NonNullable<OpenedChain['dev']>;
};

/**
 * A development chain for a test file: anvil on a free loopback port, a block per transaction and
 * when asked (`dev.mine`), the test token deployed, no state kept. Servers of the file share it
 * through `env`; the test drives it with `dev`. Call `close()` in afterAll (a test process that
 * dies takes it along).
 */
export async function startTestChain(): Promise<TestChain> {
  const anvil = await startAnvil({ blockSeconds: 0 });
  let opened: OpenedChain;
  try {
    opened = await connectDevelopment(
      { rpcUrl: anvil.url, tokenUsdt: undefined, blockSeconds: 0 },
      'development',
      anvil.stop,
    );
  } catch (error) {
    await anvil.stop();
    throw error;
  }
  const { dev } = opened;
  if (!dev) throw new Error('a development chain without its development part');
  return {
    ...opened,
    dev,
    url: anvil.url,
    env: {
      CHAIN_DEV_RPC_URL: anvil.url,
      CHAIN_DEV_TOKEN_USDT: opened.chain.tokens.USDT,
      CHAIN_BLOCK_SECONDS: '0',
    },
  };
}

/** The processes (anvil and the shell that watches over it) started for a data folder (Linux /proc). */
export function anvilProcesses(dataDir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return args.includes('anvil') && args.includes(dataDir);
      } catch {
        return false;
      }
    })
    .map(Number);
}
