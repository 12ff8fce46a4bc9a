/// <reference path="./s3rver.d.ts" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3StoreConfig } from '../../apps/server/src/platform/storage.s3.ts';

export type LocalS3 = { config: S3StoreConfig; env: Record<string, string>; close: () => Promise<void> };

/**
 * A real S3-compatible server on this machine (s3rver, from npm) on a free loopback port, with one
 * empty bucket; its objects in a temporary folder, removed on close. The credentials are s3rver's
 * fixed test pair (it accepts no other), never a real account's.
 */
export async function startLocalS3(bucket = 'swx-test'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'swx-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const config: S3StoreConfig = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  return {
    config,
    env: {
      FILE_STORE: 's3',
      S3_ENDPOINT: config.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: config.region,
      S3_ACCESS_KEY_ID: config.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey,
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
