import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import type { Hex } from '../chain.ts';

/**
 * Deposit addresses from extended public keys (BIP-32): child `index` (non-hardened) of the given
 * key. The key is the account's external chain (m/44'/60'/0'/0 for the EVM chain, m/84'/0'/0'/0
 * for Bitcoin), so the address of index i is the wallet's m/…/0/i: the private keys stay in the
 * wallet that made the key, never in the server.
 */

/**
 * The sandbox's keys: those of the published development mnemonic "test test test test test test
 * test test test test test junk" (anvil's and Hardhat's accounts). Anyone can spend what is sent to
 * them, so a production run refuses to start with them (config.ts).
 */
export const DEV_DEPOSIT_XPUB_EVM =
  'xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4';
export const DEV_DEPOSIT_XPUB_BTC =
  'xpub6FCawFZ6bFd5Yjp9gz5uLXVxJoEFkGGK35o1uqmzR9dC3Lxw3ra9hvG71dwGQJv6dUBx88nNQAwVJKt7nUFRH98mF7Na2eJ9BsumPu8omwS';

/** Version bytes of mainnet extended public keys: xpub (BIP-32/44) and zpub (BIP-84). */
const VERSIONS = {
  xpub: { public: 0x0488b21e, private: 0x0488ade4 },
  zpub: { public: 0x04b24746, private: 0x04b2430c },
} as const;

export const MAX_INDEX = 0x7fffffff;

/** Parses an xpub or zpub; throws on anything else (a private key included). */
export function parseExtendedPublicKey(key: string): HDKey {
  const prefix = key.slice(0, 4);
  if (prefix !== 'xpub' && prefix !== 'zpub') throw new Error('not an extended public key (xpub or zpub)');
  const hd = HDKey.fromExtendedKey(key, VERSIONS[prefix]);
  if (hd.privateKey) throw new Error('an extended private key: give the public key');
  return hd;
}

function childPublicKey(xpub: string | HDKey, index: number): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX)
    throw new RangeError(`index must be 0..${MAX_INDEX}`);
  const parent = typeof xpub === 'string' ? parseExtendedPublicKey(xpub) : xpub;
  const child = parent.deriveChild(index);
  if (!child.publicKey) throw new Error('no public key');
  return child.publicKey;
}

/** The EVM address (lowercase) of child `index`. */
export function deriveEvmAddress(xpub: string | HDKey, index: number): Hex {
  const uncompressed = secp256k1.Point.fromBytes(childPublicKey(xpub, index)).toBytes(false);
  return `0x${bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12))}`;
}

/** The Bitcoin mainnet P2WPKH address (bech32, bc1q…) of child `index`. */
export function deriveBtcAddress(xpub: string | HDKey, index: number): string {
  const hash = ripemd160(sha256(childPublicKey(xpub, index)));
  return bech32.encode('bc', [0, ...bech32.toWords(hash)]);
}
