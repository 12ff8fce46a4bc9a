import { hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { ownershipMessage } from '@swx/contract';
import { recoverMessageAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import vectors from './fixtures/bip39-english.json' with { type: 'json' };
import { addressesOf, privateKeysOf, seedOf, signPersonalMessage } from './keys.ts';
import {
  challengeMismatches,
  challengePassed,
  challengePositions,
  mnemonicOf,
  mnemonicProblem,
  newMnemonic,
} from './words.ts';

const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const JUNK = 'test test test test test test test test test test test junk';

describe('BIP-39 (the reference English vectors: entropy → words → seed with "TREZOR" → master key)', () => {
  it('has the 24 vectors', () => expect(vectors.english).toHaveLength(24));
  for (const [entropy, words, seed, xprv] of vectors.english as [string, string, string, string][]) {
    it(`${words.split(' ').length} words from ${entropy.slice(0, 8)}…`, () => {
      expect(mnemonicOf(hexToBytes(entropy))).toBe(words);
      const derived = seedOf(words, vectors.passphrase);
      expect(Buffer.from(derived).toString('hex')).toBe(seed);
      expect(HDKey.fromMasterSeed(derived).privateExtendedKey).toBe(xprv);
      // The wallet restores 12 or 24 words (spec §5: a new one has 12); 18 are valid BIP-39 but refused.
      expect(mnemonicProblem(words)).toBe([12, 24].includes(words.split(' ').length) ? null : 'count');
    });
  }
});

describe('words', () => {
  it('makes 12 valid words, different each time', () => {
    const a = newMnemonic();
    expect(a.split(' ')).toHaveLength(12);
    expect(mnemonicProblem(a)).toBeNull();
    expect(newMnemonic()).not.toBe(a);
  });

  it('says why typed words are not a phrase', () => {
    expect(mnemonicProblem('abandon abandon abandon')).toBe('count');
    expect(mnemonicProblem(ABANDON.replace('about', 'abandon'))).toBe('checksum');
    expect(mnemonicProblem(ABANDON.replace('about', 'aboutt'))).toBe('unknown_word');
    expect(mnemonicProblem(`  ${ABANDON.toUpperCase().replaceAll(' ', '\n  ')} `)).toBeNull();
  });

  it('asks for 3 different positions and checks the words typed there', () => {
    for (let i = 0; i < 50; i++) {
      const p = challengePositions(12);
      expect(new Set(p).size).toBe(3);
      expect(p.every((x) => x >= 0 && x < 12)).toBe(true);
    }
    expect(challengePassed(JUNK, [0, 5, 11], ['test', ' TEST ', 'junk'])).toBe(true);
    expect(challengePassed(JUNK, [0, 5, 11], ['test', 'test', 'test'])).toBe(false);
    expect(challengePassed(JUNK, [0, 5, 11], ['test', 'test'])).toBe(false);
  });

  it('names which of the typed words do not match (so the screen can say "Word 7")', () => {
    expect(challengeMismatches(JUNK, [0, 5, 11], ['test', ' TEST ', 'junk'])).toEqual([]);
    expect(challengeMismatches(JUNK, [0, 6, 11], ['test', 'test', 'test'])).toEqual([2]);
    expect(challengeMismatches(ABANDON, [1, 6, 11], ['zoo', 'abandon', 'zoo'])).toEqual([0, 2]);
    expect(challengeMismatches(JUNK, [0, 5, 11], ['test'])).toEqual([1, 2]);
  });
});

describe('keys and addresses', () => {
  it("derives the known EVM (m/44'/60'/0'/0/0) and Bitcoin (m/84'/0'/0'/0/0) addresses", () => {
    expect(addressesOf(ABANDON)).toEqual({
      evm: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
      btc: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
    });
    expect(addressesOf(JUNK).evm).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('gives the private keys: EVM as 0x hex, Bitcoin as WIF', () => {
    // Hardhat's and anvil's published account 0, and BIP-84's published first key.
    expect(privateKeysOf(JUNK).evm).toBe(
      '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    );
    expect(privateKeysOf(ABANDON).btc).toBe('KyZpNDKnfs94vbrwhJneDi77V6jF64PWPF8x5cdJb8ifgg2DUc9d');
  });

  it('signs the ownership message as personal_sign: r ‖ s ‖ v, recovering to the address', async () => {
    for (const phrase of [ABANDON, JUNK, newMnemonic()]) {
      const { evm } = addressesOf(phrase);
      const message = ownershipMessage(evm, 42);
      const signature = signPersonalMessage(phrase, message);
      expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
      expect(await recoverMessageAddress({ message, signature })).toBe(evm);
      // Another customer's message does not recover to it.
      expect(await recoverMessageAddress({ message: ownershipMessage(evm, 43), signature })).not.toBe(evm);
    }
  });
});
