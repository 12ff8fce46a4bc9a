import { describe, expect, it } from 'vitest';
import { addressesOf, privateKeysOf } from './keys.ts';
import { openVault, PBKDF2_ITERATIONS, sealVault, type VaultRecord, WrongPassphrase } from './vault.ts';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const PASS = 'correct horse battery';

async function sealed(extra: Partial<Parameters<typeof sealVault>[0]> = {}): Promise<VaultRecord> {
  return sealVault({
    customerId: 7,
    mnemonic: PHRASE,
    passphrase: PASS,
    addresses: addressesOf(PHRASE),
    backupVerified: true,
    origin: 'created',
    ...extra,
  });
}

/** 600,000 PBKDF2 rounds per vault: CPU-heavy, given a budget that holds on a busy two-core machine. */
const PBKDF2_BUDGET = 60_000;

describe('vault', () => {
  it(
    'opens with its passphrase; 600,000 PBKDF2-SHA-256 iterations, 16-byte salt, 12-byte IV',
    async () => {
      const record = await sealed();
      expect(record.kdf).toEqual({ name: 'PBKDF2', hash: 'SHA-256', iterations: PBKDF2_ITERATIONS });
      expect(PBKDF2_ITERATIONS).toBe(600_000);
      expect(atob(record.salt)).toHaveLength(16);
      expect(atob(record.iv)).toHaveLength(12);
      // The phrase's bytes and the 16-byte GCM tag.
      expect(atob(record.ciphertext)).toHaveLength(PHRASE.length + 16);
      expect(await openVault(record, PASS)).toBe(PHRASE);
    },
    PBKDF2_BUDGET,
  );

  it(
    'refuses a wrong passphrase, a changed ciphertext and a record moved to another customer',
    async () => {
      const record = await sealed();
      await expect(openVault(record, `${PASS}!`)).rejects.toBeInstanceOf(WrongPassphrase);
      const bytes = Uint8Array.from(atob(record.ciphertext), (c) => c.charCodeAt(0));
      bytes[0] = (bytes[0] as number) ^ 1;
      const tampered = { ...record, ciphertext: btoa(String.fromCharCode(...bytes)) };
      await expect(openVault(tampered, PASS)).rejects.toBeInstanceOf(WrongPassphrase);
      await expect(openVault({ ...record, customerId: 8 }, PASS)).rejects.toBeInstanceOf(WrongPassphrase);
    },
    PBKDF2_BUDGET,
  );

  it('refuses a passphrase under 10 characters', async () => {
    await expect(sealed({ passphrase: '123456789' })).rejects.toThrow();
  });

  it(
    'stores no word, no key and not the passphrase',
    async () => {
      const record = await sealed();
      const stored = JSON.stringify(record).toLowerCase();
      for (const word of new Set(PHRASE.split(' '))) expect(stored).not.toMatch(new RegExp(`\\b${word}\\b`));
      const keys = privateKeysOf(PHRASE);
      expect(stored).not.toContain(keys.evm.slice(2));
      expect(stored).not.toContain(keys.btc.toLowerCase());
      expect(stored).not.toContain(PASS);
      expect(record.addresses).toEqual(addressesOf(PHRASE));
    },
    PBKDF2_BUDGET,
  );

  it(
    'uses a new salt and IV every time',
    async () => {
      const [a, b] = await Promise.all([sealed(), sealed()]);
      expect(a.salt).not.toBe(b.salt);
      expect(a.iv).not.toBe(b.iv);
      expect(a.ciphertext).not.toBe(b.ciphertext);
    },
    PBKDF2_BUDGET,
  );
});
