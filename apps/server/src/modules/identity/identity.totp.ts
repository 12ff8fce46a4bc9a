import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import type { PurposeKeys } from '../../platform/keys.ts';

/**
 * TOTP (RFC 6238 over RFC 4226 HOTP) with node:crypto only: HMAC-SHA-1, 30-second steps, 6
 * digits; a code is accepted for the current step and one step either side. The shared secret is
 * kept encrypted with AES-256-GCM under the server's totp-seal key (platform/keys.ts), bound to its user id.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one (clock drift between phone and server). */
export const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA-1 block the RFC recommends. */
const SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what authenticator apps expect). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 to bytes; spaces, dashes, padding and case are ignored. Throws on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function newTotpSecret(): Buffer {
  return randomBytes(SECRET_BYTES);
}

/** RFC 4226 HOTP: dynamic truncation of HMAC-SHA-1(secret, counter), `digits` decimal digits. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
}

/** The code of the step that holds `nowMs`. */
export function totpCode(secret: Uint8Array, nowMs: number, digits = TOTP_DIGITS): string {
  return hotp(secret, totpStep(nowMs), digits);
}

/**
 * The step a code matches within ±TOTP_WINDOW of now, above `afterStep` (the last step accepted:
 * equal or older steps are replays), or null. Every candidate is compared in constant time.
 */
export function matchTotp(secret: Uint8Array, code: string, nowMs: number, afterStep: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStep(nowMs);
  let matched: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const expected = Buffer.from(hotp(secret, step));
    const same = timingSafeEqual(expected, Buffer.from(code));
    if (same && step > afterStep && matched === null) matched = step;
  }
  return matched;
}

/** The otpauth URI authenticator apps read (Key Uri Format): issuer SWX, SHA1, 6 digits, 30 s. */
export function otpauthUri(secretBase32: string, account: string, issuer = 'SWX'): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}

/**
 * AES-256-GCM under the seal keys' current key, with the user id as associated data:
 * `v2.<key id>.<iv>.<tag>.<ciphertext>`. `aad` names whose secret it is (customer or staff).
 */
export function sealSecret(keys: PurposeKeys, userId: number, secret: Uint8Array, aad = 'totp'): string {
  const { id, key } = keys.current;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`${aad}:${userId}`));
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  return ['v2', id, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/**
 * Decrypts a sealed secret under the key of its id (the current master's or the previous one's);
 * throws when the key id is no longer accepted, or the key, the user or the ciphertext does not
 * match. `stale`: sealed under the previous master, to be sealed again under the current one.
 */
export function openSecret(
  keys: PurposeKeys,
  userId: number,
  sealed: string,
  aad = 'totp',
): { secret: Buffer; stale: boolean } {
  const [version, id, iv, tag, body, ...rest] = sealed.split('.');
  if (version !== 'v2' || !id || !iv || !tag || !body || rest.length > 0)
    throw new Error('unknown sealed secret format');
  const key = keys.byId(id);
  if (!key) throw new Error(`sealed under key ${id}, which is no longer accepted`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(`${aad}:${userId}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const secret = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  return { secret, stale: id !== keys.current.id };
}

/** Recovery codes: 16 characters of a 32-letter alphabet without 0/O/1/I (80 bits), in groups of 4. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 16; i++) code += RECOVERY_ALPHABET[randomInt(0, RECOVERY_ALPHABET.length)];
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** The canonical form a recovery code is hashed in: upper case, no spaces or dashes. */
export function normalizeRecoveryCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, '');
}

/** What sealing every secret again under the current key did (`npm run keys:reseal`). */
export type ResealReport = { resealed: number; current: number; unreadable: number[] };

/**
 * Seals every secret of `rows` that is under the previous master again under the current one,
 * each by compare-and-set (`reseal` answers false when the secret changed meanwhile: it is then
 * under the current key already). `unreadable`: the owners whose secret no accepted key opens.
 */
export async function resealAll(
  keys: PurposeKeys,
  aad: string,
  rows: readonly { owner: number; secretEnc: string }[],
  reseal: (owner: number, was: string, sealed: string) => Promise<boolean>,
): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, current: 0, unreadable: [] };
  for (const row of rows) {
    let opened: { secret: Buffer; stale: boolean };
    try {
      opened = openSecret(keys, row.owner, row.secretEnc, aad);
    } catch {
      report.unreadable.push(row.owner);
      continue;
    }
    if (!opened.stale) report.current += 1;
    else if (await reseal(row.owner, row.secretEnc, sealSecret(keys, row.owner, opened.secret, aad)))
      report.resealed += 1;
    else report.current += 1;
  }
  return report;
}
