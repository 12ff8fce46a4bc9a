import { uploadFileUrl } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { pngImage } from '../support/images.ts';
import { type LocalS3, startLocalS3 } from '../support/s3.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';
import { storedFiles, uploadedId } from '../support/uploads.ts';

/** A file as its owner reads it back from a node: status, type and bytes. */
async function readBack(node: RunningServer, session: Session, id: string) {
  const response = await fetch(`${node.baseUrl}${uploadFileUrl(id)}`, {
    headers: { authorization: session.token },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('files on two nodes sharing PostgreSQL (the default store: the database)', () => {
  let database: TestDatabase;
  let inbox: Inbox;
  const nodes: RunningServer[] = [];
  beforeAll(async () => {
    [database, inbox] = await Promise.all([
      openTestDatabase({ kind: 'postgres', migrated: false }),
      startInbox(),
    ]);
    const env = { DATABASE_URL: database.url ?? '', SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, FEED: 'off' };
    nodes.push(await startServer({ ...env, NODE_ID: 'files-a' }));
    nodes.push(await startServer({ ...env, NODE_ID: 'files-b' }));
  }, 240_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await inbox?.close();
    await database?.close();
  });

  it('serves from node B an upload node A took, and neither keeps it in its folder', async () => {
    const [a, b] = nodes as [RunningServer, RunningServer];
    const ada = await registerByApi(a, inbox, 'ada.files@example.com');
    const id = await uploadedId(a.baseUrl, ada.token, 'kyc_front', await pngImage());
    const fromA = await readBack(a, ada, id);
    const fromB = await readBack(b, ada, id);
    expect(fromA.status).toBe(200);
    expect(fromB).toMatchObject({ status: 200, type: fromA.type });
    expect(Buffer.compare(fromB.bytes, fromA.bytes)).toBe(0);
    expect(storedFiles(a.dataDir)).toEqual([]);
    expect(storedFiles(b.dataDir)).toEqual([]);
    expect(await (await fetch(`${b.baseUrl}/readyz`)).json()).toMatchObject({ files: 'postgres' });
  });
});

describe('files in an S3 bucket (FILE_STORE=s3, a local S3-compatible server)', () => {
  let s3: LocalS3;
  let inbox: Inbox;
  let server: RunningServer;
  beforeAll(async () => {
    [s3, inbox] = await Promise.all([startLocalS3(), startInbox()]);
    server = await startServer({ ...s3.env, SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, FEED: 'off' });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    await s3?.close();
  });

  it('keeps an upload in the bucket, not the data folder, and serves it back to its owner', async () => {
    const bea = await registerByApi(server, inbox, 'bea.files@example.com');
    const id = await uploadedId(server.baseUrl, bea.token, 'kyc_front', await pngImage());
    const read = await readBack(server, bea, id);
    expect(read.status).toBe(200);
    expect(read.type).toBe('image/png');
    expect(read.bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(storedFiles(server.dataDir)).toEqual([]);
    expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toMatchObject({ files: 's3' });
  });

  it('refuses to start with FILE_STORE=s3 and a setting missing, naming it', async () => {
    const { S3_SECRET_ACCESS_KEY: _, ...partial } = s3.env;
    await expect(startServer({ ...partial, FEED: 'off' }, { startTimeoutMs: 60_000 })).rejects.toThrow(
      /missing: S3_SECRET_ACCESS_KEY/,
    );
  });
});
