import type { Queryable } from './db.ts';
import { deleteStoredFile, insertStoredFile, selectStoredFile } from './storage.repository.ts';
import type { FileStorage } from './storage.ts';
import { type FileStore, isStorageKey, newStorageKey, type StoredFile } from './storage.ts';

/**
 * Files as rows of `stored_files` (migration 0059): every node on the same database reads what
 * any node wrote. The default store with DATABASE_URL; FILE_STORE=postgres picks it on PGlite too (the same table).
 * `earlier`: the data folder's store, where this node kept files before the table existed: a key
 * not in the table is read there, so an upgrade loses no file (new files go to the table only).
 */
export class PostgresFileStore implements FileStore {
  readonly kind = 'postgres';
  private readonly db: Queryable;
  private readonly earlier: FileStorage | undefined;

  constructor(db: Queryable, earlier?: FileStorage) {
    this.db = db;
    this.earlier = earlier;
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    const key = newStorageKey();
    await insertStoredFile(this.db, { key, contentType, bytes });
    return key;
  }

  async get(key: string): Promise<StoredFile | null> {
    if (!isStorageKey(key)) return null;
    return (await selectStoredFile(this.db, key)) ?? (await this.earlier?.get(key)) ?? null;
  }

  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    await deleteStoredFile(this.db, key);
    await this.earlier?.delete(key);
  }
}
