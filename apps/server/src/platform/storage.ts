import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Private file storage under the data folder, outside anything served statically. Keys are random
 * (128 bits) and checked before they touch a path, so a key from a request can never escape the
 * folder. Callers decide who may read a file; storage only keeps it.
 */
export type StoredFile = { bytes: Buffer; contentType: string };

const KEY = /^[a-f0-9]{32}$/;

export class FileStorage {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'files');
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('bad storage key');
    return join(this.root, key.slice(0, 2), key);
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    const key = randomBytes(16).toString('hex');
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
