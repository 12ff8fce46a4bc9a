import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** An EVM address: 0x and 40 hex digits, in any case. */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55: the address with its letters uppercased where the keccak-256 of its lowercase hex has a
 * nibble of 8 or more: the form wallets and explorers show (the browser wallet, notices, the NFT
 * and deposit screens all show this one).
 */
export function checksumAddress(address: string): `0x${string}` {
  const hex = address.toLowerCase().replace(/^0x/, '');
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++)
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? (hex[i] as string).toUpperCase() : hex[i];
  return out as `0x${string}`;
}

/** An EVM address in its checksummed form; any other text as it is. */
export function shownEvmAddress(address: string): string {
  return EVM_ADDRESS_PATTERN.test(address) ? checksumAddress(address) : address;
}
