import { describe, expect, it } from 'vitest';
import {
  DEV_DEPOSIT_XPUB_BTC,
  DEV_DEPOSIT_XPUB_EVM,
  deriveBtcAddress,
  deriveEvmAddress,
  parseExtendedPublicKey,
} from './derive.ts';

describe('deposit address derivation', () => {
  it('EVM: the development mnemonic’s m/44’/60’/0’/0/i are anvil’s accounts', () => {
    expect(deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 0)).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 1)).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    expect(deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 9)).toBe('0xa0ee7a142d267c1f36714e4a8f75612f20a79720');
  });

  it('Bitcoin: the BIP-84 test vectors (mnemonic "abandon … about", m/84’/0’/0’/0/i)', () => {
    // The BIP's account key, m/84'/0'/0' as a zpub; its external chain /0 is the parent of the addresses.
    const account = parseExtendedPublicKey(
      'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    );
    const external = account.deriveChild(0);
    expect(deriveBtcAddress(external, 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(deriveBtcAddress(external, 1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
  });

  it('one address per index, the same every time; the sandbox BTC key gives bc1q addresses', () => {
    const addresses = new Set(
      Array.from({ length: 20 }, (_, i) => deriveBtcAddress(DEV_DEPOSIT_XPUB_BTC, i)),
    );
    expect(addresses.size).toBe(20);
    expect(deriveBtcAddress(DEV_DEPOSIT_XPUB_BTC, 3)).toBe(deriveBtcAddress(DEV_DEPOSIT_XPUB_BTC, 3));
    for (const address of addresses) expect(address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
  });

  it('refuses hardened indexes, private keys and nonsense', () => {
    expect(() => deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 0x80000000)).toThrow(RangeError);
    expect(() => deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, -1)).toThrow(RangeError);
    expect(() => deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, 1.5)).toThrow(RangeError);
    expect(() =>
      parseExtendedPublicKey(
        'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
      ),
    ).toThrow();
    expect(() => parseExtendedPublicKey('xpub-nonsense')).toThrow();
  });
});
