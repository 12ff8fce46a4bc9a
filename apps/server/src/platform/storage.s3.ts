import type { S3Client } from '@aws-sdk/client-s3';
import { type FileStore, isStorageKey, newStorageKey, type StoredFile } from './storage.ts';

/** An S3-compatible bucket as FILE_STORE=s3 names it (config.storage.ts); every field is required. */
export type S3StoreConfig = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

/**
 * Files as objects of one private bucket, through the AWS SDK's S3 client (any S3-compatible
 * service: path-style addressing, the endpoint named). Objects are written without an ACL, so
 * they stay as private as the bucket; nothing here hands out a URL to them. The SDK is loaded when
 * the store is made (FILE_STORE=s3 only): a node on another store never spends its start on it.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  private readonly sdk: Promise<{ s3: typeof import('@aws-sdk/client-s3'); client: S3Client }>;
  private readonly bucket: string;

  constructor(config: S3StoreConfig) {
    this.bucket = config.bucket;
    this.sdk = import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        endpoint: config.endpoint,
        region: config.region,
        forcePathStyle: true,
        credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      }),
    }));
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    const { s3, client } = await this.sdk;
    const key = newStorageKey();
    await client.send(
      new s3.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }),
    );
    return key;
  }

  async get(key: string): Promise<StoredFile | null> {
    if (!isStorageKey(key)) return null;
    const { s3, client } = await this.sdk;
    try {
      const object = await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body) return null;
      const bytes = Buffer.from(await object.Body.transformToByteArray());
      return { bytes, contentType: object.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (name === 'NoSuchKey' || $metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    const { s3, client } = await this.sdk;
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  close(): void {
    void this.sdk.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }
}
