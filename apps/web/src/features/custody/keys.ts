import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58check, bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { checksumAddress } from '@swx/contract/evmAddress';
import { normalizeMnemonic } from './words.ts';

/**
 * The self-custody wallet's keys (DESIGN §2 rule 1), computed in the browser only: the BIP-32 seed
 * of the words (words.ts), the EVM account m/44'/60'/0'/0/0 and the Bitcoin P2WPKH account
 * m/84'/0'/0'/0/0. Nothing here talks to the network or stores anything; the words are kept only
 * encrypted (vault.ts), and only public addresses and signatures leave the device. The screens load
 * this module (the elliptic curve and BIP-32 code) only when they derive or sign (`import()`), so
 * none of them pays for it before.
 */

export const EVM_PATH = "m/44'/60'/0'/0/0";
export const BTC_PATH = "m/84'/0'/0'/0/0";

export type Addresses = { evm: `0x${string}`; btc: string };

/** The BIP-39 seed of a phrase and an optional BIP-39 passphrase (the wallet itself uses none). */
export function seedOf(mnemonic: string, passphrase = ''): Uint8Array {
  return mnemonicToSeedSync(normalizeMnemonic(mnemonic), passphrase);
}

function keyAt(seed: Uint8Array, path: string): Uint8Array {
  const key = HDKey.fromMasterSeed(seed).derive(path).privateKey;
  if (!key) throw new Error('no private key');
  return key;
}

/** The EVM address of a private key: the last 20 bytes of keccak-256 of the uncompressed public key. */
export function evmAddressOf(privateKey: Uint8Array): `0x${string}` {
  const uncompressed = secp256k1.getPublicKey(privateKey, false);
  return checksumAddress(bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12)));
}

/** The Bitcoin mainnet P2WPKH address (bech32, bc1q…) of a private key: witness v0, hash160 of the compressed key. */
export function btcAddressOf(privateKey: Uint8Array): string {
  const hash160 = ripemd160(sha256(secp256k1.getPublicKey(privateKey, true)));
  return bech32.encode('bc', [0, ...bech32.toWords(hash160)]);
}

/** A Bitcoin mainnet private key as WIF (compressed public key): base58check(0x80 ‖ key ‖ 0x01). */
export function wifOf(privateKey: Uint8Array): string {
  return base58check(sha256).encode(concatBytes(Uint8Array.of(0x80), privateKey, Uint8Array.of(0x01)));
}

/** The wallet's public addresses (what may be shown, stored in clear and sent). */
export function addressesOf(mnemonic: string): Addresses {
  const seed = seedOf(mnemonic);
  return { evm: evmAddressOf(keyAt(seed, EVM_PATH)), btc: btcAddressOf(keyAt(seed, BTC_PATH)) };
}

/** The private keys, for the reveal screen only: the EVM key as 0x hex, the Bitcoin key as WIF. */
export function privateKeysOf(mnemonic: string): { evm: `0x${string}`; btc: string } {
  const seed = seedOf(mnemonic);
  return { evm: `0x${bytesToHex(keyAt(seed, EVM_PATH))}`, btc: wifOf(keyAt(seed, BTC_PATH)) };
}

/** The EIP-191 hash of a personal message: keccak-256("\x19Ethereum Signed Message:\n" ‖ length ‖ message). */
export function personalMessageHash(message: string): Uint8Array {
  const bytes = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${bytes.length}`), bytes));
}

/**
 * personal_sign of a message with the wallet's EVM key: 65 bytes r ‖ s ‖ v (v 27 or 28, low s),
 * as 0x hex — what `recoverMessageAddress` and the server's ownership check take.
 */
export function signPersonalMessage(mnemonic: string, message: string): `0x${string}` {
  const key = keyAt(seedOf(mnemonic), EVM_PATH);
  // 'recovered' is recovery ‖ r ‖ s; Ethereum wants r ‖ s ‖ (27 + recovery).
  const signed = secp256k1.sign(personalMessageHash(message), key, { prehash: false, format: 'recovered' });
  const v = 27 + (signed[0] as number);
  return `0x${bytesToHex(concatBytes(signed.subarray(1), Uint8Array.of(v)))}`;
}
