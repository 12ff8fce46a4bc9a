import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';

/**
 * The server's keys: one master secret (MASTER_KEY, or in the sandbox a random key made at first
 * start and kept in DATA_DIR/master.key, mode 0600), from which one key per purpose is derived
 * (HKDF-SHA-256, the purpose in its info), so a token of one purpose is never good for another.
 * Every master has a key id (derived from it: nothing to configure), carried by what it signs or
 * seals; MASTER_KEY_PREVIOUS keeps the master before a rotation readable, so that what was signed
 * under it stays valid for its own lifetime, and fails once the previous key is removed.
 */

/** What a derived key is for. A new kind of signed or sealed token adds its purpose here. */
export type KeyPurpose =
  /** Quote ids: the figures a customer may commit (modules/products/quotes.ts). */
  | 'quotes'
  /** Device cookies: a device that signed in keeps its own sign-in limit (identity.devices.ts). */
  | 'device-tokens'
  /** Customers' two-step (TOTP) secrets sealed at rest. */
  | 'totp-seal'
  /** Staff members' two-step secrets sealed at rest. */
  | 'staff-totp-seal'
  /** Proof of liabilities: each customer's leaf secret (HMAC of the tree and the customer). */
  | 'proof-leaves'
  /** Proof of liabilities: the Ed25519 seed that signs the published roots. */
  | 'proof-signing'
  /** The charity donation log (modules/nft/log): the Ed25519 seed that signs its tree heads. */
  | 'donation-log-signing';

/** A key id: 8 base64url characters. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{8}$/;

/** A master secret and its id. */
export type MasterKey = { id: string; secret: Buffer };

export function masterKey(secret: Buffer): MasterKey {
  if (secret.length !== 32) throw new Error('a master key is 32 bytes');
  const id = createHmac('sha256', secret).update('swx key id').digest('base64url').slice(0, 8);
  return { id, secret };
}

/** One purpose's keys: the current one (to sign or seal) and, by id, every one still accepted. */
export class PurposeKeys {
  readonly current: { id: string; key: Buffer };
  private readonly byIdMap: ReadonlyMap<string, Buffer>;

  constructor(purpose: KeyPurpose, masters: readonly MasterKey[]) {
    const [first] = masters;
    if (!first) throw new Error('no master key');
    const derive = (master: MasterKey) =>
      Buffer.from(hkdfSync('sha256', master.secret, 'swx keys', `swx ${purpose} v2`, 32));
    this.current = { id: first.id, key: derive(first) };
    this.byIdMap = new Map(masters.map((m) => [m.id, derive(m)]));
  }

  /** The key of an id still accepted (the current or the previous master's); undefined for any other. */
  byId(id: string): Buffer | undefined {
    return this.byIdMap.get(id);
  }
}

/** The keys of every purpose, from the current master and the previous one (if kept). */
export class KeyRing {
  readonly masters: readonly MasterKey[];
  private readonly purposes = new Map<KeyPurpose, PurposeKeys>();

  constructor(current: Buffer, previous: Buffer | null = null) {
    const masters = [masterKey(current)];
    if (previous) {
      const old = masterKey(previous);
      if (old.id !== masters[0]?.id) masters.push(old);
    }
    this.masters = masters;
  }

  /** A ring of a fresh random master (tests, and a service built without the server's ring). */
  static random(): KeyRing {
    return new KeyRing(randomBytes(32));
  }

  get currentId(): string {
    return this.masters[0]?.id ?? '';
  }

  purpose(purpose: KeyPurpose): PurposeKeys {
    let keys = this.purposes.get(purpose);
    if (!keys) {
      keys = new PurposeKeys(purpose, this.masters);
      this.purposes.set(purpose, keys);
    }
    return keys;
  }
}

/** The sandbox master's file in DATA_DIR. */
export const SANDBOX_KEY_FILE = 'master.key';

/**
 * The sandbox's master key: read from DATA_DIR/master.key, or made (32 random bytes, as 64 hex
 * digits) and written there with mode 0600 at first start. Never used in production, which
 * refuses to start without MASTER_KEY (config.ts).
 */
export function sandboxMasterKey(dataDir: string): Buffer {
  const path = join(dataDir, SANDBOX_KEY_FILE);
  if (!existsSync(path)) {
    // Written whole under a name of this process, then linked in place (link fails if the name
    // exists): two processes starting at once on one folder keep one key, and neither reads half.
    const draft = `${path}.${process.pid}.new`;
    writeFileSync(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    try {
      linkSync(draft, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const text = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(text))
    throw new Error(`${path} is not a key (64 hex digits); remove it to have a new one made`);
  return Buffer.from(text, 'hex');
}

/** The server's ring from its configuration: MASTER_KEY (production always sets it) or the sandbox's own. */
export function platformKeys(config: Pick<Config, 'masterKeys' | 'dataDir'>): KeyRing {
  return new KeyRing(
    config.masterKeys.current ?? sandboxMasterKey(config.dataDir),
    config.masterKeys.previous,
  );
}
