import type { ChainConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { DEV_CHAIN_ID } from './accounts.ts';
import { AnvilDevelopment, devSigner, ensureDevToken } from './development.ts';
import type { OpenedChain } from './open.ts';
import { RpcChain, rpcClient } from './rpc.ts';
import { localCallSigner, localSigner, remoteSigner } from './signer.ts';

/** The viem side of openChain (open.ts loads it on demand). */

function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= close();
    return closing;
  };
}

/** A development chain (anvil or Hardhat): the development accounts, the test token, DevelopmentChain. */
export async function connectDevelopment(
  config: { rpcUrl: string; tokenUsdt: `0x${string}` | undefined; blockSeconds: number },
  kind: 'embedded' | 'development',
  stop: (() => Promise<void>) | null,
): Promise<OpenedChain> {
  const client = rpcClient(config.rpcUrl);
  const chainId = await client.getChainId();
  if (chainId !== DEV_CHAIN_ID && kind === 'development')
    throw new Error(
      `CHAIN_DEV_RPC_URL is a chain with id ${chainId}, not a development chain (${DEV_CHAIN_ID})`,
    );
  const token = await ensureDevToken(client, chainId, config.tokenUsdt);
  const close = once(async () => {
    await stop?.();
  });
  const chain = new RpcChain({
    kind,
    chainId,
    tokens: { USDT: token },
    blockSeconds: config.blockSeconds,
    client,
    close,
  });
  return {
    chain,
    signer: localSigner(devSigner('hotWallet'), chainId, token),
    custody: localCallSigner(devSigner('nftCustody'), chainId),
    dev: new AnvilDevelopment(client, chainId, devSigner('faucet'), token),
    rpcUrl: config.rpcUrl,
    close,
  };
}

/** A real chain: no development accounts; the signer only when SIGNER_URL is configured. */
export async function connectExternal(
  config: Extract<ChainConfig, { kind: 'external' }>,
  logger: Logger,
): Promise<OpenedChain> {
  const client = rpcClient(config.rpcUrl);
  const chainId = await client.getChainId();
  const code = await client.getCode({ address: config.tokenUsdt });
  if (!code || code === '0x')
    throw new Error(`EVM_TOKEN_USDT ${config.tokenUsdt}: no contract on chain ${chainId}`);
  const close = once(async () => {});
  if (!config.signer) logger.warn('no withdrawal signer (SIGNER_URL): withdrawals cannot be sent on chain');
  return {
    chain: new RpcChain({
      kind: 'external',
      chainId,
      tokens: { USDT: config.tokenUsdt },
      blockSeconds: config.blockSeconds,
      client,
      close,
    }),
    signer: config.signer ? remoteSigner({ ...config.signer, chainId, tokenUsdt: config.tokenUsdt }) : null,
    custody: null,
    dev: null,
    rpcUrl: null,
    close,
  };
}
