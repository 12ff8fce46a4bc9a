import { describe, expect, it } from 'vitest';
import { BINANCE_STREAM_URL, ConfigError, loadConfig } from './config.ts';

/** A production run's own deposit keys (the BIP-84 test mnemonic's here) and no chain. */
export const OWN_XPUBS = {
  DEPOSIT_XPUB_EVM:
    'xpub6EF8jXqFeFEW5bwMU7RpQtHkzE4KJxcqJtvkCjJumzW8CPpacXkb92ek4WzLQXjL93HycJwTPUAcuNxCqFPKKU5m5Z2Vq4nCyh5CyPeBFFr',
  DEPOSIT_XPUB_BTC:
    'xpub6FPnz8nd9KHwrramFPiKretTQ6o7o7JdjjjuVgm9ByvK69i9sfZsTgHSr59PqHcg5E4CmCDbpZ1azNws6XaVNs4Tc9cUwgKQqZmUBoK3xUt',
};
const NO_CHAIN = { CHAIN: 'off', ...OWN_XPUBS };

describe('sandbox and production', () => {
  it('is the system’s unless the sandbox asks for a movable one; production refuses that', () => {
    expect(loadConfig({}).clock).toBe('system');
    expect(loadConfig({ SWX_CLOCK: 'movable' }).clock).toBe('movable');
    expect(() =>
      loadConfig({
        SWX_CLOCK: 'movable',
        SWX_MODE: 'production',
        MARKET_SOURCE: 'binance',
        CHAIN: 'off',
        ...OWN_XPUBS,
      }),
    ).toThrow(ConfigError);
  });

  it('the embedded default is the sandbox, priced by the simulator', () => {
    const config = loadConfig({});
    expect(config.production).toBe(false);
    expect(config.marketSource).toBe('simulated');
    expect(config.marketSourceUrl).toBeUndefined();
    expect(config.marketStaleSeconds).toBe(10);
  });

  it('production (SWX_MODE=production, or a real chain) refuses the simulator for the live book', () => {
    for (const env of [
      { SWX_MODE: 'production' },
      { EVM_RPC_URL: 'https://rpc.example.org' },
      { SWX_MODE: 'production', MARKET_SOURCE: 'simulated' },
      { SWX_MODE: 'sandbox', EVM_RPC_URL: 'https://rpc.example.org' },
    ]) {
      let refusal: unknown;
      try {
        loadConfig(env);
      } catch (error) {
        refusal = error;
      }
      expect(refusal, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((refusal as Error).message).toContain('the simulated price feed must not price it');
    }
    // A blank EVM_RPC_URL is no chain.
    expect(loadConfig({ EVM_RPC_URL: ' ' }).production).toBe(false);
  });

  it('production with a real exchange starts, on Binance’s public endpoint unless told otherwise', () => {
    const config = loadConfig({ SWX_MODE: 'production', MARKET_SOURCE: 'binance', ...NO_CHAIN });
    expect(config.production).toBe(true);
    expect(config.marketSource).toBe('binance');
    expect(config.marketSourceUrl).toBe(BINANCE_STREAM_URL);
    const local = loadConfig({ MARKET_SOURCE: 'binance', MARKET_SOURCE_URL: 'ws://127.0.0.1:9443/stream' });
    expect(local.marketSourceUrl).toBe('ws://127.0.0.1:9443/stream');
  });

  it('refuses a plain-text exchange address off this machine, and nonsense', () => {
    expect(() =>
      loadConfig({ MARKET_SOURCE: 'binance', MARKET_SOURCE_URL: 'ws://stream.example.org/stream' }),
    ).toThrow(/MARKET_SOURCE_URL must be a wss URL/);
    expect(() => loadConfig({ MARKET_SOURCE: 'kraken' })).toThrow(ConfigError);
    expect(() => loadConfig({ SWX_MODE: 'live' })).toThrow(ConfigError);
    expect(() => loadConfig({ MARKET_STALE_SECONDS: '0' })).toThrow(ConfigError);
  });
});
