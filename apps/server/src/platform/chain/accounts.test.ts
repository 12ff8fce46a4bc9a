import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, DEV_DERIVATION_PATH, DEV_MNEMONIC } from './accounts.ts';
import { DEV_DEPOSIT_XPUB_EVM, deriveEvmAddress } from './derive.ts';

describe('the development accounts', () => {
  it('are the development mnemonic’s m/44’/60’/1’/0/i, and none is a sandbox deposit address', () => {
    // BIP-39 seed of an ASCII mnemonic: PBKDF2-HMAC-SHA512, salt "mnemonic", 2048 rounds.
    const root = HDKey.fromMasterSeed(pbkdf2Sync(DEV_MNEMONIC, 'mnemonic', 2048, 64, 'sha512'));
    const deposits = new Set(
      Array.from({ length: 1000 }, (_, i) => deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, i)),
    );
    for (const account of Object.values(DEV_ACCOUNTS)) {
      const key = root.derive(`${DEV_DERIVATION_PATH}${account.index}`).privateKey;
      expect(`0x${Buffer.from(key ?? []).toString('hex')}`).toBe(account.privateKey);
      expect(privateKeyToAccount(account.privateKey).address.toLowerCase()).toBe(account.address);
      expect(deposits.has(account.address)).toBe(false);
    }
    // 1,000 address derivations and a BIP-39 seed: CPU-heavy, a budget that holds on a busy machine.
  }, 60_000);
});
