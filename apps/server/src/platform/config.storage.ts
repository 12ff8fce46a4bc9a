import { z } from 'zod';
import { httpUrl, optional } from './config.fields.ts';
import type { S3StoreConfig } from './storage.s3.ts';

/**
 * Where uploads and generated documents are kept (platform/storage.ts): `postgres` (the
 * `stored_files` table; the default with DATABASE_URL), `folder` (DATA_DIR/files; the default
 * without) or `s3` (an S3-compatible bucket: every S3_* below, none with a default).
 */
export const FILE_STORE_ENV = {
  FILE_STORE: optional(z.enum(['folder', 'postgres', 's3'])),
  S3_ENDPOINT: optional(httpUrl('S3_ENDPOINT')),
  S3_BUCKET: optional(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name')),
  S3_REGION: optional(z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be a region name, e.g. us-east-1')),
  S3_ACCESS_KEY_ID: optional(z.string().min(1)),
  S3_SECRET_ACCESS_KEY: optional(z.string().min(1)),
};

/** Where uploads and generated documents are kept (platform/storage.ts). */
export type FileStoreConfig = { kind: 'folder' } | { kind: 'postgres' } | { kind: 's3'; s3: S3StoreConfig };

type FileStoreEnv = {
  FILE_STORE?: 'folder' | 'postgres' | 's3' | undefined;
  DATABASE_URL?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_REGION?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
};

const S3_SETTINGS = [
  ['S3_ENDPOINT', 'endpoint'],
  ['S3_BUCKET', 'bucket'],
  ['S3_REGION', 'region'],
  ['S3_ACCESS_KEY_ID', 'accessKeyId'],
  ['S3_SECRET_ACCESS_KEY', 'secretAccessKey'],
] as const;

/**
 * FILE_STORE, or its default: the `stored_files` table with DATABASE_URL (every node reaches it),
 * else the data folder (PGlite: one node). FILE_STORE=s3 needs every S3_* setting: none has a
 * default, and a missing one is refused with its name rather than guessed.
 */
export function fileStoreConfig(e: FileStoreEnv, issues: string[]): FileStoreConfig {
  const kind = e.FILE_STORE ?? (e.DATABASE_URL ? 'postgres' : 'folder');
  const given = S3_SETTINGS.filter(([name]) => e[name] !== undefined).map(([name]) => name);
  if (kind !== 's3') {
    if (given.length > 0)
      issues.push(
        `  ${given.join(', ')}: set for an S3 file store, but FILE_STORE is ${kind}; set FILE_STORE=s3 or unset them`,
      );
    return { kind };
  }
  const missing = S3_SETTINGS.filter(([name]) => e[name] === undefined).map(([name]) => name);
  if (missing.length > 0) {
    issues.push(
      `  ${missing.join(', ')}: FILE_STORE=s3 needs the bucket's endpoint, name, region and access key (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY); missing: ${missing.join(', ')}`,
    );
    return { kind: 'folder' };
  }
  const s3 = Object.fromEntries(S3_SETTINGS.map(([name, field]) => [field, e[name]])) as S3StoreConfig;
  return { kind: 's3', s3 };
}
