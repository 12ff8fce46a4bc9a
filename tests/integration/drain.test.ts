import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallLong } from '../support/orders.ts';
import { listedCryptoId, ROOT, type RunningServer, startServer } from '../support/server.ts';
import { until } from '../support/until.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** Whether a new connection to the port is refused (the listener is closed). */
const refused = (port: number) =>
  new Promise<boolean>((done) => {
    const r = http.get({ host: '127.0.0.1', port, path: '/healthz' }, (response) => {
      response.resume();
      done(false);
    });
    r.on('error', () => done(true));
  });

describe('a node stopped with SIGTERM', () => {
  it('refuses new connections at once, and answers the request in flight in full', async () => {
    const marketId = await listedCryptoId(server.baseUrl, 'DOGEUSDT');
    const body = JSON.stringify(smallLong(marketId));
    // The request's head is in; its body is still on its way when the signal comes.
    const answer = new Promise<{ status: number; code: number }>((done, fail) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/swx/customer/order/previewOptions',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => done({ status: response.statusCode ?? 0, code: JSON.parse(text).code }));
        },
      );
      request.on('error', fail);
      request.write(body.slice(0, 10));
      setTimeout(() => {
        server.process.kill('SIGTERM');
        setTimeout(async () => {
          expect(await refused(server.port)).toBe(true);
          request.end(body.slice(10));
        }, 700);
      }, 300);
    });
    expect(await answer).toEqual({ status: 200, code: 200 });
    expect(await server.stop()).toBe(0);
  });
});

describe('a node whose starting process is gone (EXIT_WITH_PARENT=on, as every test server)', () => {
  it('stops by itself when that process is killed, and stays running while it lives', async () => {
    // A parent process starts a server the way the tests do, prints its port, and lives on.
    const support = pathToFileURL(join(ROOT, 'tests', 'support', 'server.ts')).href;
    const dataDir = mkdtempSync(join(tmpdir(), 'swx-orphan-'));
    const parent = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { startServer } = await import(${JSON.stringify(support)});
         const s = await startServer({}, { dataDir: ${JSON.stringify(dataDir)} });
         console.log('PORT ' + s.port);
         setInterval(() => {}, 1000);`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let printed = '';
    parent.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const port = Number(
      (await until(async () => /PORT (\d+)/.exec(printed)?.[1], Boolean, "the parent's server")) ?? 0,
    );
    try {
      expect(await refused(port)).toBe(false);
      // Killed without a chance to stop its child: the server is left to init.
      parent.kill('SIGKILL');
      await until(() => refused(port), Boolean, 'the orphaned server to stop');
    } finally {
      parent.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
