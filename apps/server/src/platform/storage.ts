import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Private file storage: uploads and generated documents, never served statically. Keys are random
 * (128 bits, 32 hex digits) and checked before they touch a path, a row or an object name, so a key
 * from a request can never reach anything else. Callers decide who may read a file; a store only
 * keeps it, with its content type. Three stores (storage.open.ts picks one from the configuration):
 * this folder (the PGlite default), the database's `stored_files` table (storage.postgres.ts,
 * the default with DATABASE_URL: every node reaches it) and an S3-compatible bucket (storage.s3.ts).
 */
export type StoredFile = { bytes: Buffer; contentType: string };

export interface FileStore {
  /** Which store this is (`/readyz` and the `listening` log line name it). */
  readonly kind: 'folder' | 'postgres' | 's3';
  /** Keeps the bytes under a new random key and returns the key. */
  put(bytes: Uint8Array, contentType: string): Promise<string>;
  /** The file under the key; null for an unknown or malformed key. */
  get(key: string): Promise<StoredFile | null>;
  /** Forgets the file; an unknown or malformed key is nothing to do. */
  delete(key: string): Promise<void>;
}

const KEY = /^[a-f0-9]{32}$/;

/** A new random key (128 bits). */
export const newStorageKey = (): string => randomBytes(16).toString('hex');

/** Whether a text is a key a store could have made: the check before any lookup. */
export const isStorageKey = (key: string): boolean => KEY.test(key);

/** The folder store: DATA_DIR/files/<first two digits>/<key>, its content type beside it. */
export class FileStorage implements FileStore {
  readonly kind = 'folder';
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'files');
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('bad storage key');
    return join(this.root, key.slice(0, 2), key);
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    const key = newStorageKey();
    const path = this.pathOf(key);
    await mkdir(join(this.root, key.slice(0, 2)), { recursive: true, mode: 0o700 });
    await writeFile(path, bytes, { mode: 0o600, flag: 'wx' });
    await writeFile(`${path}.json`, JSON.stringify({ contentType }), { mode: 0o600, flag: 'wx' });
    return key;
  }

  async get(key: string): Promise<StoredFile | null> {
    if (!KEY.test(key)) return null;
    const path = this.pathOf(key);
    try {
      const [bytes, meta] = await Promise.all([readFile(path), readFile(`${path}.json`, 'utf8')]);
      const { contentType } = JSON.parse(meta) as { contentType: string };
      return { bytes, contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    const path = this.pathOf(key);
    await Promise.all([rm(path, { force: true }), rm(`${path}.json`, { force: true })]);
  }
}
