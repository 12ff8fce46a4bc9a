import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyRing, masterKey, platformKeys, SANDBOX_KEY_FILE, sandboxMasterKey } from './keys.ts';

describe('the key ring', () => {
  it('derives one key per purpose, each with the master’s id; another master is another id and key', () => {
    const ring = new KeyRing(Buffer.alloc(32, 1));
    const quotes = ring.purpose('quotes');
    const devices = ring.purpose('device-tokens');
    expect(quotes.current.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(quotes.current.id).toBe(devices.current.id);
    expect(quotes.current.id).toBe(masterKey(Buffer.alloc(32, 1)).id);
    expect(quotes.current.key).toHaveLength(32);
    expect(quotes.current.key.equals(devices.current.key)).toBe(false);
    // The derived key is not the master itself.
    expect(quotes.current.key.equals(Buffer.alloc(32, 1))).toBe(false);
    const other = new KeyRing(Buffer.alloc(32, 2)).purpose('quotes');
    expect(other.current.id).not.toBe(quotes.current.id);
    expect(other.current.key.equals(quotes.current.key)).toBe(false);
  });

  it('keeps accepting the previous master’s id after a rotation, and none once it is removed', () => {
    const before = new KeyRing(Buffer.alloc(32, 1)).purpose('quotes');
    const rotated = new KeyRing(Buffer.alloc(32, 2), Buffer.alloc(32, 1)).purpose('quotes');
    expect(rotated.current.id).not.toBe(before.current.id);
    expect(rotated.byId(before.current.id)?.equals(before.current.key)).toBe(true);
    const after = new KeyRing(Buffer.alloc(32, 2)).purpose('quotes');
    expect(after.byId(before.current.id)).toBeUndefined();
    expect(after.byId('AAAAAAAA')).toBeUndefined();
  });
});

describe('the sandbox master', () => {
  it('is random, made at first start in DATA_DIR with mode 0600, and the same at every later start', () => {
    const one = mkdtempSync(join(tmpdir(), 'swx-keys-'));
    const two = mkdtempSync(join(tmpdir(), 'swx-keys-'));
    const first = sandboxMasterKey(one);
    expect(first).toHaveLength(32);
    expect(statSync(join(one, SANDBOX_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(one, SANDBOX_KEY_FILE), 'utf8').trim()).toBe(first.toString('hex'));
    expect(sandboxMasterKey(one).equals(first)).toBe(true);
    expect(sandboxMasterKey(two).equals(first)).toBe(false);
    // The server's ring: the folder's key unless MASTER_KEY is set.
    const ring = platformKeys({ dataDir: one, masterKeys: { current: null, previous: null } });
    expect(ring.currentId).toBe(masterKey(first).id);
    const set = platformKeys({ dataDir: one, masterKeys: { current: Buffer.alloc(32, 5), previous: null } });
    expect(set.currentId).toBe(masterKey(Buffer.alloc(32, 5)).id);
  });

  it('refuses a damaged key file instead of making a new key over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'swx-keys-'));
    writeFileSync(join(dir, SANDBOX_KEY_FILE), 'not a key\n', { mode: 0o600 });
    expect(() => sandboxMasterKey(dir)).toThrow(/is not a key/);
  });
});
