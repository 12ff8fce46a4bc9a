import type { Addresses } from './keys.ts';

/**
 * The self-custody wallet's vault (DESIGN §2 rule 1): the words encrypted on the device under the
 * customer's passphrase, with WebCrypto only. PBKDF2-SHA-256 (600,000 iterations, a random 16-byte
 * salt) derives a non-extractable AES-GCM-256 key; a random 12-byte IV encrypts the phrase, bound
 * (additional data) to the customer and the wallet's EVM address. The record holds the public
 * addresses, whether the backup was verified and how the words came in clear, and nothing secret: neither the words
 * nor a key nor the passphrase.
 */

export const VAULT_VERSION = 1;
export const PBKDF2_ITERATIONS = 600_000;
export const PASSPHRASE_MIN = 10;

/** How the words came to this device: made here, or typed in whole from a backup. */
export type VaultOrigin = 'created' | 'restored';

export type VaultRecord = {
  version: typeof VAULT_VERSION;
  customerId: number;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number };
  /** base64 */
  salt: string;
  /** base64 */
  iv: string;
  /** base64: AES-GCM-256 of the phrase (UTF-8), tag included. */
  ciphertext: string;
  addresses: Addresses;
  /** The customer re-entered words of the phrase (spec §5), or restored it from all of them. */
  backupVerified: boolean;
  /** Which of the two (absent in records kept before it was recorded: either). */
  origin?: VaultOrigin;
  createdAt: string;
};

/** The passphrase does not open the vault (AES-GCM's authentication failed). */
export class WrongPassphrase extends Error {
  constructor() {
    super('wrong passphrase');
    this.name = 'WrongPassphrase';
  }
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function keyOf(passphrase: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(passphrase),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** What the ciphertext is bound to: a record moved to another customer or wallet does not open. */
const boundTo = (customerId: number, addresses: Addresses) =>
  new TextEncoder().encode(`swx-vault:${VAULT_VERSION}:${customerId}:${addresses.evm.toLowerCase()}`);

/** Encrypts a phrase into a new record for one customer. */
export async function sealVault(input: {
  customerId: number;
  mnemonic: string;
  passphrase: string;
  addresses: Addresses;
  backupVerified: boolean;
  origin: VaultOrigin;
  iterations?: number;
}): Promise<VaultRecord> {
  if (input.passphrase.length < PASSPHRASE_MIN) throw new Error('passphrase too short');
  const iterations = input.iterations ?? PBKDF2_ITERATIONS;
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await keyOf(input.passphrase, salt, iterations);
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: boundTo(input.customerId, input.addresses) },
      key,
      new TextEncoder().encode(input.mnemonic),
    ),
  );
  return {
    version: VAULT_VERSION,
    customerId: input.customerId,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations },
    salt: toBase64(salt),
    iv: toBase64(iv),
    ciphertext: toBase64(ciphertext),
    addresses: input.addresses,
    backupVerified: input.backupVerified,
    origin: input.origin,
    createdAt: new Date().toISOString(),
  };
}

/** The phrase of a record; `WrongPassphrase` when the passphrase is not the one it was sealed with. */
export async function openVault(record: VaultRecord, passphrase: string): Promise<string> {
  const key = await keyOf(passphrase, fromBase64(record.salt), record.kdf.iterations);
  try {
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: fromBase64(record.iv) as BufferSource,
        additionalData: boundTo(record.customerId, record.addresses),
      },
      key,
      fromBase64(record.ciphertext) as BufferSource,
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new WrongPassphrase();
  }
}

/** Does a stored value look like a vault record of this version? */
export function isVaultRecord(value: unknown): value is VaultRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<VaultRecord>;
  return (
    r.version === VAULT_VERSION &&
    typeof r.customerId === 'number' &&
    typeof r.salt === 'string' &&
    typeof r.iv === 'string' &&
    typeof r.ciphertext === 'string' &&
    typeof r.addresses?.evm === 'string' &&
    typeof r.addresses?.btc === 'string' &&
    typeof r.backupVerified === 'boolean'
  );
}
