import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CallSigner, Chain, DevelopmentChain, WithdrawalSigner } from '../chain.ts';
import type { Config } from '../config.ts';
import { acquireDataLock, DataDirBusyError } from '../datalock.ts';
import type { Logger } from '../logger.ts';
import { startAnvil } from './anvil.ts';

/** The chain of this run (`platform.chain`): null when CHAIN=off. */
export type OpenedChain = {
  chain: Chain;
  /** The hot wallet's signer; null on a real chain without SIGNER_URL (withdrawals cannot be sent). */
  signer: WithdrawalSigner | null;
  /** The NFT custody account's contract-call signer (modules/nft/chain); null on a real chain (none configured yet). */
  custody: CallSigner | null;
  /** Test deposits, mining and reorganisations: development chains only (embedded, CHAIN_DEV_RPC_URL). */
  dev: DevelopmentChain | null;
  /** A development chain's JSON-RPC address (for wallets and tools); null for a real chain's (it may hold a key). */
  rpcUrl: string | null;
  /** Stops the embedded chain (its state is written to DATA_DIR/chain); idempotent. */
  close(): Promise<void>;
};

/**
 * Opens the chain the configuration names (config.chain): the embedded anvil (started here, its
 * state in DATA_DIR/chain/state.json, under DATA_DIR/chain's lock), a development chain someone
 * else started, or a real node. The viem client code is loaded while anvil starts, and only when a
 * chain is wanted.
 */
export async function openChain(config: Config, logger: Logger): Promise<OpenedChain | null> {
  const chain = config.chain;
  if (chain.kind === 'off') return null;
  const connecting = import('./connect.ts');
  if (chain.kind === 'development') return (await connecting).connectDevelopment(chain, 'development', null);
  if (chain.kind === 'external') return (await connecting).connectExternal(chain, logger);

  const folder = join(config.dataDir, 'chain');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  let lock: ReturnType<typeof acquireDataLock>;
  try {
    lock = acquireDataLock(folder, 'server');
  } catch (error) {
    if (error instanceof DataDirBusyError)
      throw new Error(
        `The embedded chain's folder ${folder} is in use by process ${error.holder.pid}: one server per ` +
          'DATA_DIR runs the embedded chain (several nodes share a chain with CHAIN_DEV_RPC_URL).',
      );
    throw error;
  }
  const started = await Promise.allSettled([
    startAnvil({ blockSeconds: chain.blockSeconds, statePath: join(folder, 'state.json'), logger }),
    connecting,
  ]);
  const [anvil, module] = started;
  if (anvil.status === 'rejected' || module.status === 'rejected') {
    if (anvil.status === 'fulfilled') await anvil.value.stop();
    lock.release();
    throw anvil.status === 'rejected' ? anvil.reason : (module as PromiseRejectedResult).reason;
  }
  const stop = async () => {
    await anvil.value.stop();
    lock.release();
  };
  try {
    return await module.value.connectDevelopment(
      { rpcUrl: anvil.value.url, tokenUsdt: undefined, blockSeconds: chain.blockSeconds },
      'embedded',
      stop,
    );
  } catch (error) {
    await stop();
    throw error;
  }
}
