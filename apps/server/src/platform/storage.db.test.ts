import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../tests/support/db.ts';
import { type LocalS3, startLocalS3 } from '../../../../tests/support/s3.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openFileStore } from './storage.open.ts';
import type { FileStore } from './storage.ts';

/** Bytes of every value, a NUL and high bytes among them. */
const SAMPLE = Uint8Array.from({ length: 4096 }, (_, i) => (i * 37) % 256);

/**
 * One contract for every store: the folder, the `stored_files` table (on this lane's database)
 * and an S3 bucket on a real S3-compatible server (s3rver). `nodes` opens two stores over the
 * same backing store, as two server nodes do.
 */
type Backing = { name: string; nodes: () => [FileStore, FileStore] };

describe(`file stores on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let s3: LocalS3;
  let folder: string;
  beforeAll(async () => {
    [t, s3] = await Promise.all([openTestDatabase(), startLocalS3()]);
    folder = mkdtempSync(join(tmpdir(), 'swx-files-'));
  });
  afterAll(async () => {
    await Promise.all([t.close(), s3.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  const backings: Backing[] = [
    {
      name: 'folder',
      nodes: () => [
        openFileStore({ kind: 'folder' }, t.db, folder),
        openFileStore({ kind: 'folder' }, t.db, folder),
      ],
    },
    {
      name: 'postgres',
      nodes: () => [
        openFileStore({ kind: 'postgres' }, t.db, folder),
        openFileStore({ kind: 'postgres' }, t.db, folder),
      ],
    },
    {
      name: 's3',
      nodes: () => [
        openFileStore({ kind: 's3', s3: s3.config }, t.db, folder),
        openFileStore({ kind: 's3', s3: s3.config }, t.db, folder),
      ],
    },
  ];

  for (const backing of backings) {
    describe(backing.name, () => {
      it('keeps bytes and content type under a new random key, and forgets them on delete', async () => {
        const [store] = backing.nodes();
        expect(store.kind).toBe(backing.name);
        const key = await store.put(SAMPLE, 'image/png');
        const other = await store.put(new Uint8Array(0), 'application/pdf');
        expect(key).toMatch(/^[a-f0-9]{32}$/);
        expect(other).not.toBe(key);
        const file = await store.get(key);
        expect(file?.contentType).toBe('image/png');
        expect(Buffer.compare(file?.bytes ?? Buffer.alloc(1), Buffer.from(SAMPLE))).toBe(0);
        expect((await store.get(other))?.bytes.length).toBe(0);
        await store.delete(key);
        expect(await store.get(key)).toBeNull();
        await store.delete(key);
        expect((await store.get(other))?.contentType).toBe('application/pdf');
      });

      it('answers null for an unknown key and never looks up a malformed one', async () => {
        const [store] = backing.nodes();
        expect(await store.get('0'.repeat(32))).toBeNull();
        for (const bad of ['../../etc/passwd', 'A'.repeat(32), `${'a'.repeat(32)}.json`, '', "x' OR 1=1"]) {
          expect(await store.get(bad)).toBeNull();
          await store.delete(bad);
        }
      });

      it("reads on node B what node A put, and B's delete is A's too", async () => {
        const [a, b] = backing.nodes();
        const key = await a.put(SAMPLE.subarray(10, 500), 'image/jpeg');
        const read = await b.get(key);
        expect(read?.contentType).toBe('image/jpeg');
        expect(Buffer.compare(read?.bytes ?? Buffer.alloc(0), Buffer.from(SAMPLE.subarray(10, 500)))).toBe(0);
        await b.delete(key);
        expect(await a.get(key)).toBeNull();
      });
    });
  }

  it('the database store still reads, and deletes, a file an earlier version kept in the data folder', async () => {
    const before = openFileStore({ kind: 'folder' }, t.db, folder);
    const key = await before.put(SAMPLE.subarray(0, 64), 'application/pdf');
    const after = openFileStore({ kind: 'postgres' }, t.db, folder);
    expect((await after.get(key))?.contentType).toBe('application/pdf');
    await after.delete(key);
    expect(await after.get(key)).toBeNull();
    expect(await before.get(key)).toBeNull();
  });
});

describe('FILE_STORE in the configuration', () => {
  const s3 = {
    FILE_STORE: 's3',
    S3_ENDPOINT: 'https://s3.example.test',
    S3_BUCKET: 'swx-files',
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'not-a-real-secret',
  };
  const refusal = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig(env);
      return '';
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
  };

  it('keeps the folder on PGlite and the database with DATABASE_URL, unless FILE_STORE says otherwise', () => {
    expect(loadConfig({}).fileStore).toEqual({ kind: 'folder' });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/swx' }).fileStore).toEqual({ kind: 'postgres' });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/swx', FILE_STORE: 'folder' }).fileStore).toEqual({
      kind: 'folder',
    });
    expect(loadConfig({ FILE_STORE: 'postgres' }).fileStore).toEqual({ kind: 'postgres' });
    expect(loadConfig(s3).fileStore).toEqual({
      kind: 's3',
      s3: {
        endpoint: s3.S3_ENDPOINT,
        bucket: s3.S3_BUCKET,
        region: s3.S3_REGION,
        accessKeyId: s3.S3_ACCESS_KEY_ID,
        secretAccessKey: s3.S3_SECRET_ACCESS_KEY,
      },
    });
  });

  it('refuses FILE_STORE=s3 with any S3 setting missing, naming each, and S3 settings without it', () => {
    for (const name of Object.keys(s3).filter((n) => n !== 'FILE_STORE')) {
      const message = refusal({ ...s3, [name]: '' });
      expect(message).toContain('FILE_STORE=s3');
      expect(message).toContain(`missing: ${name}`);
    }
    expect(refusal({ S3_BUCKET: 'swx-files' })).toContain('S3_BUCKET: set for an S3 file store');
    expect(refusal({ ...s3, S3_ENDPOINT: 'http://s3.example.test' })).toContain('S3_ENDPOINT');
    expect(refusal({ FILE_STORE: 'disk' })).toContain('FILE_STORE');
  });
});
