import { describe, expect, it } from 'vitest';
import { OWN_XPUBS } from '../test/production.ts';
import { BINANCE_STREAM_URL, ConfigError, loadConfig } from './config.ts';

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

describe('secrets', () => {
  const production = { SWX_MODE: 'production', MARKET_SOURCE: 'binance', CHAIN: 'off' };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    return '';
  };

  it('production refuses to start without MASTER_KEY, naming it beside every other missing secret', () => {
    const { MASTER_KEY: _, ...withoutMaster } = OWN_XPUBS;
    expect(refusal({ ...production, ...withoutMaster })).toContain('MASTER_KEY: this is a production run');
    const all = refusal({ SWX_MODE: 'production' });
    for (const name of ['MASTER_KEY', 'DEPOSIT_XPUB_EVM', 'DEPOSIT_XPUB_BTC', 'MARKET_SOURCE'])
      expect(all).toContain(`  ${name}:`);
    expect(refusal({ ...production, ...OWN_XPUBS, MASTER_KEY: 'not hex' })).toContain('MASTER_KEY');
    const config = loadConfig({ ...production, ...OWN_XPUBS });
    expect(config.masterKeys.current?.toString('hex')).toBe(OWN_XPUBS.MASTER_KEY);
    expect(config.masterKeys.previous).toBeNull();
  });

  it('the sandbox has no key in the code: unset, the master is its own folder’s (platform/keys.ts)', () => {
    expect(loadConfig({}).masterKeys).toEqual({ current: null, previous: null });
  });

  it('refuses the old TOTP_KEY rather than ignore it, and a previous key equal to the current one', () => {
    expect(refusal({ TOTP_KEY: 'ab'.repeat(32) })).toContain('TOTP_KEY: renamed MASTER_KEY');
    expect(refusal({ MASTER_KEY: 'ab'.repeat(32), MASTER_KEY_PREVIOUS: 'AB'.repeat(32) })).toContain(
      'MASTER_KEY_PREVIOUS',
    );
    const rotated = loadConfig({ MASTER_KEY: 'ab'.repeat(32), MASTER_KEY_PREVIOUS: 'cd'.repeat(32) });
    expect(rotated.masterKeys.previous?.toString('hex')).toBe('cd'.repeat(32));
  });
});
