import { describe, expect, it } from 'vitest';
import { OWN_XPUBS } from '../test/production.ts';
import { DEV_DEPOSIT_XPUB_BTC, DEV_DEPOSIT_XPUB_EVM } from './chain/derive.ts';
import { ConfigError, loadConfig } from './config.ts';

const TOKEN = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const REAL = {
  MARKET_SOURCE: 'binance',
  EVM_RPC_URL: 'https://rpc.example.org',
  EVM_TOKEN_USDT: TOKEN,
  ...OWN_XPUBS,
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('the chain in the configuration', () => {
  it('the sandbox default is the embedded chain, a block every 2 s, with the development deposit keys', () => {
    const config = loadConfig({});
    expect(config.chain).toEqual({ kind: 'embedded', blockSeconds: 2 });
    expect(config.depositXpubs).toEqual({
      evm: DEV_DEPOSIT_XPUB_EVM,
      btc: DEV_DEPOSIT_XPUB_BTC,
      development: true,
    });
    expect(loadConfig({ CHAIN_BLOCK_SECONDS: '0' }).chain).toEqual({ kind: 'embedded', blockSeconds: 0 });
    expect(loadConfig({ CHAIN: 'off' }).chain).toEqual({ kind: 'off' });
  });

  it('a development chain someone else runs: still the sandbox', () => {
    const config = loadConfig({ CHAIN_DEV_RPC_URL: 'http://127.0.0.1:8545', CHAIN_DEV_TOKEN_USDT: TOKEN });
    expect(config.production).toBe(false);
    expect(config.chain).toEqual({
      kind: 'development',
      rpcUrl: 'http://127.0.0.1:8545',
      tokenUsdt: TOKEN.toLowerCase(),
      blockSeconds: 0,
    });
    expect(refusal({ CHAIN_DEV_RPC_URL: 'http://chain.example.org:8545' })).toContain('CHAIN_DEV_RPC_URL');
  });

  it('a real chain: production, its token required, the signer all or nothing', () => {
    const config = loadConfig(REAL);
    expect(config.production).toBe(true);
    expect(config.chain).toEqual({
      kind: 'external',
      rpcUrl: 'https://rpc.example.org',
      tokenUsdt: TOKEN.toLowerCase(),
      blockSeconds: 12,
      signer: null,
    });
    const signed = loadConfig({
      ...REAL,
      SIGNER_URL: 'https://signer.example.org/',
      SIGNER_TOKEN: 'secret',
      SIGNER_ADDRESS: TOKEN,
    });
    expect(signed.chain.kind === 'external' && signed.chain.signer?.address).toBe(TOKEN.toLowerCase());
    expect(refusal({ ...REAL, EVM_TOKEN_USDT: '' })).toContain('EVM_TOKEN_USDT');
    expect(refusal({ ...REAL, SIGNER_URL: 'https://signer.example.org/' })).toContain('set all three');
    expect(refusal({ ...REAL, EVM_RPC_URL: 'http://rpc.example.org' })).toContain(
      'EVM_RPC_URL: must be an https URL',
    );
    expect(refusal({ ...REAL, CHAIN_DEV_RPC_URL: 'http://127.0.0.1:8545' })).toContain('not both');
    expect(refusal({ SIGNER_URL: 'https://signer.example.org/' })).toContain('for a real chain');
  });

  it('production refuses a development chain and the published deposit keys, naming each', () => {
    const embedded = refusal({ SWX_MODE: 'production', MARKET_SOURCE: 'binance', ...OWN_XPUBS });
    expect(embedded).toContain('EVM_RPC_URL: this is a production run (SWX_MODE=production)');
    expect(refusal({ ...REAL, CHAIN_DEV_RPC_URL: 'http://127.0.0.1:8545' })).toContain('not both');
    const keys = refusal({ ...REAL, DEPOSIT_XPUB_EVM: '', DEPOSIT_XPUB_BTC: DEV_DEPOSIT_XPUB_BTC });
    expect(keys).toContain('DEPOSIT_XPUB_EVM: this is a production run');
    expect(keys).toContain('DEPOSIT_XPUB_BTC: this is a production run');
    expect(refusal({ DEPOSIT_XPUB_EVM: 'xpub123' })).toContain('DEPOSIT_XPUB_EVM');
    // Every refusal at once, the simulator's among them.
    const all = refusal({ SWX_MODE: 'production' });
    expect(all).toContain('the simulated price feed must not price it');
    expect(all).toContain('DEPOSIT_XPUB_BTC');
  });
});
