import type { FileStoreConfig } from './config.storage.ts';
import type { Queryable } from './db.ts';
import { PostgresFileStore } from './storage.postgres.ts';
import { S3FileStore } from './storage.s3.ts';
import { FileStorage, type FileStore } from './storage.ts';

/** The file store the configuration names (config.storage.ts), on this database and data folder. */
export function openFileStore(config: FileStoreConfig, db: Queryable, dataDir: string): FileStore {
  if (config.kind === 's3') return new S3FileStore(config.s3);
  // Files an earlier version kept in the data folder stay readable after the switch to the table.
  if (config.kind === 'postgres') return new PostgresFileStore(db, new FileStorage(dataDir));
  return new FileStorage(dataDir);
}
